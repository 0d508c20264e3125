/**
 * The service report's figures over a period (issue 36, item 1), per day, week or month and in total,
 * for the tickets a filter selects. Counts, sums and SLA outcomes come from the daily figures
 * (ticket_report_days, migration 0035): a few rows per day whatever the number of tickets. Medians and
 * 90th percentiles cannot be added up from daily sums, so they read the tickets' own minutes (migration
 * 0034) through the indexes that hold them. The backlog at the end of each period is the open tickets of
 * now minus what was created and not solved since: no day before the period is read.
 *
 * Five statements, run side by side; every figure is under the ticket's current keys, so each equals
 * the ticket list with the same filter (the report's drill-down).
 */
import { sql, type RawBuilder } from 'kysely';
import { DateTime } from 'luxon';
import { DEFAULT_TIME_ZONE } from '../../common/sla/calendar.ts';
import type { Db } from '../db/database.ts';
import { tenantToday } from '../sla/stored-clock.ts';
import {
  REPORT_MEASURES,
  type ReportAnswer,
  type ReportGroup,
  type ReportMeasure,
} from '../../common/reports.ts';
import { dayRows, filtered, filtersAnything, type ReportQuery } from './selection.ts';

/** The start of `day`'s period (YYYY-MM-DD): the day, its ISO week's Monday, its month's first. */
function periodOf(day: string, group: ReportGroup): string {
  if (group === 'day') return day;
  const date = DateTime.fromISO(day);
  return (group === 'week' ? date.startOf('week') : date.startOf('month')).toISODate()!;
}

/** The periods of the range in order, each clipped to it. */
export function periods(
  q: Pick<ReportQuery, 'from' | 'to' | 'group'>,
): { period: string; from: string; to: string }[] {
  const out: { period: string; from: string; to: string }[] = [];
  let start = DateTime.fromISO(periodOf(q.from, q.group));
  const last = DateTime.fromISO(q.to);
  while (start <= last) {
    const next = start.plus({ [`${q.group}s`]: 1 });
    const from = DateTime.max(start, DateTime.fromISO(q.from)).toISODate()!;
    const to = DateTime.min(next.minus({ days: 1 }), last).toISODate()!;
    out.push({ period: start.toISODate()!, from, to });
    start = next;
  }
  return out;
}

/**
 * The SQL of a date column's period start, as periodOf says it: a date or timestamp to group by (a
 * text per row would make PostgreSQL sort and compare text: at a million tickets a year's percentiles
 * took half as long again), written as text by periodText once per period.
 */
export const periodSql = (day: RawBuilder<unknown>, group: ReportGroup) =>
  group === 'day' ? day : sql`date_trunc(${sql.lit(group)}, ${day})`;

/** A period start (periodSql) as the answer says it: YYYY-MM-DD. */
export const periodText = (start: RawBuilder<unknown>) => sql<string>`to_char(${start}, 'YYYY-MM-DD')`;

/** The start of a day in the desk's zone, as a moment. */
const instant = (day: string) => DateTime.fromISO(day, { zone: DEFAULT_TIME_ZONE }).toJSDate();

/**
 * Each measure summed (as bigint: five years of one operator's resolution minutes at a million tickets
 * are some 2.5 billion, past an integer; measuresOf makes them numbers).
 */
export const sums = REPORT_MEASURES.map((m) =>
  sql<number | string>`coalesce(sum(${sql.ref(m)}), 0)::bigint`.as(m),
);

/** The moments a median is about, with their minutes: first answers and solvings. */
export const TIMES = {
  response: ['first_response_at', 'first_response_minutes'],
  resolution: ['resolved_at', 'resolution_minutes'],
} as const;

/**
 * Median and 90th percentile of the minutes of `times` in the range, per bucket (a period, or a key's
 * value: `bucket` of the moment, e.g. its period's number) and over the whole range (`whole`).
 */
export function percentiles(
  db: Db,
  tenantId: number,
  q: ReportQuery,
  times: keyof typeof TIMES,
  bucket: (moment: RawBuilder<unknown>) => RawBuilder<unknown>,
) {
  const [moment, minutes] = TIMES[times];
  // The bucket named once, in a subquery: GROUPING() must see the grouped expression itself, and an
  // expression with parameters written twice is two expressions to PostgreSQL.
  const measured = filtered(
    db
      .selectFrom('tickets')
      .select([
        sql<string | number | null>`${bucket(sql.ref(moment))}`.as('b'),
        sql<number>`${sql.ref(minutes)}`.as('m'),
      ])
      .where('tenant_id', '=', tenantId)
      .where('is_template', '=', false)
      .where(minutes, 'is not', null)
      .where(moment, '>=', instant(q.from))
      .where(moment, '<', instant(DateTime.fromISO(q.to).plus({ days: 1 }).toISODate()!)),
    tenantId,
    q,
  );
  return db
    .selectFrom(measured.as('t'))
    .select([
      't.b as bucket',
      sql<boolean>`grouping(t.b) = 1`.as('whole'),
      sql<number>`percentile_cont(0.5) within group (order by t.m)`.as('median'),
      sql<number>`percentile_cont(0.9) within group (order by t.m)`.as('p90'),
    ])
    .groupBy(sql`grouping sets ((t.b), ())`)
    .execute();
}

/**
 * A moment's period as its number in `list` (0 the first): where it falls among the periods' starts in
 * the desk's zone. A binary search in a few instants per ticket: the moment's day in the desk's zone,
 * truncated to its period, cost a time zone conversion per ticket, half of a year's percentiles at a
 * million tickets.
 */
function periodNumber(list: { period: string }[]) {
  const starts = list.slice(1).map((p) => sql`${instant(p.period)}::timestamptz`);
  return (moment: RawBuilder<unknown>) =>
    sql`width_bucket(${moment}, array[${sql.join(starts)}]::timestamptz[])`;
}

/** Minutes to a tenth: what a percentile between two tickets' minutes is worth saying. */
const tenths = (minutes: number | string) => Math.round(Number(minutes) * 10) / 10;

type Percentiles = Awaited<ReturnType<typeof percentiles>>;

/** The whole range's percentiles, as `timesOf` takes them (a bucket of its own may be null). */
export const WHOLE = Symbol('whole range');

/** A bucket's median and 90th percentile of each time, to a tenth (null: nothing measured). */
export function timesOf(
  response: Percentiles,
  resolution: Percentiles,
  bucket: string | number | null | typeof WHOLE,
) {
  const of = (list: Percentiles) => {
    const row = list.find((r) => (bucket === WHOLE ? r.whole : !r.whole && r.bucket === bucket));
    // The whole range's row is there even without a ticket measured (a grouping set of none), null.
    const value = (n: number | null | undefined) => (n === null || n === undefined ? null : tenths(n));
    return { median: value(row?.median), p90: value(row?.p90) };
  };
  const r = of(response);
  const s = of(resolution);
  return {
    response_median: r.median,
    response_p90: r.p90,
    resolution_median: s.median,
    resolution_p90: s.p90,
  };
}

/** Each measure as a number, 0 where the bucket has no row. */
export function measuresOf(row: Partial<Record<ReportMeasure, number | string>> | undefined) {
  return Object.fromEntries(REPORT_MEASURES.map((m) => [m, Number(row?.[m] ?? 0)])) as Record<
    ReportMeasure,
    number
  >;
}

export async function reportFigures(db: Db, tenantId: number, q: ReportQuery): Promise<ReportAnswer> {
  const day = sql`day`;
  const list = periods(q);
  // The range's periods and, in a row of its own (no period), everything after it, whose created minus
  // solved gives the backlog: one scan of the daily figures for both (at a million tickets a year is a
  // fifth of the table, read by a sequential scan: a second statement for the days after read it all
  // again).
  const grouped = db
    .selectFrom(dayRows(db, tenantId, q))
    .select([sql`case when day <= ${q.to} then ${periodSql(day, q.group)} end`.as('start'), ...sums])
    .where('day', '>=', q.from)
    .groupBy(sql`1`);
  const daily = db
    .selectFrom(grouped.as('d'))
    .selectAll()
    // Null for the days after the range.
    .select(sql<string | null>`to_char(${sql.ref('d.start')}, 'YYYY-MM-DD')`.as('period'))
    .execute();
  const open = filtersAnything(q)
    ? filtered(
        db
          .selectFrom('tickets')
          .select(sql<number>`count(*)::int`.as('n'))
          .where('tenant_id', '=', tenantId)
          .where('is_template', '=', false)
          .where('resolved_at', 'is', null),
        tenantId,
        q,
      ).executeTakeFirstOrThrow()
    : // The whole desk: what was ever created less what is solved, from its few rows a day (the open
      // tickets are a fifth of a million in the benchmark, 60 to 85 ms to count).
      db
        .selectFrom('ticket_report_desk_days')
        .select(sql<number>`coalesce(sum(created - solved), 0)::bigint`.as('n'))
        .where('tenant_id', '=', tenantId)
        .executeTakeFirstOrThrow();
  const [grouping, now, response, resolution] = await Promise.all([
    daily,
    open,
    percentiles(db, tenantId, q, 'response', periodNumber(list)),
    percentiles(db, tenantId, q, 'resolution', periodNumber(list)),
  ]).then(([grouping, now, ...times]) => {
    // Each period's percentiles under its first day, as the rows say it.
    const [response, resolution] = times.map((rows) =>
      rows.map((r) => ({ ...r, bucket: r.whole ? null : list[Number(r.bucket)]!.period })),
    );
    return [grouping, now, response!, resolution!] as const;
  });
  const rows = grouping.filter((r) => r.period !== null);
  const later = measuresOf(grouping.find((r) => r.period === null));
  const net = { net: later.created - later.solved };
  const byPeriod = new Map(rows.map((r) => [r.period, r]));
  const figures = (
    period: string | typeof WHOLE,
    measures: Partial<Record<ReportMeasure, number | string>> | undefined,
  ) => ({
    ...measuresOf(measures),
    backlog: null as number | null,
    ...timesOf(response, resolution, period),
  });
  const out = list.map((p) => ({ ...p, ...figures(p.period, byPeriod.get(p.period)) }));
  // Backwards from now: each period ends with what is open now, less what came in net after it. A
  // period that has not begun has no backlog yet.
  const today = tenantToday(Date.now());
  let backlog = Number(now.n) - Number(net.net);
  for (let i = out.length - 1; i >= 0; i--) {
    out[i]!.backlog = out[i]!.from > today ? null : backlog;
    backlog -= out[i]!.created - out[i]!.solved;
  }
  const totals = Object.fromEntries(
    REPORT_MEASURES.map((m) => [m, out.reduce((n, row) => n + row[m], 0)]),
  ) as Record<ReportMeasure, number>;
  const begun = out.filter((row) => row.backlog !== null);
  const total = { ...figures(WHOLE, totals), backlog: begun[begun.length - 1]?.backlog ?? null };
  return { from: q.from, to: q.to, group: q.group, rows: out, total };
}
