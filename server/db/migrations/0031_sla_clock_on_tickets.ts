import { sql, type Kysely } from 'kysely';

/*
 * The SLA clock's answer stored on the ticket (issue 35, item 3), frozen in time like every migration.
 *
 * The clock is computed from the ticket's history (server/sla/ticket-clock.ts); lists, filters, sorts
 * and the dashboard read these columns instead, so they need an index, not a computation per row:
 * - applied_sla_id / applied_sla_source: the SLA that governs the ticket and why (ticket, contract,
 *   company, tenant);
 * - per target (first response, next response, resolution) its due instant (null when paused, met or
 *   without a target) and its state (running, paused, warning, breached, met; null without one);
 * - sla_state: the ticket's worst target state; sla_due: the soonest due of a target still in time;
 * - sla_recheck_at: when the stored answer stops being true by time alone (a warning threshold or a due
 *   instant), or the moment something else changed it (an SLA, a calendar): the background pass
 *   recomputes tickets whose moment has come. A ticket stored by any path starts due for one (the
 *   default), so one written around the write paths (an import) is still measured.
 */

const INDEXES: [name: string, definition: string][] = [
  ['tickets_first_response_due_idx', '(tenant_id, first_response_due, id) where not is_template'],
  ['tickets_resolution_due_idx', '(tenant_id, resolution_due, id) where not is_template'],
  ['tickets_sla_due_idx', '(tenant_id, sla_due, id) where sla_due is not null and not is_template'],
  ['tickets_sla_state_idx', '(tenant_id, sla_state) where not is_template'],
  ['tickets_applied_sla_idx', '(tenant_id, applied_sla_id) where resolved_at is null and not is_template'],
  ['tickets_sla_recheck_idx', '(sla_recheck_at) where sla_recheck_at is not null and not is_template'],
];

const TARGETS = ['first_response', 'next_response', 'resolution'];

export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table tickets add column applied_sla_id integer references slas (id) on delete set null`.execute(
    db,
  );
  await sql`alter table tickets add column applied_sla_source text`.execute(db);
  for (const target of TARGETS) {
    await sql.raw(`alter table tickets add column ${target}_due timestamptz`).execute(db);
    await sql.raw(`alter table tickets add column ${target}_state text`).execute(db);
  }
  await sql`alter table tickets add column sla_state text`.execute(db);
  await sql`alter table tickets add column sla_due timestamptz`.execute(db);
  // Every ticket there is, measured once by the background pass.
  await sql`alter table tickets add column sla_recheck_at timestamptz default now()`.execute(db);
  for (const [name, definition] of INDEXES) {
    await sql.raw(`create index ${name} on tickets ${definition}`).execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const [name] of INDEXES) await sql.raw(`drop index if exists ${name}`).execute(db);
  for (const column of [
    'applied_sla_id',
    'applied_sla_source',
    ...TARGETS.flatMap((t) => [`${t}_due`, `${t}_state`]),
    'sla_state',
    'sla_due',
    'sla_recheck_at',
  ]) {
    await sql.raw(`alter table tickets drop column if exists ${column}`).execute(db);
  }
}
