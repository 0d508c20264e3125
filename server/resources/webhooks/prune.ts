/**
 * The delivery log's housekeeping: delivered and given-up deliveries older than WEBHOOK_KEEP_DAYS go,
 * so a busy integration does not grow the table without end. Queued and sending rows stay whatever
 * their age (a disabled webhook's waiting events go out when it is enabled again).
 *
 * At most PRUNE_BATCH rows per statement, oldest ids first, so one sweep never holds a long lock; with
 * nothing to drop it reads the log once (what the window keeps), once an hour. Every instance may sweep:
 * a delete is idempotent, two instances deleting the same old rows remove them once.
 */
import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';

export const PRUNE_BATCH = 5000;

/** Deletes up to PRUNE_BATCH finished deliveries older than `keepDays`; answers how many went. */
export async function pruneDeliveries(db: Db, keepDays: number): Promise<number> {
  const result = await sql`
    delete from webhook_deliveries where id in (
      select id from webhook_deliveries
      where created_at < now() - make_interval(days => ${keepDays})
        and status in ('delivered', 'failed')
      order by id
      limit ${PRUNE_BATCH}
    )`.execute(db);
  return Number(result.numAffectedRows ?? 0);
}
