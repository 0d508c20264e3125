/** The part of tar-stream 2.2 (no types of its own) the backup uses: archive.ts. */
declare module 'tar-stream' {
  import type { Readable, Writable } from 'node:stream';

  interface Header {
    name: string;
    size?: number;
    type?: string;
    mode?: number;
    mtime?: Date;
  }
  interface Pack extends Readable {
    entry(header: Header, content: Buffer | string, callback?: (error?: Error) => void): Writable;
    entry(header: Header, callback?: (error?: Error) => void): Writable;
    finalize(): void;
  }
  interface Extract extends Writable {
    on(event: 'entry', listener: (header: Header, stream: Readable, next: () => void) => void): this;
    on(event: 'finish' | 'close', listener: () => void): this;
    on(event: 'error', listener: (error: Error) => void): this;
  }
  export function pack(): Pack;
  export function extract(): Extract;
}
