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
 *
 * The reports' medians and percentiles read the minutes of the tickets answered or solved in a period
 * (server/reports/figures.ts): an index each, by tenant and moment, holding the minutes and the two
 * filters most asked for, so a year of a desk is an index-only range scan.
 */

const COLUMNS = ['first_response_at', 'first_response_minutes', 'resolution_minutes'];

const INDEXES: [name: string, definition: string][] = [
  [
    'tickets_first_response_report_idx',
    '(tenant_id, first_response_at) include (first_response_minutes, company_id, operator_id) where first_response_minutes is not null and not is_template',
  ],
  [
    'tickets_resolution_report_idx',
    '(tenant_id, resolved_at) include (resolution_minutes, company_id, operator_id) where resolution_minutes is not null and not is_template',
  ],
];

export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table tickets add column first_response_at timestamptz`.execute(db);
  await sql`alter table tickets add column first_response_minutes integer`.execute(db);
  await sql`alter table tickets add column resolution_minutes integer`.execute(db);
  await sql`update tickets set sla_recheck_at = now() where sla_recheck_at is null and not is_template`.execute(
    db,
  );
  for (const [name, definition] of INDEXES) {
    await sql.raw(`create index ${name} on tickets ${definition}`).execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const [name] of INDEXES) await sql.raw(`drop index if exists ${name}`).execute(db);
  for (const column of COLUMNS) {
    await sql.raw(`alter table tickets drop column if exists ${column}`).execute(db);
  }
}
