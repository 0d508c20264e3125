import { sql, type Kysely } from 'kysely';

/*
 * How long a ticket took, kept on the ticket (issue 36, item 1): what the service reports measure,
 * frozen in time like every migration. Written with the SLA clock's other columns (0031) by the same
 * recompute, so they are as exact as the clock:
 * - first_response_at: when an operator first answered the client (null until then, and for a ticket
 *   solved, closed or merged without an answer);
 * - first_response_minutes: the business minutes from creation to that answer, pauses left out, under
 *   the calendar of the SLA that applies (every minute without one);
 * - resolution_minutes: the business minutes the ticket was open until it was last solved or closed,
 *   every reopened stretch added (null while open, and for a ticket merged away).
 *
 * Every ticket there is is marked for the background pass, which fills them in batch by batch.
 */

const COLUMNS = ['first_response_at', 'first_response_minutes', 'resolution_minutes'];

export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table tickets add column first_response_at timestamptz`.execute(db);
  await sql`alter table tickets add column first_response_minutes integer`.execute(db);
  await sql`alter table tickets add column resolution_minutes integer`.execute(db);
  await sql`update tickets set sla_recheck_at = now() where sla_recheck_at is null and not is_template`.execute(
    db,
  );
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const column of COLUMNS) {
    await sql.raw(`alter table tickets drop column if exists ${column}`).execute(db);
  }
}
