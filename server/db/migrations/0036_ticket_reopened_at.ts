import { sql, type Kysely } from 'kysely';

/*
 * When a ticket was reopened (issue 36, item 1), frozen in time like every migration.
 *
 * tickets.reopened_at: the moments a solved or closed ticket was opened again, oldest first, written by
 * the SLA clock's recompute with its other columns (0031, 0034) from the ticket's history, so it is as
 * exact as the clock. Empty for a ticket never reopened. The reports count them per day (0037).
 *
 * Only tickets whose history has a status change or a merge can have been reopened: those are marked for
 * the background pass now (even one due to be measured later), which fills the moments in.
 */

export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table tickets add column reopened_at timestamptz[] not null default '{}'`.execute(db);
  await sql`update tickets set sla_recheck_at = now()
    where not is_template and id in (
      select ticket_id from ticket_changes where field in ('status_id', 'merged')
      union select merged_from from ticket_changes where merged_from is not null)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table tickets drop column if exists reopened_at`.execute(db);
}
