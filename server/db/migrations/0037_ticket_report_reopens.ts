import { sql, type Kysely } from 'kysely';

/*
 * Reopenings in the service reports' daily figures (issue 36, item 1), frozen in time like every
 * migration: ticket_report_days.reopened, the reopenings (tickets.reopened_at, 0036) on each day in the
 * desk's zone, under the ticket's current keys like every figure of 0035. A trigger of its own keeps it:
 * 0035's stays as it is, and an update that touches neither the moments nor the keys costs one
 * comparison. A summary migration (server/db/summary-tables.ts): taken down with 0035 for a bulk insert
 * and put up again after it, filled from the tickets' moments.
 */

const ZONE = 'Europe/Amsterdam';
const KEYS = [
  'company_id',
  'operator_id',
  'ticket_group_id',
  'priority_id',
  'ticket_type_id',
  'category_id',
  'applied_sla_id',
];
const WATCHED = ['tenant_id', 'is_template', 'reopened_at', ...KEYS];

export async function up(db: Kysely<any>): Promise<void> {
  // Writes wait while the figures are filled, so they start exact.
  await sql`lock table tickets in share row exclusive mode`.execute(db);
  await sql`alter table ticket_report_days add column reopened integer not null default 0`.execute(db);
  const conflict = ['tenant_id', 'day', ...KEYS].join(', ');
  // A row's reopenings per day, signed: -1 for the old row, +1 for the new one.
  const apply = (r: 'old' | 'new', sign: string) => `
    insert into ticket_report_days (tenant_id, day, ${KEYS.join(', ')}, reopened)
    select ${r}.tenant_id, (moment at time zone '${ZONE}')::date, ${KEYS.map((k) => `${r}.${k}`).join(', ')},
      ${sign} * count(*)
    from unnest(${r}.reopened_at) as moment
    group by 2
    on conflict (${conflict}) do update set reopened = ticket_report_days.reopened + excluded.reopened;`;
  const changed = `(${WATCHED.map((c) => `old.${c}`).join(', ')}) is distinct from (${WATCHED.map((c) => `new.${c}`).join(', ')})`;
  await sql
    .raw(
      `create function ticket_report_reopens_keep() returns trigger language plpgsql as $$
      begin
        if tg_op = 'UPDATE' and not ${changed} then
          return null;
        end if;
        if tg_op in ('DELETE', 'UPDATE') and not old.is_template and cardinality(old.reopened_at) > 0 then
          ${apply('old', '-1')}
        end if;
        if tg_op in ('INSERT', 'UPDATE') and not new.is_template and cardinality(new.reopened_at) > 0 then
          ${apply('new', '1')}
        end if;
        return null;
      end $$`,
    )
    .execute(db);
  await sql
    .raw(
      `create trigger ticket_report_reopens_keep
      after insert or delete or update of ${WATCHED.join(', ')}
      on tickets for each row execute function ticket_report_reopens_keep()`,
    )
    .execute(db);
  // Filled from the moments there are: the tickets' reopenings summed per day and keys.
  await sql
    .raw(
      `insert into ticket_report_days (tenant_id, day, ${KEYS.join(', ')}, reopened)
      select t.tenant_id, (moment at time zone '${ZONE}')::date, ${KEYS.map((k) => `t.${k}`).join(', ')}, count(*)
      from tickets t, unnest(t.reopened_at) as moment
      where not t.is_template and cardinality(t.reopened_at) > 0
      group by 1, 2, ${KEYS.map((k) => `t.${k}`).join(', ')}
      on conflict (${conflict}) do update set reopened = excluded.reopened`,
    )
    .execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop trigger if exists ticket_report_reopens_keep on tickets`.execute(db);
  await sql`drop function if exists ticket_report_reopens_keep()`.execute(db);
  await sql`alter table ticket_report_days drop column if exists reopened`.execute(db);
}
