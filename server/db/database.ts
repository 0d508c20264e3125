import { mkdirSync } from 'node:fs';
import { Kysely, PostgresDialect, type Transaction } from 'kysely';
import { PGliteDialect } from 'kysely-pglite-dialect';
import { PGlite, type PGliteOptions } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import pg from 'pg';
import { lockFolder } from './folder-lock.ts';
import { IDLE_TIMEOUT_MS, POOL_MIN } from './pool-settings.ts';
import type { Tables } from './tables.ts';

/**
 * The database, typed by its tables (server/db/tables.ts, generated from the migrations by
 * `npm run db:types`): a statement naming a table or column that does not exist fails the type check.
 * A transaction is one too, so a function that may run inside or outside one takes `Db`.
 */
export type Db = Kysely<Tables>;
/** A transaction of `Db`: for what must run inside one (row locks, several writes as one). */
export type DbTransaction = Transaction<Tables>;

export interface DatabaseConnection {
  db: Db;
  kind: 'pglite' | 'postgres';
  close(): Promise<void>;
  /** PGlite only: the data folder as a tarball, for `loadDataDir` (tests seed once and copy). */
  dumpDataDir?(): Promise<Blob>;
}

export interface DatabaseOptions {
  /** postgres://… ; when absent an embedded PGlite database is used. */
  url?: string;
  /** Folder of the PGlite database; absent means in memory. */
  dataDir?: string;
  /** PGlite only: start from this `dumpDataDir` tarball instead of an empty database. */
  loadDataDir?: Blob;
  /**
   * PGlite only: its WebAssembly modules compiled and its file bundle read once, for a process that
   * opens many databases (a test worker: about 0.7 s of each one's start).
   */
  pgliteParts?: Pick<PGliteOptions, 'pgliteWasmModule' | 'initdbWasmModule' | 'fsBundle'>;
  /** PostgreSQL schema to work in (tests isolate themselves this way). */
  schema?: string;
  poolSize?: number;
  /**
   * PostgreSQL: ms an unused connection stays open before the pool closes it (DATABASE_IDLE_TIMEOUT_MS);
   * 0: never. Default IDLE_TIMEOUT_MS: a steady load keeps its connections (issue 40).
   */
  idleTimeoutMs?: number;
  /** PostgreSQL: connections never closed for being idle (DATABASE_POOL_MIN), at most `poolSize`. */
  minConnections?: number;
  /**
   * Told when a PostgreSQL connection fails outside a query (the server restarted, the network
   * dropped): the pool replaces the connection, the process goes on.
   */
  onConnectionError?: (error: Error) => void;
  /**
   * PostgreSQL only: the longest one statement may run, in milliseconds, before the server cancels it
   * (db/statement-timeout.ts). Absent or 0: no limit. PGlite has none: the query budget bounds it.
   */
  statementTimeoutMs?: number;
}

/** What a PostgreSQL pool holds right now (pg.Pool's own counts); read by the metrics at scrape time. */
export interface PoolStats {
  /** Connections open, in use or idle. */
  total: number;
  idle: number;
  /** Callers waiting for a connection because all `max` are in use. */
  waiting: number;
  max: number;
}

// By the Kysely instance, so callers that hold only `db` (the app) can read them; PGlite has no pool.
const pools = new WeakMap<Db, pg.Pool>();

/** The pool behind `db` on PostgreSQL; undefined on PGlite (one embedded connection, nothing to pool). */
export function poolStats(db: Db): PoolStats | undefined {
  const pool = pools.get(db);
  if (!pool) return undefined;
  return { total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount, max: pool.options.max };
}

// By the Kysely instance too: the live events (server/live) LISTEN in process on an embedded database.
const embedded = new WeakMap<Db, PGlite>();

/** The PGlite database behind `db`; undefined on PostgreSQL. */
export function embeddedDatabase(db: Db): PGlite | undefined {
  return embedded.get(db);
}

/** A connection that cannot be made within this time fails the call (503) instead of hanging it. */
const CONNECT_TIMEOUT_MS = 5_000;

// Same JavaScript values on both engines: numeric as number (money has two decimals, well inside
// double precision), date as the 'YYYY-MM-DD' string it is (pg would shift it into a local Date).
const NUMERIC = 1700;
const DATE = 1082;
const INT8 = 20;
const parseNumeric = (value: string) => Number(value);
const keepString = (value: string) => value;

export async function openDatabase(options: DatabaseOptions = {}): Promise<DatabaseConnection> {
  if (options.url) {
    const types = {
      getTypeParser(oid: number, format?: any) {
        if (oid === NUMERIC || oid === INT8) return parseNumeric;
        if (oid === DATE) return keepString;
        return pg.types.getTypeParser(oid, format);
      },
    };
    const max = options.poolSize ?? 10;
    const pool = new pg.Pool({
      connectionString: options.url,
      max,
      // pg-pool opens none ahead: `min` only keeps that many of those a load opened. A connection the
      // server dropped (a restart) still leaves the pool at once, through the 'error' listener below.
      min: Math.min(options.minConnections ?? POOL_MIN, max),
      idleTimeoutMillis: options.idleTimeoutMs ?? IDLE_TIMEOUT_MS,
      types: types as any,
      options: options.schema ? `-c search_path=${options.schema}` : undefined,
      connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
      keepAlive: true,
      // Sent when each connection starts, so it holds for every statement on it.
      statement_timeout: options.statementTimeoutMs || undefined,
    });
    // Without both listeners a restart of the database server is an unhandled 'error' event that
    // ends the process: the pool's for idle connections, each client's for one checked out.
    const connectionError = (error: Error) => options.onConnectionError?.(error);
    pool.on('error', connectionError);
    pool.on('connect', (client) => client.on('error', connectionError));
    const db = new Kysely<Tables>({ dialect: new PostgresDialect({ pool }) });
    pools.set(db, pool);
    return { db, kind: 'postgres', close: () => db.destroy() };
  }
  if (options.dataDir) mkdirSync(options.dataDir, { recursive: true });
  // PGlite has no lock of its own: a second process on the folder would lose this one's writes.
  const lock = options.dataDir ? lockFolder(options.dataDir) : undefined;
  const pglite = new PGlite({
    dataDir: options.dataDir,
    loadDataDir: options.loadDataDir,
    ...options.pgliteParts,
    extensions: { pg_trgm },
    parsers: { [NUMERIC]: parseNumeric, [INT8]: parseNumeric, [DATE]: keepString },
  });
  await pglite.waitReady.catch((error: unknown) => {
    lock?.release();
    throw error;
  });
  if (options.schema) {
    await pglite.exec(
      `CREATE SCHEMA IF NOT EXISTS "${options.schema}"; SET search_path TO "${options.schema}"`,
    );
  }
  const db = new Kysely<Tables>({ dialect: new PGliteDialect(pglite) });
  embedded.set(db, pglite);
  return {
    db,
    kind: 'pglite',
    // Uncompressed: every test app loads it again, from a local disk, with nothing to unpack.
    dumpDataDir: () => pglite.dumpDataDir('none'),
    close: async () => {
      await db.destroy();
      if (!pglite.closed) await pglite.close();
      lock?.release();
    },
  };
}
