/**
 * Work that waits in a table for a worker of any instance, counted when Prometheus scrapes: the one
 * `servicedesk_queue_depth{queue}` gauge has a series per entry here. Each count is one cheap query
 * (an index covers the rows that wait), run only at scrape time, so an idle desk costs nothing.
 */
import type { Db } from '../db/database.ts';

export interface QueueDepth {
  /** The `queue` label: short, fixed, never derived from data. */
  queue: string;
  /** Rows that wait to be worked on now. */
  depth(db: Db): Promise<number>;
}

async function count(query: Promise<{ count: unknown } | undefined>): Promise<number> {
  return Number((await query)?.count ?? 0);
}

export const QUEUE_DEPTHS: QueueDepth[] = [
  {
    // Jobs queued and not yet claimed (export_jobs_pending_index covers them).
    queue: 'exports',
    depth: (db) =>
      count(
        db
          .selectFrom('export_jobs')
          .select((eb) => eb.fn.countAll().as('count'))
          .where('status', '=', 'queued')
          .executeTakeFirst(),
      ),
  },
  // The mail outbox joins here with one entry when it lands: its unsent rows, e.g.
  // { queue: 'mail_outbox', depth: (db) => count(db.selectFrom('mail_outbox')…where(unsent)…) },
];
