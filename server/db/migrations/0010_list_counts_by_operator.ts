import { sql, type Kysely } from 'kysely';

/*
 * A second summary table for ticket totals (issue 7; see 0007), frozen in time like every migration:
 * tickets per (tenant, is_template, operator, priority). It answers the presets "my tickets" and "high
 * priority", which otherwise count half a million index entries each on a million tickets.
 */

const DIMENSIONS = ['tenant_id', 'is_template', 'operator_id', 'priority_id'];

export async function up(db: Kysely<any>): Promise<void> {
  // Writes wait while the summary is filled, so it starts exact.
  await sql`lock table tickets in share row exclusive mode`.execute(db);
  await sql`
    create table tickets_counts_by_operator (
      tenant_id integer not null references tenants(id) on delete cascade,
      is_template boolean not null,
      operator_id integer,
      priority_id integer,
      n bigint not null,
      unique nulls not distinct (tenant_id, is_template, operator_id, priority_id)
    )`.execute(db);
  const same = (row: 'old' | 'new') =>
    DIMENSIONS.map((d) => `${d} is not distinct from ${row}.${d}`).join(' and ');
  const changed = `(${DIMENSIONS.map((d) => `old.${d}`).join(', ')}) is distinct from (${DIMENSIONS.map((d) => `new.${d}`).join(', ')})`;
  await sql
    .raw(
      `create function tickets_counts_by_operator_keep() returns trigger language plpgsql as $$
      begin
        if tg_op = 'DELETE' or (tg_op = 'UPDATE' and ${changed}) then
          update tickets_counts_by_operator set n = n - 1 where ${same('old')};
        end if;
        if tg_op = 'INSERT' or (tg_op = 'UPDATE' and ${changed}) then
          insert into tickets_counts_by_operator (${DIMENSIONS.join(', ')}, n)
          values (${DIMENSIONS.map((d) => `new.${d}`).join(', ')}, 1)
          on conflict (${DIMENSIONS.join(', ')}) do update set n = tickets_counts_by_operator.n + 1;
        end if;
        return null;
      end $$`,
    )
    .execute(db);
  await sql
    .raw(
      `create trigger tickets_counts_by_operator_keep after insert or delete or update of ${DIMENSIONS.join(', ')}
      on tickets for each row execute function tickets_counts_by_operator_keep()`,
    )
    .execute(db);
  await sql
    .raw(
      `insert into tickets_counts_by_operator (${DIMENSIONS.join(', ')}, n)
      select ${DIMENSIONS.join(', ')}, count(*) from tickets group by ${DIMENSIONS.join(', ')}`,
    )
    .execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop trigger if exists tickets_counts_by_operator_keep on tickets`.execute(db);
  await sql`drop function if exists tickets_counts_by_operator_keep()`.execute(db);
  await sql`drop table if exists tickets_counts_by_operator`.execute(db);
}
