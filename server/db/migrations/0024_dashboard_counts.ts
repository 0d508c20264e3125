import { sql, type Kysely } from 'kysely';

/*
 * What the operator's dashboard counts (issue 18), fast at a million tickets, frozen in time like every
 * migration:
 * - tickets per (tenant, is_template, operator, status, deadline month): a third summary table kept
 *   exact by a trigger, as 0007 and 0010 do. It answers "open", "waiting for the client" and "client
 *   replied" per operator (and so per person, per line and for nobody) from a few thousand rows, the
 *   overdue tickets of the months before this one, and the list totals of the same filters (an
 *   operator's open tickets) through the query layer's summary lookup. The month is the deadline's UTC
 *   month (null without a deadline).
 * - the tickets with a deadline, by status and deadline, with the operator in the index: overdue this
 *   month and due today are an index-only range scan per open status over a month of deadlines at most.
 * - the tickets by creation moment, with operator and status in the index: new today is an index-only
 *   scan of today's tickets.
 */

/** The summary's columns and what each holds of a ticket row (`{row}`: new or old). */
const DIMENSIONS: [column: string, value: string][] = [
  ['tenant_id', '{row}.tenant_id'],
  ['is_template', '{row}.is_template'],
  ['operator_id', '{row}.operator_id'],
  ['status_id', '{row}.status_id'],
  ['deadline_month', "date_trunc('month', {row}.deadline at time zone 'UTC')"],
];
const COLUMNS = DIMENSIONS.map(([column]) => column).join(', ');
const valuesOf = (row: string) => DIMENSIONS.map(([, value]) => value.replaceAll('{row}', row));

const INDEXES: [name: string, definition: string][] = [
  [
    'tickets_deadline_idx',
    '(tenant_id, status_id, deadline) include (operator_id) where not is_template and deadline is not null',
  ],
  ['tickets_created_idx', '(tenant_id, created_at) include (operator_id, status_id) where not is_template'],
];

export async function up(db: Kysely<any>): Promise<void> {
  // Writes wait while the summary is filled, so it starts exact.
  await sql`lock table tickets in share row exclusive mode`.execute(db);
  await sql`
    create table tickets_counts_by_operator_status (
      tenant_id integer not null references tenants(id) on delete cascade,
      is_template boolean not null,
      operator_id integer,
      status_id integer not null,
      deadline_month timestamp,
      n bigint not null,
      unique nulls not distinct (tenant_id, is_template, operator_id, status_id, deadline_month)
    )`.execute(db);
  const same = (row: 'old' | 'new') =>
    DIMENSIONS.map(([column], i) => `${column} is not distinct from ${valuesOf(row)[i]}`).join(' and ');
  const changed = `(${valuesOf('old').join(', ')}) is distinct from (${valuesOf('new').join(', ')})`;
  await sql
    .raw(
      `create function tickets_counts_by_operator_status_keep() returns trigger language plpgsql as $$
      begin
        if tg_op = 'DELETE' or (tg_op = 'UPDATE' and ${changed}) then
          update tickets_counts_by_operator_status set n = n - 1 where ${same('old')};
        end if;
        if tg_op = 'INSERT' or (tg_op = 'UPDATE' and ${changed}) then
          insert into tickets_counts_by_operator_status (${COLUMNS}, n)
          values (${valuesOf('new').join(', ')}, 1)
          on conflict (${COLUMNS}) do update set n = tickets_counts_by_operator_status.n + 1;
        end if;
        return null;
      end $$`,
    )
    .execute(db);
  await sql
    .raw(
      `create trigger tickets_counts_by_operator_status_keep
      after insert or delete or update of tenant_id, is_template, operator_id, status_id, deadline
      on tickets for each row execute function tickets_counts_by_operator_status_keep()`,
    )
    .execute(db);
  await sql
    .raw(
      `insert into tickets_counts_by_operator_status (${COLUMNS}, n)
      select ${valuesOf('tickets').join(', ')}, count(*) from tickets
      group by ${DIMENSIONS.map((_, i) => i + 1).join(', ')}`,
    )
    .execute(db);
  for (const [name, definition] of INDEXES) {
    await sql.raw(`create index ${name} on tickets ${definition}`).execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const [name] of INDEXES) await sql.raw(`drop index if exists ${name}`).execute(db);
  await sql`drop trigger if exists tickets_counts_by_operator_status_keep on tickets`.execute(db);
  await sql`drop function if exists tickets_counts_by_operator_status_keep()`.execute(db);
  await sql`drop table if exists tickets_counts_by_operator_status`.execute(db);
}
