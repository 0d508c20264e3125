import { sql, type Kysely } from 'kysely';

/*
 * The service reports' backlog (issue 36) counts the tickets open now under the report's filter
 * (server/reports/figures.ts, breakdown.ts). With a filter, tickets_list_unresolved_idx (tenant only)
 * made PostgreSQL read every open ticket's row to test its key: at a million tickets (200,000 open) a
 * year of the largest company spent 0.7 s there, more than the rest of its report. This index holds
 * the open tickets with every key a report filters or groups on: one company's open tickets are a
 * range of it, any other filter or a breakdown an index-only scan. Frozen in time like every migration.
 */

export async function up(db: Kysely<any>): Promise<void> {
  await sql`create index tickets_report_open_idx on tickets (tenant_id, company_id)
    include (operator_id, ticket_group_id, priority_id, ticket_type_id, category_id, applied_sla_id)
    where resolved_at is null and not is_template`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index if exists tickets_report_open_idx`.execute(db);
}
