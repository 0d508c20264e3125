import { mkdirSync } from 'node:fs';
import { Kysely, PostgresDialect } from 'kysely';
import { PGliteDialect } from 'kysely-pglite-dialect';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import pg from 'pg';

/** The whole database is `Kysely<any>`: tables are described by the schemas, not by TypeScript. */
export type Db = Kysely<any>;

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  close(): Promise<void>;
}

export interface DatabaseOptions {
  /** postgres://… ; when absent an embedded PGlite database is used. */
  url?: string;
  /** Folder of the PGlite database; absent means in memory. */
  dataDir?: string;
  /** PostgreSQL schema to work in (tests isolate themselves this way). */
  schema?: string;
  poolSize?: number;
}

// Same JavaScript values on both engines: numeric as number (money has two decimals, well inside
// double precision), date as the 'YYYY-MM-DD' string it is (pg would shift it into a local Date).
const NUMERIC = 1700;
const DATE = 1082;
const INT8 = 20;
const parseNumeric = (value: string) => Number(value);
const keepString = (value: string) => value;

export async function openDatabase(options: DatabaseOptions = {}): Promise<Database> {
  if (options.url) {
    const types = {
      getTypeParser(oid: number, format?: any) {
        if (oid === NUMERIC || oid === INT8) return parseNumeric;
        if (oid === DATE) return keepString;
        return pg.types.getTypeParser(oid, format);
      },
    };
    const pool = new pg.Pool({
      connectionString: options.url,
      max: options.poolSize ?? 10,
      types: types as any,
      options: options.schema ? `-c search_path=${options.schema}` : undefined,
    });
    const db = new Kysely<any>({ dialect: new PostgresDialect({ pool }) });
    return { db, kind: 'postgres', close: () => db.destroy() };
  }
  if (options.dataDir) mkdirSync(options.dataDir, { recursive: true });
  const pglite = new PGlite({
    dataDir: options.dataDir,
    extensions: { pg_trgm },
    parsers: { [NUMERIC]: parseNumeric, [INT8]: parseNumeric, [DATE]: keepString },
  });
  await pglite.waitReady;
  if (options.schema) {
    await pglite.exec(
      `CREATE SCHEMA IF NOT EXISTS "${options.schema}"; SET search_path TO "${options.schema}"`,
    );
  }
  const db = new Kysely<any>({ dialect: new PGliteDialect(pglite) });
  return {
    db,
    kind: 'pglite',
    close: async () => {
      await db.destroy();
      if (!pglite.closed) await pglite.close();
    },
  };
}
