/**
 * The reports' daily figures computed again from the tickets themselves (issue 36): the check that the
 * figures the triggers of migrations 0035 and 0036 keep are exact. Tests compare the two after random writes,
 * and the benchmark at a million tickets. Written apart from the migration on purpose (a migration is
 * frozen, and a check that shared its SQL would share its mistakes): the same rules, said again here.
 */
import { sql } from 'kysely';
import { DEFAULT_TIME_ZONE } from '../../common/sla/calendar.ts';
import type { Db } from '../db/database.ts';
import { REPORT_KEYS, REPORT_MEASURES, type ReportKey, type ReportMeasure } from '../../common/reports.ts';

export type ReportDay = { day: string } & Record<ReportKey, number | null> & Record<ReportMeasure, number>;

/** A row's identity: its day and keys. */
export const dayKey = (row: ReportDay) => [row.day, ...REPORT_KEYS.map((k) => row[k] ?? '-')].join('|');

/** Every non-zero day of a tenant's figures as the trigger kept them, sorted by identity. */
export async function storedReportDays(db: Db, tenantId: number): Promise<ReportDay[]> {
  const rows = await db
    .selectFrom('ticket_report_days')
    .select([sql<string>`to_char(day, 'YYYY-MM-DD')`.as('day'), ...REPORT_KEYS, ...REPORT_MEASURES])
    .where('tenant_id', '=', tenantId)
    .execute();
  return normalise(rows.map((r) => ({ ...r }) as ReportDay));
}

/** The same figures from the tickets, one ticket at a time (small data: tests; the bench pages them). */
export async function recomputedReportDays(db: Db, tenantId: number): Promise<ReportDay[]> {
  const tickets = await db
    .selectFrom('tickets')
    .select([
      ...REPORT_KEYS,
      sql<string>`to_char(created_at at time zone ${DEFAULT_TIME_ZONE}, 'YYYY-MM-DD')`.as('created_day'),
      sql<string | null>`to_char(first_response_at at time zone ${DEFAULT_TIME_ZONE}, 'YYYY-MM-DD')`.as(
        'answer_day',
      ),
      sql<string | null>`to_char(resolved_at at time zone ${DEFAULT_TIME_ZONE}, 'YYYY-MM-DD')`.as(
        'solved_day',
      ),
      'first_response_minutes',
      'first_response_state',
      'resolution_minutes',
      'resolution_state',
      sql<
        string[]
      >`array(select to_char(m at time zone ${DEFAULT_TIME_ZONE}, 'YYYY-MM-DD') from unnest(reopened_at) m)`.as(
        'reopened_days',
      ),
    ])
    .where('tenant_id', '=', tenantId)
    .where('is_template', '=', false)
    .execute();
  const days = new Map<string, ReportDay>();
  const add = (
    ticket: (typeof tickets)[number],
    day: string,
    adds: Partial<Record<ReportMeasure, number>>,
  ) => {
    const keys = Object.fromEntries(REPORT_KEYS.map((k) => [k, ticket[k]])) as Record<
      ReportKey,
      number | null
    >;
    const zero = Object.fromEntries(REPORT_MEASURES.map((m) => [m, 0])) as Record<ReportMeasure, number>;
    const probe = { day, ...keys, ...zero };
    const row = days.get(dayKey(probe)) ?? probe;
    for (const [m, n] of Object.entries(adds)) row[m as ReportMeasure] += n;
    days.set(dayKey(row), row);
  };
  for (const t of tickets) {
    add(t, t.created_day, { created: 1 });
    // The first response target ended at the first answer or, unanswered, at the solving.
    const responseDay = t.answer_day ?? t.solved_day;
    if (responseDay)
      add(t, responseDay, {
        responded: t.answer_day ? 1 : 0,
        response_minutes: t.first_response_minutes ?? 0,
        response_met: t.first_response_state === 'met' ? 1 : 0,
        response_breached: t.first_response_state === 'breached' ? 1 : 0,
      });
    if (t.solved_day)
      add(t, t.solved_day, {
        solved: 1,
        resolution_timed: t.resolution_minutes === null ? 0 : 1,
        resolution_minutes: t.resolution_minutes ?? 0,
        resolution_met: t.resolution_state === 'met' ? 1 : 0,
        resolution_breached: t.resolution_state === 'breached' ? 1 : 0,
      });
    // Each reopening on its own day (migration 0036).
    for (const day of t.reopened_days) add(t, day, { reopened: 1 });
  }
  return normalise([...days.values()]);
}

/** Numbers as numbers, rows with nothing in them left out (the trigger keeps a row that went to zero). */
function normalise(rows: ReportDay[]): ReportDay[] {
  return rows
    .map((r) => ({
      ...r,
      ...Object.fromEntries(REPORT_MEASURES.map((m) => [m, Number(r[m])])),
    }))
    .filter((r) => REPORT_MEASURES.some((m) => r[m] !== 0))
    .sort((a, b) => dayKey(a).localeCompare(dayKey(b)));
}

/** A day of the whole desk's figures (ticket_report_desk_days, migration 0040). */
export type DeskDay = { day: string } & Record<ReportMeasure, number>;

/** The whole desk's figures as stored, every row of a day summed (settled or not), non-zero days. */
export async function storedDeskDays(db: Db, tenantId: number): Promise<DeskDay[]> {
  const rows = await db
    .selectFrom('ticket_report_desk_days')
    .select([
      sql<string>`to_char(day, 'YYYY-MM-DD')`.as('day'),
      ...REPORT_MEASURES.map((m) => sql<number>`sum(${sql.ref(m)})`.as(m)),
    ])
    .where('tenant_id', '=', tenantId)
    .groupBy('day')
    .execute();
  return deskDays(rows as DeskDay[]);
}

/** The keyed days summed per day: what the whole desk's figures must be. */
export function deskDays(days: DeskDay[]): DeskDay[] {
  const out = new Map<string, DeskDay>();
  for (const d of days) {
    const row =
      out.get(d.day) ??
      ({ day: d.day, ...Object.fromEntries(REPORT_MEASURES.map((m) => [m, 0])) } as DeskDay);
    for (const m of REPORT_MEASURES) row[m] += Number(d[m]);
    out.set(d.day, row);
  }
  return [...out.values()]
    .filter((r) => REPORT_MEASURES.some((m) => r[m] !== 0))
    .sort((a, b) => a.day.localeCompare(b.day));
}
