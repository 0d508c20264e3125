import { sql, type Kysely } from 'kysely';

/*
 * Indexes for ticket lists at a million rows (issue 7), frozen in time like every migration. Each
 * leaves out templates (every ticket list has `not is_template`), so the planner can answer from the
 * index alone (an index-only scan) what it otherwise reads row by row from the table:
 * - the ids of a deep page, default sort, whole tenant and per company (the portal);
 * - a list filtered by company and status, in the default sort (its search text is then tested on the
 *   few rows of that company and status instead of on every ticket that matches the text);
 * - the totals of the common presets the summary table (0007) does not answer: an operator's tickets,
 *   a priority, the unresolved ones.
 */

const INDEXES: [name: string, definition: string][] = [
  ['tickets_list_idx', '(tenant_id, updated_at desc, id desc) where not is_template'],
  ['tickets_list_company_idx', '(tenant_id, company_id, updated_at desc, id desc) where not is_template'],
  [
    'tickets_list_company_status_idx',
    '(tenant_id, company_id, status_id, updated_at desc, id desc) where not is_template',
  ],
  ['tickets_list_operator_idx', '(tenant_id, operator_id) where not is_template'],
  ['tickets_list_priority_idx', '(tenant_id, priority_id) where not is_template'],
  ['tickets_list_unresolved_idx', '(tenant_id) where resolved_at is null and not is_template'],
];

export async function up(db: Kysely<any>): Promise<void> {
  for (const [name, definition] of INDEXES) {
    await sql.raw(`create index ${name} on tickets ${definition}`).execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const [name] of INDEXES) await sql.raw(`drop index if exists ${name}`).execute(db);
}
