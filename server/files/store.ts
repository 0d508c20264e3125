/**
 * Where attachment files live (DESIGN 6): one interface, a local implementation under
 * `DATA_DIR/files`. An S3-compatible store implements the same four calls (put with a random key,
 * open as a stream, read whole, remove), so nothing else changes when files move off the machine.
 *
 * Keys are random and say nothing about the file: the name, type and owner are in the database.
 * A client-supplied name never becomes part of a path.
 */
import { randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, readFile, rename, rm, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Readable } from 'node:stream';

export interface FileStore {
  /** Writes the content under a new random key. On any error nothing is left behind. */
  put(content: Readable | Buffer): Promise<{ key: string; size: number }>;
  /** The content as a stream, or undefined when the key holds no file. */
  open(key: string): Promise<{ stream: Readable; size: number } | undefined>;
  /** The whole content (mail attachments), or undefined when the key holds no file. */
  read(key: string): Promise<Buffer | undefined>;
  /** Removes the file; a key that holds none is not an error. */
  remove(key: string): Promise<void>;
}

/** `ab/<30 more hex digits>`: 128 random bits, fanned out over 256 folders. */
const KEY = /^[0-9a-f]{2}\/[0-9a-f]{30}$/;

export function newKey(): string {
  const hex = randomBytes(16).toString('hex');
  return `${hex.slice(0, 2)}/${hex.slice(2)}`;
}

/** Files under `<root>` (DATA_DIR/files), written to a temporary name and renamed when complete. */
export function localFileStore(root: string): FileStore {
  const pathOf = (key: string): string | undefined => (KEY.test(key) ? join(root, key) : undefined);

  return {
    async put(content) {
      const key = newKey();
      const path = pathOf(key)!;
      const partial = `${path}.${randomBytes(4).toString('hex')}.part`;
      await mkdir(dirname(path), { recursive: true });
      try {
        const source = Buffer.isBuffer(content) ? Readable.from([content]) : content;
        await pipeline(source, createWriteStream(partial, { mode: 0o600, flags: 'wx' }));
        await rename(partial, path);
      } catch (error) {
        await rm(partial, { force: true });
        throw error;
      }
      return { key, size: (await stat(path)).size };
    },
    async open(key) {
      const path = pathOf(key);
      if (!path) return undefined;
      try {
        const { size } = await stat(path);
        return { stream: createReadStream(path), size };
      } catch {
        return undefined;
      }
    },
    async read(key) {
      const path = pathOf(key);
      if (!path) return undefined;
      return readFile(path).catch(() => undefined);
    },
    async remove(key) {
      const path = pathOf(key);
      if (path) await rm(path, { force: true });
    },
  };
}

/** The store of a configuration: local files under DATA_DIR/files. */
export function fileStoreFor(config: { dataDir: string }): FileStore {
  return localFileStore(join(config.dataDir, 'files'));
}
