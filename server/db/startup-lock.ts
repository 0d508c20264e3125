/**
 * Instances started at the same moment on one PostgreSQL database take turns at the start-up work
 * (migrations, the demo seed): the first migrates and seeds, the others wait, then find the work done.
 *
 * The lock is a transaction-level advisory lock held by an open transaction on one connection while the
 * work runs on others. Unlike a session-level `pg_advisory_lock` it survives pgbouncer in transaction
 * mode (the open transaction keeps its server connection) and cannot leak: commit or a lost connection
 * releases it. PGlite needs none: its folder lock already allows one process (folder-lock.ts).
 */
import { sql } from 'kysely';
import type { Db } from './database.ts';

/** The lock's name; hashed with the schema, so databases in other schemas do not wait for each other. */
const LOCK_NAME = 'service-desk:start-up';

export async function underStartupLock<T>(db: Db, work: () => Promise<T>): Promise<T> {
  return db.transaction().execute(async (trx) => {
    // Waiting for another instance's seed may rightly take longer than any statement may.
    await sql`set local statement_timeout = 0`.execute(trx);
    await sql`select pg_advisory_xact_lock(hashtext(${LOCK_NAME} || current_schema()))`.execute(trx);
    return work();
  });
}
