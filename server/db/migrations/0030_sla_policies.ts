import { sql, type Kysely } from 'kysely';

/*
 * SLA policies (issue 35, item 2), frozen in time like every migration.
 *
 * slas.response_time / resolution_time (SPEC's fields) stay the targets for any priority; a new
 * next_response_time is the target for answering a client's reply. sla_targets: the same three per
 * priority, where a priority's row overrides the SLA's own (an empty cell there: no such target).
 * slas.warning_percentages: the shares of a target at which the clock warns, e.g. [75, 90].
 * ticket_statuses.pauses_sla: the clock stops while a ticket has this status; on by default for the
 * statuses of the internal types waiting_for_reply (4) and scheduled (6).
 * contracts.sla_id: a contract's SLA, which applies to its companies' tickets that name none.
 */

export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table slas add column next_response_time integer check (next_response_time >= 0)`.execute(
    db,
  );
  await sql`alter table slas add column warning_percentages jsonb not null default '[75, 90]'::jsonb`.execute(
    db,
  );

  await sql`alter table ticket_statuses add column pauses_sla boolean not null default false`.execute(db);
  await sql`update ticket_statuses set pauses_sla = true where internal_type in (4, 6)`.execute(db);

  await sql`alter table contracts add column sla_id integer references slas (id) on delete set null`.execute(
    db,
  );
  await sql`create index contracts_sla_id_index on contracts (tenant_id, sla_id)`.execute(db);

  await sql`
    create table sla_targets (
      id serial primary key,
      tenant_id integer not null references tenants (id) on delete cascade,
      sla_id integer not null references slas (id) on delete cascade,
      priority_id integer not null references priorities (id) on delete cascade,
      response_time integer check (response_time >= 0),
      next_response_time integer check (next_response_time >= 0),
      resolution_time integer check (resolution_time >= 0),
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      unique (sla_id, priority_id)
    )`.execute(db);
  await sql`create index sla_targets_tenant_sla_index on sla_targets (tenant_id, sla_id, priority_id)`.execute(
    db,
  );
  await sql`create index sla_targets_priority_index on sla_targets (tenant_id, priority_id)`.execute(db);
}
