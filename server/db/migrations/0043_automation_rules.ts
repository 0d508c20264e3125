import { sql, type Kysely } from 'kysely';

/*
 * The desk's automation (issue 37, items 1 and 2), frozen in time like every migration.
 *
 * automation_rules: a tenant's triggers (kind `trigger`: run in the transaction of an event) and
 * time-based rules (kind `time`: run by a loop when something has been so for `amount` `unit`s since
 * `since`), in `position` order; `conditions` is a builder array of the tickets' list API, `actions` the
 * action language of common/automation/actions.ts, `event_fields` the fields whose change fires a
 * `ticket_updated` trigger (empty: any).
 * ticket_changes.rule_id: a history entry made by that rule rather than by a person (as sla_id is an SLA's).
 * automation_runs: the log of the rules' runs (applied, skipped by the loop guard, failed), kept bounded
 * by the loop that prunes it.
 * automation_claims: one row per time rule, ticket and anchor instant (when the "since" began), unique,
 * so a due rule acts once however many instances look, and again only for a new anchor.
 * automation_event_claims: one row per SLA warning or breach (the key its notification is deduplicated
 * by: ticket, target, threshold or breach instant), so its triggers run once however many instances
 * measure the clock.
 */

export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table automation_rules (
      id serial primary key,
      tenant_id integer not null references tenants (id) on delete cascade,
      name text not null,
      active boolean not null default true,
      position integer not null default 0,
      kind text not null check (kind in ('trigger', 'time')),
      event text check (event in ('ticket_created', 'ticket_updated', 'client_message', 'operator_message',
        'mail_received', 'sla_warning', 'sla_breach')),
      event_fields jsonb not null default '[]',
      conditions jsonb not null default '[]',
      actions jsonb not null default '[]',
      stop_after boolean not null default false,
      since text check (since in ('status_changed', 'last_operator_reply', 'last_client_message', 'resolved',
        'created')),
      amount integer check (amount > 0),
      unit text check (unit in ('hours', 'days', 'business_hours', 'business_days')),
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    )`.execute(db);
  // The schema's default sort (the run order) and the engine's look at a tenant's active rules of a kind.
  await sql`create index automation_rules_position_index on automation_rules (tenant_id, position, id)`.execute(
    db,
  );
  await sql`create index automation_rules_name_index on automation_rules (tenant_id, name)`.execute(db);
  await sql`create index automation_rules_active_index on automation_rules (tenant_id, kind, event, position)
    where active`.execute(db);
  await sql`alter table ticket_changes add column rule_id integer references automation_rules (id) on delete set null`.execute(
    db,
  );
  await sql`create index ticket_changes_rule_id_index on ticket_changes (tenant_id, rule_id)`.execute(db);
  await sql`
    create table automation_runs (
      id serial primary key,
      tenant_id integer not null references tenants (id) on delete cascade,
      rule_id integer not null references automation_rules (id) on delete cascade,
      ticket_id integer references tickets (id) on delete set null,
      event text not null,
      depth integer not null default 0,
      outcome text not null check (outcome in ('applied', 'skipped-loop', 'failed')),
      changes jsonb not null default '[]',
      created_at timestamptz not null default now()
    )`.execute(db);
  // A rule's log, newest first (its screen's tab, and the cap per rule); the prune by age.
  await sql`create index automation_runs_rule_index on automation_runs (tenant_id, rule_id, id)`.execute(db);
  await sql`create index automation_runs_id_index on automation_runs (tenant_id, id)`.execute(db);
  await sql`create index automation_runs_ticket_index on automation_runs (tenant_id, ticket_id)`.execute(db);
  await sql`create index automation_runs_created_index on automation_runs (created_at)`.execute(db);
  await sql`
    create table automation_claims (
      rule_id integer not null references automation_rules (id) on delete cascade,
      ticket_id integer not null references tickets (id) on delete cascade,
      anchor timestamptz not null,
      created_at timestamptz not null default now(),
      primary key (rule_id, ticket_id, anchor)
    )`.execute(db);
  await sql`
    create table automation_event_claims (
      tenant_id integer not null references tenants (id) on delete cascade,
      key text not null,
      created_at timestamptz not null default now(),
      primary key (tenant_id, key)
    )`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table if exists automation_event_claims`.execute(db);
  await sql`drop table if exists automation_claims`.execute(db);
  await sql`drop table if exists automation_runs`.execute(db);
  await sql`alter table ticket_changes drop column if exists rule_id`.execute(db);
  await sql`drop table if exists automation_rules`.execute(db);
}
