import { sql, type Kysely } from 'kysely';

/*
 * The service reports' daily figures (issue 36, item 1), fast at a million tickets, frozen in time like
 * every migration. One row per tenant, day and the reports' grouping keys, kept exact by a trigger on
 * tickets as the list counts are (0007, 0010, 0024), so a report sums a few rows per day instead of
 * reading every ticket. The keys are the ticket's current ones: a ticket given to another operator moves
 * its figures with it, so every figure equals what the ticket list shows for the same filter (a report's
 * drill-down) and a recomputation from the tickets (server/reports/recompute.ts).
 *
 * A ticket counts on up to three days, each in the desk's zone (Europe/Amsterdam):
 * - the day it was created: `created`;
 * - the day of its first answer (0034): `responded` and its business minutes;
 * - the day it was solved (resolved_at): `solved` and its business minutes open (`resolution_timed`:
 *   those that have them; a ticket merged into another has none).
 * The first response's SLA outcome counts on the day that target ended: the first answer, or the solving
 * of a ticket solved unanswered; the resolution's on the day it was solved. Templates count nowhere.
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
] as const;
type Measure = (typeof MEASURES)[number];

const day = (moment: string) => `(${moment} at time zone '${ZONE}')::date`;

/**
 * What a ticket row (`r`: old or new) adds on each day it counts on: [day, the measures it adds there]
 * (a null day: none). A ticket merged into another is solved without minutes of its own: counted as
 * solved, not in the times (`resolution_timed` counts those that are).
 */
function contributions(r: string): [string, Partial<Record<Measure, string>>][] {
  const state = (column: string, value: string) => `(${r}.${column} is not distinct from '${value}')::int`;
  const timed = `(${r}.resolution_minutes is not null)::int`;
  return [
    [day(`${r}.created_at`), { created: '1' }],
    // The first answer's day, or (unanswered) the solving's: where the first response target ended.
    [
      day(`coalesce(${r}.first_response_at, ${r}.resolved_at)`),
      {
        responded: `(${r}.first_response_at is not null)::int`,
        response_minutes: `coalesce(${r}.first_response_minutes, 0)`,
        response_met: state('first_response_state', 'met'),
        response_breached: state('first_response_state', 'breached'),
      },
    ],
    [
      day(`${r}.resolved_at`),
      {
        solved: '1',
        resolution_timed: timed,
        resolution_minutes: `coalesce(${r}.resolution_minutes, 0)`,
        resolution_met: state('resolution_state', 'met'),
        resolution_breached: state('resolution_state', 'breached'),
      },
    ],
  ];
}

/** All measures of one contribution, in MEASURES' order (0 where it adds nothing). */
const valuesOf = (adds: Partial<Record<Measure, string>>) => MEASURES.map((m) => adds[m] ?? '0');

/** The columns a ticket's figures depend on: an update of none of them leaves the figures alone. */
const WATCHED = [
  'tenant_id',
  'is_template',
  'created_at',
  'resolved_at',
  'first_response_at',
  'first_response_minutes',
  'first_response_state',
  'resolution_minutes',
  'resolution_state',
  ...KEYS,
];

export async function up(db: Kysely<any>): Promise<void> {
  // Writes wait while the figures are filled, so they start exact.
  await sql`lock table tickets in share row exclusive mode`.execute(db);
  await sql
    .raw(
      `create table ticket_report_days (
        tenant_id integer not null references tenants(id) on delete cascade,
        day date not null,
        ${KEYS.map((k) => `${k} integer`).join(',\n        ')},
        ${MEASURES.map((m) => `${m} ${m.endsWith('minutes') ? 'bigint' : 'integer'} not null default 0`).join(',\n        ')},
        unique nulls not distinct (tenant_id, day, ${KEYS.join(', ')})
      )`,
    )
    .execute(db);
  // A report of one tenant over a period, and of one company over a period.
  await sql`create index ticket_report_days_company_idx on ticket_report_days (tenant_id, company_id, day)`.execute(
    db,
  );
  const columns = ['tenant_id', 'day', ...KEYS, ...MEASURES].join(', ');
  const conflict = ['tenant_id', 'day', ...KEYS].join(', ');
  const adds = MEASURES.map((m) => `${m} = ticket_report_days.${m} + excluded.${m}`).join(', ');
  // One upsert per day a row counts on, signed: -1 for the old row, +1 for the new one.
  const apply = (r: 'old' | 'new', sign: string) =>
    contributions(r)
      .map(
        ([when, values]) => `
          if ${when} is not null then
            insert into ticket_report_days (${columns})
            values (${r}.tenant_id, ${when}, ${KEYS.map((k) => `${r}.${k}`).join(', ')},
              ${valuesOf(values)
                .map((v) => `${sign} * ${v}`)
                .join(', ')})
            on conflict (${conflict}) do update set ${adds};
          end if;`,
      )
      .join('');
  const changed = `(${WATCHED.map((c) => `old.${c}`).join(', ')}) is distinct from (${WATCHED.map((c) => `new.${c}`).join(', ')})`;
  await sql
    .raw(
      `create function ticket_report_days_keep() returns trigger language plpgsql as $$
      begin
        if tg_op = 'UPDATE' and not ${changed} then
          return null;
        end if;
        if tg_op in ('DELETE', 'UPDATE') and not old.is_template then ${apply('old', '-1')}
        end if;
        if tg_op in ('INSERT', 'UPDATE') and not new.is_template then ${apply('new', '1')}
        end if;
        return null;
      end $$`,
    )
    .execute(db);
  await sql
    .raw(
      `create trigger ticket_report_days_keep
      after insert or delete or update of ${WATCHED.join(', ')}
      on tickets for each row execute function ticket_report_days_keep()`,
    )
    .execute(db);
  // Filled from the tickets there are: each day a ticket counts on, summed per day and keys.
  const unions = contributions('t')
    .map(
      ([when, values]) =>
        `select t.tenant_id, ${when} as day, ${KEYS.map((k) => `t.${k}`).join(', ')}, ${valuesOf(values)
          .map((v, i) => `${v} as ${MEASURES[i]}`)
          .join(', ')} from tickets t where not t.is_template and ${when} is not null`,
    )
    .join('\n union all ');
  await sql
    .raw(
      `insert into ticket_report_days (${columns})
      select tenant_id, day, ${KEYS.join(', ')}, ${MEASURES.map((m) => `sum(${m})`).join(', ')}
      from (${unions}) f
      group by tenant_id, day, ${KEYS.join(', ')}`,
    )
    .execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop trigger if exists ticket_report_days_keep on tickets`.execute(db);
  await sql`drop function if exists ticket_report_days_keep()`.execute(db);
  await sql`drop table if exists ticket_report_days`.execute(db);
}
