/**
 * The demo seed is made once per test run (global-setup.ts) and copied for every test app: migrating
 * and seeding took most of each API file's time. A copy is a whole database of its own (PGlite loaded
 * from a tarball of the seeded data folder, PostgreSQL created from a template database) plus a copy
 * of the files the seed wrote into its file store, so no test app sees another's writes.
 */
import { randomBytes } from 'node:crypto';
import { cpSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import pg from 'pg';
import { openDatabase, type DatabaseConnection, type DatabaseOptions } from '../../server/db/database.ts';
import type { PgliteSeed } from '../seed-folder.ts';

/** Where the run's seeds are; handed from the global setup to the test files (vitest `provide`). */
export interface Seeds {
  pglite: PgliteSeed;
  /** Present when TEST_DATABASE_URL is set. */
  postgres?: { prefix: string; template: string; files: string };
}

declare module 'vitest' {
  export interface ProvidedContext {
    seeds: Seeds;
  }
}

/**
 * The databases of one run are named after TEST_DATABASE_URL's database and the run, so runs against
 * different databases, or at the same time, do not meet; the teardown drops every one with this prefix.
 */
export function runPrefix(url: string, run: string): string {
  const base = decodeURIComponent(new URL(url).pathname.slice(1)) || 'postgres';
  // Lower case letters, digits and '_' need no quoting; 63 bytes is PostgreSQL's longest name.
  return `${base
    .toLowerCase()
    .replace(/[^a-z0-9_]/g, '_')
    .slice(0, 30)}_seed_${run}`;
}

/** TEST_DATABASE_URL pointed at another database on the same server. */
export function databaseUrl(url: string, database: string): string {
  const other = new URL(url);
  other.pathname = `/${database}`;
  return other.toString();
}

/** Runs `statement` on TEST_DATABASE_URL's own database (CREATE/DROP DATABASE cannot run inside the one they touch). */
export async function onServer(url: string, statement: string): Promise<pg.QueryResult> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await client.query(statement);
  } finally {
    await client.end();
  }
}

/** Drops a copy or a template even when a failed test left connections to it open. */
export async function dropDatabase(url: string, name: string): Promise<void> {
  await onServer(url, `drop database if exists "${name}" with (force)`);
}

/** Drops every database of the run: its template and the copies of test files that never closed them. */
export async function dropRun(url: string, prefix: string): Promise<void> {
  const { rows } = await onServer(
    url,
    `select datname from pg_database where starts_with(datname, '${prefix}_')`,
  );
  for (const { datname } of rows) await dropDatabase(url, datname);
}

export interface Copy {
  database: DatabaseConnection;
  /** PostgreSQL: the copy's address, for a second app on the same database. */
  url?: string;
  /** Removes what the copy made outside the data folder (a PostgreSQL database). */
  drop(): Promise<void>;
}

/** A fresh PGlite database from the seed's tarball; the seed's files copied under `dataDir`. */
/**
 * What every PGlite copy of a worker starts from, read once per worker (the API files share their
 * worker's modules): the seed's dump, and PGlite's compiled WebAssembly and file bundle.
 */
let startParts: Promise<{ dump: Blob; parts: DatabaseOptions['pgliteParts'] }> | undefined;
let startPartsOf: string | undefined;

async function readStartParts(dumpPath: string) {
  const dist = (name: string) => new URL(name, import.meta.resolve('@electric-sql/pglite'));
  const [dump, pgliteWasmModule, initdbWasmModule, fsBundle] = await Promise.all([
    readFile(dumpPath).then((bytes) => new Blob([bytes])),
    readFile(dist('pglite.wasm')).then((bytes) => WebAssembly.compile(bytes)),
    readFile(dist('initdb.wasm')).then((bytes) => WebAssembly.compile(bytes)),
    readFile(dist('pglite.data')).then((bytes) => new Blob([bytes])),
  ]);
  return { dump, parts: { pgliteWasmModule, initdbWasmModule, fsBundle } };
}

export async function pgliteCopy(seeds: Seeds, dataDir: string): Promise<Copy> {
  if (startPartsOf !== seeds.pglite.dump) {
    startPartsOf = seeds.pglite.dump;
    startParts = readStartParts(seeds.pglite.dump);
  }
  const { dump, parts } = await startParts!;
  cpSync(seeds.pglite.files, join(dataDir, 'files'), { recursive: true });
  return { database: await openDatabase({ loadDataDir: dump, pgliteParts: parts }), drop: async () => {} };
}

/**
 * A DATA_DIR for a server process (or a test that opens the folder itself) with the demo seed in it:
 * a copy of the closed seeded folder, which the server finds migrated and seeded, so it starts in
 * seconds instead of seeding for most of a minute.
 */
export function seededDataFolder(seeds: Seeds, dataDir: string): void {
  cpSync(seeds.pglite.folder, dataDir, { recursive: true });
}

/** A new PostgreSQL database made from the seeded template; the seed's files copied under `dataDir`. */
export async function postgresCopy(
  seeds: Seeds,
  url: string,
  dataDir: string,
  options: { poolSize: number },
): Promise<Copy> {
  if (!seeds.postgres) throw new Error('TEST_DATABASE_URL is set but the global setup made no template');
  const { prefix, template, files } = seeds.postgres;
  const name = `${prefix}_${randomBytes(5).toString('hex')}`;
  await onServer(url, `create database "${name}" template "${template}"`);
  cpSync(files, join(dataDir, 'files'), { recursive: true });
  const copyUrl = databaseUrl(url, name);
  const database = await openDatabase({ url: copyUrl, poolSize: options.poolSize });
  return { database, url: copyUrl, drop: () => dropDatabase(url, name) };
}
