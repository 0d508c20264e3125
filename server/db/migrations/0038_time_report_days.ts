import { sql, type Kysely } from 'kysely';

/*
 * The time report's daily figures (issue 36, item 1: "time logged (billable and not), per company,
 * contract and operator, with prepaid consumption per contract period"), frozen in time like every
 * migration. One row per tenant, day and grouping keys with the time registered there, kept exact by
 * triggers as 0035 keeps the tickets' (signed upserts; an update that touches no watched column costs one
 * comparison), so a report sums a few rows per day whatever the number of registrations.
 *
 * - The day is the registration's `executed_at` in the desk's zone (Europe/Amsterdam), as in 0035.
 * - Measures: `minutes` (time_spent), `rounded_minutes` (time_spent_rounded: what is invoiced and taken
 *   off a contract) and `registrations`.
 * - Keys kept on the row: `operator_id` and `activity_id` (the registration's own), `contract_period_id`
 *   (the period it is booked on: a contract's or a prepaid card's) and `company_id`, the company of the
 *   registration's ticket (null: no ticket, or a ticket of no company).
 * - Derived at read time from a few rows instead, so that an edit elsewhere never fans out here: whether
 *   time is billable (`activities.is_billable` of the activity; none: not billable), the contract (the
 *   period's `contract_id`), and the company of time whose ticket says none: the company of the contract
 *   it is booked on, when that contract has exactly one (company_contract is many-to-many; a contract of
 *   several companies cannot say whose the time is).
 * - The ticket's company is read when a registration is written, so a ticket moved to another company
 *   moves its registrations' figures (a trigger on tickets: a handful of upserts per ticket). A ticket
 *   being deleted first moves them to no company (before the delete, while its registrations still point
 *   at it; the foreign key then clears their ticket_id, an update that moves nothing). A merge moves a
 *   registration to the kept ticket: an update of ticket_id, which the registrations' trigger handles.
 * - Rows of a tenant being deleted are left to the cascade: the triggers do nothing once it is gone.
 *
 * server/reports/time-recompute.ts says the same rules again from the raw rows, for the tests.
 */

const ZONE = 'Europe/Amsterdam';
const KEYS = ['company_id', 'operator_id', 'activity_id', 'contract_period_id'];
const MEASURES = ['minutes', 'rounded_minutes', 'registrations'];
/** The registration's columns its figures depend on. */
const WATCHED = [
  'tenant_id',
  'ticket_id',
  'executed_at',
  'operator_id',
  'activity_id',
  'contract_period_id',
  'time_spent',
  'time_spent_rounded',
];

const day = (moment: string) => `(${moment} at time zone '${ZONE}')::date`;
const columns = ['tenant_id', 'day', ...KEYS, ...MEASURES].join(', ');
const conflict = `on conflict (${['tenant_id', 'day', ...KEYS].join(', ')}) do update set ${MEASURES.map(
  (m) => `${m} = time_report_days.${m} + excluded.${m}`,
).join(', ')}`;
const tenantGone = (tenant: string) => `not exists (select 1 from tenants where id = ${tenant})`;

export async function up(db: Kysely<any>): Promise<void> {
  // Writes wait while the figures are filled, so they start exact.
  await sql`lock table time_registrations, tickets in share row exclusive mode`.execute(db);
  await sql
    .raw(
      `create table time_report_days (
        tenant_id integer not null references tenants(id) on delete cascade,
        day date not null,
        ${KEYS.map((k) => `${k} integer`).join(',\n        ')},
        minutes bigint not null default 0,
        rounded_minutes bigint not null default 0,
        registrations integer not null default 0,
        unique nulls not distinct (tenant_id, day, ${KEYS.join(', ')})
      )`,
    )
    .execute(db);
  // The prepaid consumption: a contract period's time over a range.
  await sql`create index time_report_days_period_idx on time_report_days (tenant_id, contract_period_id, day)
    where contract_period_id is not null`.execute(db);

  // A registration row (`old` or `new`), signed, under its ticket's company now.
  const apply = (r: 'old' | 'new', sign: string) => `
    insert into time_report_days (${columns})
    values (${r}.tenant_id, ${day(`${r}.executed_at`)},
      (select t.company_id from tickets t where t.id = ${r}.ticket_id and t.tenant_id = ${r}.tenant_id),
      ${r}.operator_id, ${r}.activity_id, ${r}.contract_period_id,
      ${sign} * ${r}.time_spent, ${sign} * ${r}.time_spent_rounded, ${sign})
    ${conflict};`;
  const changed = `(${WATCHED.map((c) => `old.${c}`).join(', ')}) is distinct from (${WATCHED.map((c) => `new.${c}`).join(', ')})`;
  await sql
    .raw(
      `create function time_report_days_keep() returns trigger language plpgsql as $$
      begin
        if tg_op = 'UPDATE' and not ${changed} then
          return null;
        end if;
        if ${tenantGone('coalesce(new.tenant_id, old.tenant_id)')} then
          return null;
        end if;
        if tg_op in ('DELETE', 'UPDATE') then ${apply('old', '-1')}
        end if;
        if tg_op in ('INSERT', 'UPDATE') then ${apply('new', '1')}
        end if;
        return null;
      end $$`,
    )
    .execute(db);
  await sql
    .raw(
      `create trigger time_report_days_keep
      after insert or delete or update of ${WATCHED.join(', ')}
      on time_registrations for each row execute function time_report_days_keep()`,
    )
    .execute(db);

  // A ticket's registrations from its old company to its new one (deleted: to none), in one upsert: the
  // two companies differ, so no row is touched twice.
  await sql
    .raw(
      `create function time_report_days_ticket_company() returns trigger language plpgsql as $$
      declare
        moved_to integer := case when tg_op = 'UPDATE' then new.company_id end;
      begin
        if old.company_id is not distinct from moved_to or ${tenantGone('old.tenant_id')} then
          return old;
        end if;
        insert into time_report_days (${columns})
        select r.tenant_id, ${day('r.executed_at')}, c.company_id, r.operator_id, r.activity_id,
          r.contract_period_id, c.sign * sum(r.time_spent), c.sign * sum(r.time_spent_rounded),
          c.sign * count(*)
        from time_registrations r
        cross join (values (old.company_id, -1), (moved_to, 1)) as c (company_id, sign)
        where r.tenant_id = old.tenant_id and r.ticket_id = old.id
        group by r.tenant_id, 2, c.company_id, r.operator_id, r.activity_id, r.contract_period_id, c.sign
        ${conflict};
        return old;
      end $$`,
    )
    .execute(db);
  await sql
    .raw(
      `create trigger time_report_days_ticket_company after update of company_id
      on tickets for each row execute function time_report_days_ticket_company()`,
    )
    .execute(db);
  await sql
    .raw(
      `create trigger time_report_days_ticket_deleted before delete
      on tickets for each row execute function time_report_days_ticket_company()`,
    )
    .execute(db);

  // Filled from the registrations there are, under their tickets' companies.
  await sql
    .raw(
      `insert into time_report_days (${columns})
      select r.tenant_id, ${day('r.executed_at')}, t.company_id, r.operator_id, r.activity_id,
        r.contract_period_id, sum(r.time_spent), sum(r.time_spent_rounded), count(*)
      from time_registrations r left join tickets t on t.id = r.ticket_id and t.tenant_id = r.tenant_id
      group by r.tenant_id, 2, t.company_id, r.operator_id, r.activity_id, r.contract_period_id`,
    )
    .execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop trigger if exists time_report_days_keep on time_registrations`.execute(db);
  await sql`drop trigger if exists time_report_days_ticket_company on tickets`.execute(db);
  await sql`drop trigger if exists time_report_days_ticket_deleted on tickets`.execute(db);
  await sql`drop function if exists time_report_days_keep()`.execute(db);
  await sql`drop function if exists time_report_days_ticket_company()`.execute(db);
  await sql`drop table if exists time_report_days`.execute(db);
}
