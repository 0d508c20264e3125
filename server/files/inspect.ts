/**
 * Looks at a file while it streams to storage, so a 20 MB upload is never held in memory: keeps the
 * first bytes (for the signature check), counts the size (refusing past the limit), and follows the
 * UTF-8 decoding of the whole content (text kinds must be valid UTF-8 without NUL bytes).
 */
import { Transform, type TransformCallback } from 'node:stream';
import type { ContentFacts } from './kinds.ts';

const HEAD_BYTES = 4096;

/** Thrown (through the stream) when a file passes the size limit. */
export class FileTooLargeError extends Error {
  constructor(readonly limit: number) {
    super(`The file is larger than ${limit} bytes.`);
  }
}

export class ContentInspector extends Transform {
  private readonly headChunks: Buffer[] = [];
  private headLength = 0;
  private size = 0;
  private text = true;
  private readonly decoder = new TextDecoder('utf-8', { fatal: true });

  constructor(private readonly maxBytes: number) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.size += chunk.length;
    if (this.size > this.maxBytes) {
      callback(new FileTooLargeError(this.maxBytes));
      return;
    }
    if (this.headLength < HEAD_BYTES) {
      const part = chunk.subarray(0, HEAD_BYTES - this.headLength);
      this.headChunks.push(part);
      this.headLength += part.length;
    }
    if (this.text) {
      if (chunk.includes(0)) this.text = false;
      else {
        try {
          this.decoder.decode(chunk, { stream: true });
        } catch {
          this.text = false;
        }
      }
    }
    callback(null, chunk);
  }

  override _flush(callback: TransformCallback): void {
    if (this.text) {
      try {
        // A multi-byte character cut off at the end of the file is invalid too.
        this.decoder.decode();
      } catch {
        this.text = false;
      }
    }
    callback();
  }

  /** What was seen; complete once the stream has ended. */
  facts(): ContentFacts {
    return { head: Buffer.concat(this.headChunks), size: this.size, isText: this.text };
  }
}

/** The facts of a file that is already in memory (demo data, tests). */
export function inspectBuffer(bytes: Buffer): ContentFacts {
  let isText = !bytes.includes(0);
  if (isText) {
    try {
      new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    } catch {
      isText = false;
    }
  }
  return { head: bytes.subarray(0, HEAD_BYTES), size: bytes.length, isText };
}
