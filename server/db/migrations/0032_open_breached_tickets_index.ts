import { sql, type Kysely } from 'kysely';

/*
 * The dashboard's "SLA breached" figure per operator (issue 35, item 4): open tickets whose stored SLA
 * state is breached. A breach stays a breach after the ticket is solved (common/sla/clock.ts, rule 5),
 * so tickets_sla_state_idx (0031) holds every breached ticket of the desk's history and counting the
 * open ones through it reads them all. This index holds the open ones only (resolved_at is null exactly
 * while the status is neither closed nor archived: server/resources/tickets/resolved.ts), with the
 * operator and status so the count is an index-only scan. Frozen in time like every migration.
 */

export async function up(db: Kysely<any>): Promise<void> {
  await sql`create index tickets_open_sla_breached_idx on tickets (tenant_id, operator_id, status_id)
    where sla_state = 'breached' and resolved_at is null and not is_template`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index if exists tickets_open_sla_breached_idx`.execute(db);
}
