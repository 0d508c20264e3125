import { sql, type Kysely } from 'kysely';

/*
 * What an SLA does at a breach (issue 35, item 5), frozen in time like every migration.
 *
 * slas.breach_priority_id / breach_operator_id / breach_ticket_group_id: optional actions when a target
 * of a ticket it governs is breached (raise the priority, give the ticket to an operator or a group).
 * sla_escalations: one row per ticket, target and breach instant, unique, so the actions run once
 * however many instances see the breach; a breach instant that moves is a new row.
 * ticket_changes.sla_id: a history entry made by that SLA's escalation rather than by a person.
 * messages.merged_from / ticket_changes.merged_from: the ticket a row belonged to before a merge moved
 * it to the kept ticket, so each ticket's SLA clock reads its own history only (a merge moves them all).
 */

export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table slas add column breach_priority_id integer references priorities (id) on delete set null`.execute(
    db,
  );
  await sql`alter table slas add column breach_operator_id integer references users (id) on delete set null`.execute(
    db,
  );
  await sql`alter table slas add column breach_ticket_group_id integer references ticket_groups (id) on delete set null`.execute(
    db,
  );
  await sql`alter table ticket_changes add column sla_id integer references slas (id) on delete set null`.execute(
    db,
  );
  // Each is a filter of its list (an SLA's, the history's), led by the tenant as every list's index.
  for (const column of ['breach_priority_id', 'breach_operator_id', 'breach_ticket_group_id'])
    await sql.raw(`create index slas_${column}_index on slas (tenant_id, ${column})`).execute(db);
  await sql`create index ticket_changes_sla_id_index on ticket_changes (tenant_id, sla_id)`.execute(db);
  for (const table of ['messages', 'ticket_changes']) {
    await sql.raw(`alter table ${table} add column merged_from integer`).execute(db);
    await sql
      .raw(
        `create index ${table}_merged_from_index on ${table} (tenant_id, merged_from) where merged_from is not null`,
      )
      .execute(db);
  }
  await sql`
    create table sla_escalations (
      id serial primary key,
      tenant_id integer not null references tenants (id) on delete cascade,
      ticket_id integer not null references tickets (id) on delete cascade,
      target text not null,
      breached_at timestamptz not null,
      created_at timestamptz not null default now(),
      unique (ticket_id, target, breached_at)
    )`.execute(db);
  await sql`create index sla_escalations_tenant_index on sla_escalations (tenant_id, ticket_id)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table if exists sla_escalations`.execute(db);
  await sql`alter table ticket_changes drop column if exists sla_id`.execute(db);
  for (const table of ['messages', 'ticket_changes'])
    await sql.raw(`alter table ${table} drop column if exists merged_from`).execute(db);
  for (const column of ['breach_priority_id', 'breach_operator_id', 'breach_ticket_group_id'])
    await sql.raw(`alter table slas drop column if exists ${column}`).execute(db);
}
