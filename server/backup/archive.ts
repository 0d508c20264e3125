/**
 * The backup archive (docs/backup.md): one .tar.gz holding
 *   manifest.json   format version, app version, latest migration, created_at, what else is inside
 *   database.tar    PGlite's dumpDataDir of the embedded database (loadDataDir reads it back)
 *   jwt-secret      DATA_DIR/jwt-secret, when there is one: sessions survive a restore
 *   files/ab/…      DATA_DIR/files, one entry per stored file, under its key
 * Reading treats the archive as hostile: only these names are accepted, every file name must be a
 * file key (no path of the archive's choosing is ever written), and sizes are bounded by the archive.
 */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Readable, Writable } from 'node:stream';
import { createGunzip, createGzip } from 'node:zlib';
import tar from 'tar-stream';
import { isFileKey } from '../files/keys.ts';

/** Raised when an archive's manifest says more than this code can read. */
export const FORMAT_VERSION = 1;

export interface Manifest {
  format: number;
  app: string;
  version: string;
  /** The newest migration the database had run when it was dumped. */
  latestMigration: string;
  createdAt: string;
  /** How many files the archive holds (a restore checks it found them all). */
  files: number;
}

export class BadArchive extends Error {}

/** Writes entries to a gzipped tar on `out`; `finish()` resolves once everything is written. */
export function archiveWriter(out: Writable) {
  const pack = tar.pack();
  const done = pipeline(pack, createGzip(), out);
  // A failure of the output (a closed socket) must not be an unhandled rejection before finish().
  done.catch(() => undefined);
  const add = (name: string, content: Buffer) =>
    new Promise<void>((resolve, reject) =>
      pack.entry({ name, size: content.length, mode: 0o600 }, content, (error) =>
        error ? reject(error) : resolve(),
      ),
    );
  return {
    add,
    /** Streams one file in; false when it vanished before it could be opened. */
    async addFile(name: string, path: string): Promise<boolean> {
      const info = await stat(path).catch(() => undefined);
      if (!info?.isFile()) return false;
      const entry = pack.entry({ name, size: info.size, mode: 0o600 });
      await pipeline(createReadStream(path), entry);
      return true;
    },
    async finish(): Promise<void> {
      pack.finalize();
      await done;
    },
  };
}

export interface ArchiveContents {
  manifest: Manifest;
  database: Buffer;
  jwtSecret?: Buffer;
}

/**
 * Reads an archive, handing each stored file to `onFile` (key, stream) as it comes, and returns the
 * rest. Throws BadArchive on anything that is not one of ours.
 */
export async function readArchive(
  input: Readable,
  onFile: (key: string, content: Readable) => Promise<void>,
): Promise<ArchiveContents & { fileCount: number }> {
  const extract = tar.extract();
  let manifest: Manifest | undefined;
  let database: Buffer | undefined;
  let jwtSecret: Buffer | undefined;
  let fileCount = 0;
  const whole = async (stream: Readable) => {
    const chunks: Buffer[] = [];
    for await (const chunk of stream) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  };
  extract.on('entry', (header, stream, next) => {
    const work = async () => {
      if (header.type !== 'file') throw new BadArchive(`unexpected ${header.type} entry ${header.name}`);
      if (header.name === 'manifest.json') manifest = parseManifest(await whole(stream));
      else if (header.name === 'database.tar') database = await whole(stream);
      else if (header.name === 'jwt-secret') jwtSecret = await whole(stream);
      else if (header.name.startsWith('files/') && isFileKey(header.name.slice(6))) {
        await onFile(header.name.slice(6), stream);
        fileCount++;
      } else throw new BadArchive(`unexpected entry ${JSON.stringify(header.name)}`);
    };
    work().then(next, (error: unknown) => extract.destroy(error as Error));
  });
  try {
    await pipeline(input, createGunzip(), extract);
  } catch (error) {
    if (error instanceof BadArchive) throw error;
    throw new BadArchive(`not a readable backup archive (${(error as Error).message})`);
  }
  if (!manifest) throw new BadArchive('no manifest.json in the archive');
  if (!database) throw new BadArchive('no database.tar in the archive');
  return { manifest, database, jwtSecret, fileCount };
}

function parseManifest(text: Buffer): Manifest {
  let value: Partial<Manifest>;
  try {
    value = JSON.parse(text.toString('utf8')) as Partial<Manifest>;
  } catch {
    throw new BadArchive('manifest.json is not JSON');
  }
  if (typeof value.format !== 'number' || value.format > FORMAT_VERSION) {
    throw new BadArchive(
      `archive format ${String(value.format)} is newer than this version reads (${FORMAT_VERSION}): ` +
        'restore it with the version of the service desk that made it',
    );
  }
  if (typeof value.latestMigration !== 'string' || typeof value.files !== 'number') {
    throw new BadArchive('manifest.json lacks latestMigration or files');
  }
  return value as Manifest;
}

/** The path of a file key under the files folder (the key was checked by isFileKey). */
export const fileKeyPath = (filesRoot: string, key: string) => join(filesRoot, key);
