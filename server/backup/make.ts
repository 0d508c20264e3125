/**
 * Making a backup of the embedded database and its files (archive.ts says what the archive holds).
 * Consistency: the dump is taken holding the database's only connection (kysely-pglite-dialect hands
 * out one at a time), so no transaction is half done, after a CHECKPOINT so the folder holds every
 * committed page. Removals from the files folder are held from before the dump until the copy is
 * done, so every file a dumped row points at is still there to copy (files/removal-hold.ts).
 */
import { existsSync } from 'node:fs';
import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Writable } from 'node:stream';
import { sql } from 'kysely';
import type { PGlite } from '@electric-sql/pglite';
import pkg from '../../package.json' with { type: 'json' };
import type { Db } from '../db/database.ts';
import { isFileKey } from '../files/keys.ts';
import { holdRemovals } from '../files/removal-hold.ts';
import { archiveWriter, FORMAT_VERSION, type Manifest } from './archive.ts';

export interface BackupSource {
  db: Db;
  pglite: PGlite;
  /** DATA_DIR: its files/ folder and jwt-secret go into the archive. */
  dataDir: string;
}

/** The newest migration the database has run (Kysely's bookkeeping table), '' on an empty database. */
export async function latestMigration(db: Db): Promise<string> {
  const rows = await sql<{ name: string }>`
    select name from kysely_migration order by name desc limit 1`
    .execute(db)
    .catch(() => ({ rows: [] as { name: string }[] }));
  return rows.rows[0]?.name ?? '';
}

/** Writes the whole backup to `out` and resolves with its manifest once it is all written. */
export async function writeBackup(source: BackupSource, out: Writable): Promise<Manifest> {
  const filesRoot = join(source.dataDir, 'files');
  const release = holdRemovals(filesRoot);
  try {
    const { dump, migration } = await source.db.connection().execute(async (connection) => {
      await sql`CHECKPOINT`.execute(connection);
      const migration = await latestMigration(connection);
      return { dump: await source.pglite.dumpDataDir('none'), migration };
    });
    const archive = archiveWriter(out);
    let files = 0;
    for (const folder of (await readdir(filesRoot).catch(() => [] as string[])).sort()) {
      for (const name of (await readdir(join(filesRoot, folder)).catch(() => [] as string[])).sort()) {
        const key = `${folder}/${name}`;
        // Unfinished writes (.part) are no file yet; nothing else belongs in the folder.
        if (!isFileKey(key)) continue;
        if (await archive.addFile(`files/${key}`, join(filesRoot, key))) files++;
      }
    }
    release();
    const secretFile = join(source.dataDir, 'jwt-secret');
    if (existsSync(secretFile)) await archive.add('jwt-secret', await readFile(secretFile));
    await archive.add('database.tar', Buffer.from(await dump.arrayBuffer()));
    const manifest: Manifest = {
      format: FORMAT_VERSION,
      app: pkg.name,
      version: pkg.version,
      latestMigration: migration,
      createdAt: new Date().toISOString(),
      files,
    };
    // Last, so that it can count the files; the reader takes the entries in any order.
    await archive.add('manifest.json', Buffer.from(JSON.stringify(manifest, null, 2)));
    await archive.finish();
    return manifest;
  } finally {
    release();
  }
}
