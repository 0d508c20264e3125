/**
 * The statement timeout on PostgreSQL (STATEMENT_TIMEOUT_MS): a statement that runs longer is
 * cancelled by the server, so one heavy call cannot hold a connection, and the rows it locks, for
 * long. Requests answer such a cancellation with 503; work that may rightly take longer (migrations,
 * the demo seed) runs without it.
 */
import { sql } from 'kysely';
import type { Db } from './database.ts';

// SQLSTATE 57014 query_canceled: statement_timeout ran out (or an operator cancelled the statement).
const QUERY_CANCELED = '57014';

export function isStatementTimeout(error: unknown): boolean {
  for (let e = error, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    if ((e as { code?: unknown }).code === QUERY_CANCELED) return true;
  }
  return false;
}

/** Runs `work` on one connection of `db` with the timeout off, and puts the connection's own back after. */
export function withoutStatementTimeout<T>(db: Db, work: (db: Db) => Promise<T>): Promise<T> {
  return db.connection().execute(async (connection) => {
    await sql`set statement_timeout = 0`.execute(connection);
    try {
      return await work(connection);
    } finally {
      // RESET returns to the value the connection started with (the pool's statement_timeout).
      await sql`reset statement_timeout`.execute(connection);
    }
  });
}
