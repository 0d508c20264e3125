/**
 * Removes files that no attachment row points at any more (migration 0009 queues them), and inline
 * images uploaded for a message that was never sent (no message after a day), and what a process that
 * died mid-upload left unfinished in the store. It never lists the store to find orphans: the queue
 * says what to remove, so it works the same for every store. Runs when the app is ready and then every
 * few minutes; several processes may sweep at once (each takes its own rows).
 */
import { sql } from 'kysely';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../db/database.ts';
import type { FileStore } from './store.ts';

/** An inline image without a message is kept this long: the editor may still be open. */
export const UNUSED_UPLOAD_HOURS = 24;
const BATCH = 200;
/** An unfinished write untouched this long belongs to a process that is gone (a chunk is written per 256 KB). */
export const ABANDONED_WRITE_HOURS = 1;

export interface SweepResult {
  removed: number;
  unusedUploads: number;
  /** Unfinished writes of processes that died mid-upload. */
  abandoned: number;
}

/** One pass: unused uploads become queued removals, then the queue is emptied a batch at a time. */
export async function sweepFiles(db: Db, store: FileStore, now: Date = new Date()): Promise<SweepResult> {
  // Deleting the rows queues their files (the trigger of migration 0009).
  const unused = await sql`
    delete from attachments
    where message_id is null and created_at < ${now}::timestamptz - make_interval(hours => ${UNUSED_UPLOAD_HOURS})`.execute(
    db,
  );
  let removed = 0;
  for (;;) {
    const paths = await db.transaction().execute(async (trx) => {
      const rows = await sql<{ path: string }>`
        delete from file_removals
        where path in (select path from file_removals order by created_at limit ${BATCH} for update skip locked)
        returning path`.execute(trx);
      // A path another row still uses (a copied attachment) stays.
      const inUse = rows.rows.length
        ? await sql<{ path: string }>`
            select distinct path from attachments
            where path in (${sql.join(rows.rows.map((r) => r.path))})`.execute(trx)
        : { rows: [] };
      const kept = new Set(inUse.rows.map((r) => r.path));
      const gone = rows.rows.map((r) => r.path).filter((p) => !kept.has(p));
      // Removed inside the transaction: a failure puts the paths back in the queue (and a store in the
      // database removes with it).
      for (const path of gone) await store.remove(path, trx);
      return rows.rows;
    });
    removed += paths.length;
    if (paths.length < BATCH) break;
  }
  const abandoned = await store.removeAbandoned(new Date(now.getTime() - ABANDONED_WRITE_HOURS * 3_600_000));
  return { removed, unusedUploads: Number(unused.numAffectedRows ?? 0), abandoned };
}

/** Sweeps when the app is ready and every `intervalMs`; stops on close. 0 switches it off (tests). */
export function scheduleFileSweep(app: FastifyInstance, db: Db, store: FileStore, intervalMs: number): void {
  if (intervalMs <= 0) return;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> = Promise.resolve();
  const run = () => {
    running = sweepFiles(db, store).catch((error: unknown) =>
      app.log.warn({ err: error }, 'file sweep failed'),
    );
  };
  app.addHook('onReady', async () => {
    run();
    timer = setInterval(run, intervalMs);
    timer.unref();
  });
  app.addHook('onClose', async () => {
    clearInterval(timer);
    await running;
  });
}
