/**
 * `npm run restore`: a backup archive (archive.ts) into a new, empty DATA_DIR. It refuses a folder that
 * holds anything (it would mix two databases' files) and an archive made by a newer version (its
 * database has migrations this code does not know: run that version, or restore an older backup).
 * On any refusal or failure it leaves the target as it found it.
 */
import { createReadStream, createWriteStream, existsSync, readdirSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { openDatabase } from '../db/database.ts';
import { migrations } from '../db/migrations/index.ts';
import { BadArchive, readArchive, type Manifest } from './archive.ts';
import { latestMigration } from './make.ts';

export class RestoreRefused extends Error {}

export async function restoreFromFile(archive: string, dataDir: string): Promise<Manifest> {
  if (!existsSync(archive)) throw new RestoreRefused(`no such backup file: ${archive}`);
  const created = !existsSync(dataDir);
  if (!created && readdirSync(dataDir).length > 0) {
    throw new RestoreRefused(
      `${dataDir} is not empty: restore into a new or empty folder, then point DATA_DIR at it ` +
        '(the folder in use stays as it is, to go back to).',
    );
  }
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  try {
    const filesRoot = join(dataDir, 'files');
    const contents = await readArchive(createReadStream(archive), async (key, content) => {
      const path = join(filesRoot, key);
      await mkdir(dirname(path), { recursive: true });
      await pipeline(content, createWriteStream(path, { mode: 0o600, flags: 'wx' }));
    });
    const { manifest } = contents;
    if (manifest.latestMigration && !(manifest.latestMigration in migrations)) {
      throw new RestoreRefused(
        `the backup was made by a newer version of the service desk (version ${manifest.version}, ` +
          `migration ${manifest.latestMigration}, unknown here): restore it with that version or a later one.`,
      );
    }
    if (contents.fileCount !== manifest.files) {
      throw new BadArchive(
        `the archive holds ${contents.fileCount} files, its manifest says ${manifest.files}`,
      );
    }
    const database = await openDatabase({
      dataDir: join(dataDir, 'pglite'),
      loadDataDir: new Blob([new Uint8Array(contents.database)]),
    });
    try {
      const found = await latestMigration(database.db);
      if (found !== manifest.latestMigration) {
        throw new BadArchive(
          `the database in the archive is at ${found || 'no migration'}, its manifest says ${manifest.latestMigration}`,
        );
      }
    } finally {
      await database.close();
    }
    if (contents.jwtSecret) await writeFile(join(dataDir, 'jwt-secret'), contents.jwtSecret, { mode: 0o600 });
    return manifest;
  } catch (error) {
    // Leave the target as it was: gone if we made it, empty if it was.
    if (created) await rm(dataDir, { recursive: true, force: true });
    else
      for (const entry of readdirSync(dataDir))
        await rm(join(dataDir, entry), { recursive: true, force: true });
    throw error;
  }
}
