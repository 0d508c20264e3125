/**
 * The ticket summary tables (list counts, counts per operator, the dashboard's counts), each kept exact
 * by a row trigger on tickets: three upserts per inserted ticket, which make a bulk insert of tens of
 * thousands of tickets several times slower (100,000 took minutes). For such an insert their migrations
 * are taken down (tables and triggers gone) and put up again after it: each then fills its table from
 * the tickets with one GROUP BY, as on a production database that migrates. Used by the benchmark's data
 * set and by tests that need many tickets; a summary migration missing from the list only makes those
 * inserts slower, never wrong.
 */
import type { Db } from './database.ts';
import { migrations } from './migrations/index.ts';

export const SUMMARY_MIGRATIONS = [
  '0007_list_counts',
  '0010_list_counts_by_operator',
  '0024_dashboard_counts',
  '0035_ticket_report_days',
  '0037_ticket_report_reopens',
  '0040_ticket_report_desk_days',
];

/** Takes the summary tables down, the last made first, each in a transaction of its own. */
export async function summaryTablesDown(db: Db): Promise<void> {
  for (const name of [...SUMMARY_MIGRATIONS].reverse()) {
    await db.transaction().execute((trx) => migrations[name]!.down!(trx));
  }
}

/** Puts them up again, filled from the tickets there are now; `each` hears how long each one took. */
export async function summaryTablesUp(
  db: Db,
  each: (name: string, ms: number) => void = () => {},
): Promise<void> {
  for (const name of SUMMARY_MIGRATIONS) {
    const start = performance.now();
    await db.transaction().execute((trx) => migrations[name]!.up(trx));
    each(name, performance.now() - start);
  }
}
