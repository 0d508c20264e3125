/**
 * Where attachment and export files live (DESIGN 6): one interface, three implementations: files under
 * `DATA_DIR/files` (one machine), chunks in the database (postgres-store.ts), which every instance on
 * that database shares, and objects in an S3-compatible bucket (s3-store.ts), which every instance
 * using the bucket shares. Each implements the same calls (put with a random key, open as a stream,
 * read whole, remove, list), so nothing else changes when files move elsewhere.
 *
 * Keys are random and say nothing about the file: the name, type and owner are in the database.
 * A client-supplied name never becomes part of a path.
 */
import { randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Readable } from 'node:stream';
import type { Db } from '../db/database.ts';
import type { FileStore } from './file-store.ts';
import { isFileKey, newKey } from './keys.ts';
import { removalsAllowed } from './removal-hold.ts';
import { postgresFileStore } from './postgres-store.ts';
import { s3FileStore, type S3Settings } from './s3-store.ts';

export { newKey, isFileKey };

export type { FileStore };

export type FilesStoreKind = 'local' | 'postgres' | 's3';

const PART = /^[0-9a-f]{30}\.[0-9a-f]{8}\.part$/;

/** Files under `<root>` (DATA_DIR/files), written to a temporary name and renamed when complete. */
export function localFileStore(root: string): FileStore {
  const pathOf = (key: string): string | undefined => (isFileKey(key) ? join(root, key) : undefined);

  /** The fan-out folders and their entries; a missing root is an empty store. */
  async function* entries(): AsyncGenerator<{ folder: string; name: string }> {
    for (const folder of await readdir(root).catch(() => [])) {
      if (!/^[0-9a-f]{2}$/.test(folder)) continue;
      for (const name of await readdir(join(root, folder)).catch(() => [])) yield { folder, name };
    }
  }

  async function write(key: string, content: Readable | Buffer): Promise<number> {
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
    return (await stat(path)).size;
  }

  return {
    async put(content) {
      const key = newKey();
      return { key, size: await write(key, content) };
    },
    async putAt(key, content) {
      const path = pathOf(key);
      if (!path) throw new Error(`Not a file key: ${key}`);
      if (
        await stat(path).then(
          () => true,
          () => false,
        )
      ) {
        if (!Buffer.isBuffer(content)) content.destroy();
        return false;
      }
      await write(key, content);
      return true;
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
      if (!path) return;
      // A backup copying this folder holds removals (removal-hold.ts).
      await removalsAllowed(root);
      await rm(path, { force: true });
    },
    async *keys() {
      for await (const { folder, name } of entries()) {
        const key = `${folder}/${name}`;
        if (isFileKey(key)) yield key;
      }
    },
    async removeAbandoned(before) {
      let removed = 0;
      for await (const { folder, name } of entries()) {
        if (!PART.test(name)) continue;
        const path = join(root, folder, name);
        const info = await stat(path).catch(() => undefined);
        if (!info || info.mtime >= before) continue;
        await rm(path, { force: true });
        removed++;
      }
      return removed;
    },
  };
}

/**
 * The store of a configuration (FILES_STORE): chunks in the database for `postgres`, which every
 * instance on that database shares; objects in the bucket of FILES_S3_* for `s3`; otherwise files
 * under DATA_DIR/files. The database and S3 stores read a key they do not hold from the folder still,
 * so files written before the switch open until `npm run files:migrate` has copied them.
 */
export function fileStoreFor(
  config: { dataDir: string; filesStore?: FilesStoreKind; s3?: S3Settings },
  db: Db,
): FileStore {
  const local = localFileStore(join(config.dataDir, 'files'));
  switch (config.filesStore) {
    case 'postgres':
      return postgresFileStore(db, { fallback: local });
    case 's3':
      if (!config.s3)
        throw new Error('FILES_STORE=s3 needs FILES_S3_BUCKET: the bucket the files are kept in');
      return s3FileStore(config.s3, { fallback: local });
    default:
      return local;
  }
}
