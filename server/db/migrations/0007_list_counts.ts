import { sql, type Kysely } from 'kysely';

/*
 * Exact list totals that stay fast on large tables (issue 7), frozen in time like every migration.
 *
 * A list answers its exact total. On a million tickets a count(*) reads every row of the tenant (half a
 * second), so tickets get a summary table kept exact by a trigger in the same transaction as each write:
 * tickets_counts holds the number of tickets per (tenant, is_template, company, status). A total whose
 * conditions only test those columns (the default list, the portal's company scope, a status or company
 * filter, such preset counts) is the sum of a few summary rows instead.
 *
 * The query layer finds summary tables by name, `<table>_counts` with a column `n` and otherwise only
 * columns of `<table>`, so another large table gets the same treatment by a migration alone.
 */

const DIMENSIONS = ['tenant_id', 'is_template', 'company_id', 'status_id'];

export async function up(db: Kysely<any>): Promise<void> {
  // Writes wait while the summary is filled, so it starts exact.
  await sql`lock table tickets in share row exclusive mode`.execute(db);
  await sql`
    create table tickets_counts (
      tenant_id integer not null references tenants(id) on delete cascade,
      is_template boolean not null,
      company_id integer,
      status_id integer not null,
      n bigint not null,
      unique nulls not distinct (tenant_id, is_template, company_id, status_id)
    )`.execute(db);
  const same = (row: 'old' | 'new') =>
    DIMENSIONS.map((d) => `${d} is not distinct from ${row}.${d}`).join(' and ');
  const changed = `(${DIMENSIONS.map((d) => `old.${d}`).join(', ')}) is distinct from (${DIMENSIONS.map((d) => `new.${d}`).join(', ')})`;
  await sql
    .raw(
      `create function tickets_counts_keep() returns trigger language plpgsql as $$
      begin
        if tg_op = 'DELETE' or (tg_op = 'UPDATE' and ${changed}) then
          update tickets_counts set n = n - 1 where ${same('old')};
        end if;
        if tg_op = 'INSERT' or (tg_op = 'UPDATE' and ${changed}) then
          insert into tickets_counts (${DIMENSIONS.join(', ')}, n)
          values (${DIMENSIONS.map((d) => `new.${d}`).join(', ')}, 1)
          on conflict (${DIMENSIONS.join(', ')}) do update set n = tickets_counts.n + 1;
        end if;
        return null;
      end $$`,
    )
    .execute(db);
  await sql
    .raw(
      `create trigger tickets_counts_keep after insert or delete or update of ${DIMENSIONS.join(', ')}
      on tickets for each row execute function tickets_counts_keep()`,
    )
    .execute(db);
  await sql
    .raw(
      `insert into tickets_counts (${DIMENSIONS.join(', ')}, n)
      select ${DIMENSIONS.join(', ')}, count(*) from tickets group by ${DIMENSIONS.join(', ')}`,
    )
    .execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop trigger if exists tickets_counts_keep on tickets`.execute(db);
  await sql`drop function if exists tickets_counts_keep()`.execute(db);
  await sql`drop table if exists tickets_counts`.execute(db);
}
