/**
 * The whole desk's daily figures (ticket_report_desk_days, migration 0040): what a report without a
 * filter sums. Ticket writes add deltas (rows of their own, so no two writes wait on one row); this
 * settles them: the rows of each day that has deltas become one row, their sum.
 *
 * Safe with any number of instances settling at once, and with writes going on: one statement deletes
 * the rows it read and inserts their sum, so every delta is in exactly one row whatever interleaves. Two
 * instances settling the same day at once each delete what they can still lock and insert its sum: the
 * day may keep two settled rows until its next delta, and its total is right all along.
 */
import { sql } from 'kysely';
import type { Db } from '../db/database.ts';
import { REPORT_MEASURES } from '../../common/reports.ts';

/** Days per statement: a short one, so a settle holds few rows at a time. */
export const SETTLE_BATCH = 500;

/** Settles the days with deltas, a batch at a time; answers how many days were settled. */
export async function settleDeskDays(db: Db, stopping = () => false): Promise<number> {
  let total = 0;
  while (!stopping()) {
    const settled = await settleBatch(db);
    total += settled;
    if (settled < SETTLE_BATCH) break;
  }
  return total;
}

async function settleBatch(db: Db): Promise<number> {
  const measures = sql.join(REPORT_MEASURES.map((m) => sql.ref(m)));
  const sums = sql.join(REPORT_MEASURES.map((m) => sql`sum(${sql.ref(m)})`));
  const nonZero = sql.join(
    REPORT_MEASURES.map((m) => sql`sum(${sql.ref(m)}) <> 0`),
    sql` or `,
  );
  const result = await sql<{ days: number }>`
    with due as (
      select distinct tenant_id, day from ticket_report_desk_days where not settled limit ${SETTLE_BATCH}
    ), gone as (
      delete from ticket_report_desk_days d using due
      where d.tenant_id = due.tenant_id and d.day = due.day
      returning d.*
    ), kept as (
      insert into ticket_report_desk_days (tenant_id, day, ${measures}, settled)
      select tenant_id, day, ${sums}, true from gone group by tenant_id, day having ${nonZero}
      returning 1
    )
    select (select count(*) from due)::int as days, (select count(*) from kept)::int as kept`.execute(db);
  return Number(result.rows[0]?.days ?? 0);
}
