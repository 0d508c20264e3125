import { sql, type Kysely } from 'kysely';

/*
 * Business-hour contracts become calendars (issue 35, item 1), frozen in time like every migration.
 *
 * business_hour_contracts.holidays: the days the desk is closed, `[{date, name}]` with `date` either
 * YYYY-MM-DD (once) or MM-DD (every year); checked by common/sla/calendar.ts on every write. The
 * schedule keeps its shape (weekday → intervals) and may also be the text "24/7", which jsonb holds.
 */

export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table business_hour_contracts add column holidays jsonb not null default '[]'::jsonb`.execute(
    db,
  );
}
