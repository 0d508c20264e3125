import { sql, type Kysely } from 'kysely';

/*
 * Reopenings in the service reports (issue 36, item 1), frozen in time like every migration.
 *
 * - tickets.reopened_at: the moments a solved or closed ticket was opened again, oldest first, written
 *   by the SLA clock's recompute with its other columns (0031, 0034) from the ticket's history, so it is
 *   as exact as the clock. Empty for a ticket never reopened.
 * - ticket_report_days.reopened: the reopenings on each day (desk's zone), under the ticket's current
 *   keys like every figure of 0035. A trigger of its own keeps it: 0035's stays as it is, and an update
 *   that touches neither the moments nor the keys costs one comparison.
 *
 * Only tickets whose history has a status change or a merge can have been reopened: those are marked for
 * the background pass now (even one due to be measured later), which fills the moments in and, through
 * the trigger, the figures.
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
  await sql`alter table tickets add column reopened_at timestamptz[] not null default '{}'`.execute(db);
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
  await sql`update tickets set sla_recheck_at = now()
    where not is_template and id in (
      select ticket_id from ticket_changes where field in ('status_id', 'merged')
      union select merged_from from ticket_changes where merged_from is not null)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop trigger if exists ticket_report_reopens_keep on tickets`.execute(db);
  await sql`drop function if exists ticket_report_reopens_keep()`.execute(db);
  await sql`alter table ticket_report_days drop column if exists reopened`.execute(db);
  await sql`alter table tickets drop column if exists reopened_at`.execute(db);
}
