/**
 * The daily figures a service report sums (issue 36, item 1), from the cheapest place that holds them
 * for its filter:
 *
 * - no filter at all: the whole desk's figures (ticket_report_desk_days, migration 0040), a few rows a
 *   day;
 * - a filter on the keys of the daily figures (company, operator, group, priority, type, category,
 *   SLA, the operators' line): the keyed figures (ticket_report_days, 0035 and 0037);
 * - a client (the person who asked): the keyed figures have no such key (a key per client would make
 *   every ticket's day a row of its own, as the tickets), so the same figures are computed from that
 *   client's tickets, one event per day a ticket counts on. A client's tickets are few and found
 *   through their index.
 *
 * Every source gives the same columns (`day` and the measures) for the tenant's rows the filter keeps.
 */
import { sql, type AliasedSelectQueryBuilder, type RawBuilder, type SqlBool } from 'kysely';
import { DEFAULT_TIME_ZONE } from '../../common/sla/calendar.ts';
import {
  REPORT_FILTERS,
  REPORT_MEASURES,
  type ReportFilter,
  type ReportGroup,
  type ReportKey,
  type ReportMeasure,
} from '../../common/reports.ts';
import type { Db } from '../db/database.ts';

export interface ReportQuery {
  /** First and last day, inclusive, in the desk's zone (YYYY-MM-DD). */
  from: string;
  to: string;
  group: ReportGroup;
  /** Any of these ids of each key; `none`: the tickets without one (no operator, say). */
  filters: Partial<Record<ReportFilter, (number | 'none')[]>>;
  /** The operators' line (SPEC 3 is_operator: 1 first, 2 second): their tickets only. */
  line?: 1 | 2;
}

/**
 * The filter's conditions, for the daily figures and the tickets alike (both have the keys, under the
 * same names): any of the ids of each key given, and the operators of a line.
 */
export function filtered<Q extends { where(condition: RawBuilder<SqlBool>): Q }>(
  query: Q,
  tenantId: number,
  q: ReportQuery,
): Q {
  let out = query;
  for (const key of REPORT_FILTERS) {
    const chosen = q.filters[key] ?? [];
    const ids = chosen.filter((id): id is number => id !== 'none');
    const any = ids.length ? [sql<SqlBool>`${sql.ref(key)} in (${sql.join(ids)})`] : [];
    if (chosen.includes('none')) any.push(sql<SqlBool>`${sql.ref(key)} is null`);
    if (any.length) out = out.where(sql<SqlBool>`(${sql.join(any, sql` or `)})`);
  }
  if (q.line)
    out = out.where(
      sql<SqlBool>`${sql.ref('operator_id')} in (select u.id from users u where u.tenant_id = ${tenantId} and u.is_operator = ${q.line})`,
    );
  return out;
}

/** Whether the report filters on anything: its filters' ids, or the operators' line. */
export const filtersAnything = (q: ReportQuery) =>
  q.line !== undefined || Object.values(q.filters).some((ids) => (ids ?? []).length > 0);

/** A moment's day in the desk's zone. */
const dayOf = (moment: RawBuilder<unknown>) =>
  sql<string>`(${moment} at time zone ${sql.lit(DEFAULT_TIME_ZONE)})::date`;

const ref = (column: string) => sql.ref(column);
const isState = (column: string, state: string) =>
  sql`case when ${ref(column)} = ${sql.lit(state)} then 1 else 0 end`;

/**
 * What a ticket adds on each day it counts on, as migrations 0035 and 0037 say it: the day it was
 * created; the first answer's day (or, unanswered, the solving's: where the first response target
 * ended); the day it was solved. Reopenings are events of their own (below).
 */
const EVENTS: [RawBuilder<unknown>, Partial<Record<ReportMeasure, RawBuilder<unknown>>>][] = [
  [ref('created_at'), { created: sql`1` }],
  [
    sql`coalesce(first_response_at, resolved_at)`,
    {
      responded: sql`case when first_response_at is null then 0 else 1 end`,
      response_minutes: sql`coalesce(first_response_minutes, 0)`,
      response_met: isState('first_response_state', 'met'),
      response_breached: isState('first_response_state', 'breached'),
    },
  ],
  [
    ref('resolved_at'),
    {
      solved: sql`1`,
      resolution_timed: sql`case when resolution_minutes is null then 0 else 1 end`,
      resolution_minutes: sql`coalesce(resolution_minutes, 0)`,
      resolution_met: isState('resolution_state', 'met'),
      resolution_breached: isState('resolution_state', 'breached'),
    },
  ],
];

const measures = (adds: Partial<Record<ReportMeasure, RawBuilder<unknown>>>) =>
  REPORT_MEASURES.map((m) => sql<number>`${adds[m] ?? sql`0`}`.as(m));

/** A breakdown's key as the rows' `bucket` (null without one). */
const bucketOf = (by: ReportKey | undefined) =>
  sql<number | null>`${by ? sql.ref(by) : sql`null::int`}`.as('bucket');

/** The figures of the tickets the filter keeps, one row per event (not summed per day). */
function ticketEvents(db: Db, tenantId: number, q: ReportQuery, by: ReportKey | undefined) {
  const mine = filtered(
    db.selectFrom('tickets').where('tenant_id', '=', tenantId).where('is_template', '=', false),
    tenantId,
    q,
  );
  const [first, ...rest] = EVENTS.map(([moment, adds]) =>
    mine.select([dayOf(moment).as('day'), bucketOf(by), ...measures(adds)]).where(moment, 'is not', null),
  );
  const reopenings = db
    .selectFrom(mine.select([sql<Date>`unnest(reopened_at)`.as('at'), bucketOf(by)]).as('r'))
    .select([
      dayOf(ref('r.at')).as('day'),
      sql<number | null>`r.bucket`.as('bucket'),
      ...measures({ reopened: sql`1` }),
    ]);
  let all = first!.unionAll(reopenings);
  for (const next of rest) all = all.unionAll(next);
  return all;
}

/**
 * The rows a report with this query sums (see the head of this file): `day`, the measures and, for a
 * breakdown, the key's value as `bucket`.
 */
export type DayRow = { day: string; bucket: number | null } & Record<ReportMeasure, number>;

export function dayRows(
  db: Db,
  tenantId: number,
  q: ReportQuery,
  by?: ReportKey,
): AliasedSelectQueryBuilder<DayRow, 'r'> {
  if ((q.filters.client_id ?? []).length > 0) return ticketEvents(db, tenantId, q, by).as('r');
  if (!filtersAnything(q) && !by)
    return db
      .selectFrom('ticket_report_desk_days')
      .select(['day', bucketOf(undefined), ...REPORT_MEASURES])
      .where('tenant_id', '=', tenantId)
      .as('r');
  return filtered(
    db
      .selectFrom('ticket_report_days')
      .select(['day', bucketOf(by), ...REPORT_MEASURES])
      .where('tenant_id', '=', tenantId),
    tenantId,
    q,
  ).as('r');
}
