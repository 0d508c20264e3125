/**
 * The demo seed on PGlite, made once and used by every kind of test: `root`/pglite.tar (the database as a
 * tarball, which the API tests load into memory per test app) and `root`/pglite (a closed DATA_DIR:
 * the database in pglite/ and the seed's files in files/, as a server leaves it, which the process
 * and browser tests copy and start on).
 *
 * `npm test` makes it ahead of time, side by side with the type check, lint and build, and names it in
 * TEST_SEED_ROOT for the API and browser tests, so neither waits for a seed of its own. Run alone, each
 * suite makes one itself. As a script: `tsx tests/seed-folder.ts <root>`.
 */
import { existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import argon2 from 'argon2';
import { DEMO_PASSWORD, prepareDatabase } from '../server/boot.ts';
import { openDatabase, type Db } from '../server/db/database.ts';
import { fileStoreFor } from '../server/files/store.ts';
import { registry } from '../server/schema/registry.ts';

/** Names the root `npm test` made, for the suites it runs. */
export const SEED_ROOT_ENV = 'TEST_SEED_ROOT';

export interface PgliteSeed {
  /** The seeded database as an uncompressed tarball (PGlite's dumpDataDir). */
  dump: string;
  /** The closed DATA_DIR. */
  folder: string;
  /** The seed's files: `folder`/files. */
  files: string;
}

export function seedPaths(root: string): PgliteSeed {
  const folder = join(root, 'pglite');
  return { dump: join(root, 'pglite.tar'), folder, files: join(folder, 'files') };
}

/** The seed in `root`, when a whole one is there (the marker is written last). */
export function existingSeed(root: string | undefined): PgliteSeed | undefined {
  if (!root || !existsSync(join(root, 'complete'))) return undefined;
  return seedPaths(root);
}

/**
 * Gives the demo accounts of a test seed the password 'demo' hashed with argon2's smallest parameters.
 * Every login verifies the stored hash with the parameters written in it: with argon2's defaults (what
 * the server hashes with, 64 MiB and 3 passes over 4 lanes) that is about 175 ms of CPU per login, and
 * the suites log in well over a thousand times. The password stays 'demo' and the server's code and
 * defaults are untouched: a password set through the API (password reset, a new client or operator) is
 * still hashed with the defaults and logged in with in the tests, as is the seed of a test app built
 * from scratch (harness.ts, with a statement timeout).
 */
export async function cheapDemoPasswords(db: Db): Promise<void> {
  const hash = await argon2.hash(DEMO_PASSWORD, { memoryCost: 1024, timeCost: 1, parallelism: 1 });
  await db.updateTable('users').set({ password_hash: hash }).where('password_hash', 'is not', null).execute();
}

/**
 * Seeds in memory (faster than on disk), dumps, and loads the dump into the folder's database: one
 * seed, so the tarball and the folder hold the same rows and the same file keys.
 */
export async function makeSeed(root: string): Promise<PgliteSeed> {
  const paths = seedPaths(root);
  rmSync(root, { recursive: true, force: true });
  mkdirSync(root, { recursive: true });
  const database = await openDatabase();
  let tarball: Blob;
  try {
    await prepareDatabase(
      database.db,
      registry(),
      'demo',
      undefined,
      fileStoreFor({ dataDir: paths.folder }, database.db),
    );
    await cheapDemoPasswords(database.db);
    tarball = await database.dumpDataDir!();
  } finally {
    await database.close();
  }
  writeFileSync(`${paths.dump}.part`, Buffer.from(await tarball.arrayBuffer()));
  renameSync(`${paths.dump}.part`, paths.dump);
  await (await openDatabase({ dataDir: join(paths.folder, 'pglite'), loadDataDir: tarball })).close();
  writeFileSync(join(root, 'complete'), '');
  return paths;
}

if (import.meta.url === pathToFileURL(resolve(process.argv[1] ?? '')).href) {
  const root = process.argv[2];
  if (!root) throw new Error('usage: tsx tests/seed-folder.ts <root>');
  await makeSeed(root);
}
