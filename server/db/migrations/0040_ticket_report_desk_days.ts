import { sql, type Kysely } from 'kysely';

/*
 * The whole desk's daily figures (issue 36, item 1), frozen in time like every migration: the service
 * report of a tenant without a filter sums a few rows per day instead of the keyed figures' hundreds
 * (ticket_report_days, 0035 and 0037, has a row per day and seven keys: at a million tickets a year of
 * the desk was 316,000 rows to sum).
 *
 * Kept from the keyed figures, not from the tickets: a trigger on ticket_report_days writes what each of
 * its rows gained or lost as a row of its own here (a delta), so the rules of what counts on which day
 * stay in 0035 and 0037 alone. A delta is an insert, never an update: a single row per tenant and day,
 * updated by every ticket write, would be locked by each writing transaction until it ends, and every
 * write of the tenant would queue behind it (the SLA pass measures fifty tickets per transaction). The
 * deltas of a day are summed into one row later (server/reports/desk-days.ts): `settled` rows are such
 * sums, the partial index finds the days that have deltas. A report sums every row of its days, settled
 * or not, so it is exact whether or not the deltas were summed yet.
 *
 * A summary migration (server/db/summary-tables.ts): taken down before 0035 and put up after it, filled
 * from the keyed figures.
 */

const MEASURES = [
  'created',
  'responded',
  'response_minutes',
  'response_met',
  'response_breached',
  'solved',
  'resolution_timed',
  'resolution_minutes',
  'resolution_met',
  'resolution_breached',
  'reopened',
];

export async function up(db: Kysely<any>): Promise<void> {
  // Writes wait while the figures are filled, so they start exact.
  await sql`lock table ticket_report_days in share row exclusive mode`.execute(db);
  await sql
    .raw(
      `create table ticket_report_desk_days (
        tenant_id integer not null references tenants(id) on delete cascade,
        day date not null,
        ${MEASURES.map((m) => `${m} bigint not null default 0`).join(',\n        ')},
        settled boolean not null default false
      )`,
    )
    .execute(db);
  await sql`create index ticket_report_desk_days_idx on ticket_report_desk_days (tenant_id, day)`.execute(db);
  await sql`create index ticket_report_desk_days_unsettled_idx on ticket_report_desk_days (tenant_id, day) where not settled`.execute(
    db,
  );
  const columns = MEASURES.join(', ');
  const difference = (m: string) => `coalesce(new.${m}, 0) - coalesce(old.${m}, 0)`;
  await sql
    .raw(
      `create function ticket_report_desk_days_keep() returns trigger language plpgsql as $$
      begin
        if tg_op = 'DELETE' then
          insert into ticket_report_desk_days (tenant_id, day, ${columns})
          values (old.tenant_id, old.day, ${MEASURES.map((m) => `-old.${m}`).join(', ')});
        elsif tg_op = 'INSERT' or (${MEASURES.map((m) => `new.${m}`).join(', ')}) is distinct from (${MEASURES.map((m) => `old.${m}`).join(', ')}) then
          insert into ticket_report_desk_days (tenant_id, day, ${columns})
          values (new.tenant_id, new.day, ${MEASURES.map(difference).join(', ')});
        end if;
        return null;
      end $$`,
    )
    .execute(db);
  await sql
    .raw(
      `create trigger ticket_report_desk_days_keep
      after insert or update or delete on ticket_report_days
      for each row execute function ticket_report_desk_days_keep()`,
    )
    .execute(db);
  await sql
    .raw(
      `insert into ticket_report_desk_days (tenant_id, day, ${columns}, settled)
      select tenant_id, day, ${MEASURES.map((m) => `sum(${m})`).join(', ')}, true
      from ticket_report_days
      group by tenant_id, day`,
    )
    .execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop trigger if exists ticket_report_desk_days_keep on ticket_report_days`.execute(db);
  await sql`drop function if exists ticket_report_desk_days_keep()`.execute(db);
  await sql`drop table if exists ticket_report_desk_days`.execute(db);
}
