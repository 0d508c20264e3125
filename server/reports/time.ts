/**
 * The time report over a period (issue 36, item 1: "time logged (billable and not), per company,
 * contract and operator"), per day, week or month and in total (GET /api/reports/time), or one row per
 * company, operator, contract or activity (GET /api/reports/time/breakdown), for the time a filter
 * selects. Everything is read from the daily figures (time_report_days, migration 0038): a few rows per
 * day whatever the number of registrations, joined to the few rows that say what the figures do not
 * keep (migration 0038 says why):
 * - billable: the activity's `is_billable` now (no activity: not billable);
 * - the contract: the contract of the period the time is booked on;
 * - the company: the ticket's, kept on the daily row; where that is none (no ticket, or a ticket of no
 *   company), the company of the contract the time is booked on, when the contract has exactly one.
 */
import { sql, type Expression, type RawBuilder, type SqlBool } from 'kysely';
import type { ReportGroup } from '../../common/reports.ts';
import { referenceOf } from '../../common/schema/field-kind.ts';
import {
  TIME_KEYS,
  TIME_MEASURES,
  type TimeBreakdown,
  type TimeFigures,
  type TimeKey,
  type TimeReportAnswer,
} from '../../common/time-report.ts';
import type { Db } from '../db/database.ts';
import { registry } from '../schema/registry.ts';
import { recordNames } from './breakdown.ts';
import { periods, periodSql, periodText } from './figures.ts';

export interface TimeQuery {
  /** First and last day, inclusive, in the desk's zone (YYYY-MM-DD). */
  from: string;
  to: string;
  group: ReportGroup;
  /** Any of these ids of each key; `none`: the time without one (no contract, say). */
  filters: Partial<Record<TimeKey, (number | 'none')[]>>;
  /** The operators' line (SPEC 3 is_operator: 1 first, 2 second): their time only. */
  line?: 1 | 2;
}

/**
 * The daily figures of the range, one row per stored row, under the report's keys: the company (the
 * ticket's, else the contract's only one), operator, activity, contract period and its contract, and
 * whether the activity is billable.
 */
export function timeDays(db: Db, tenantId: number, range: { from: string; to: string }) {
  return db
    .selectFrom('time_report_days as d')
    .leftJoin('contract_periods as p', (join) =>
      join.onRef('p.id', '=', 'd.contract_period_id').onRef('p.tenant_id', '=', 'd.tenant_id'),
    )
    .leftJoin('activities as a', (join) =>
      join.onRef('a.id', '=', 'd.activity_id').onRef('a.tenant_id', '=', 'd.tenant_id'),
    )
    .select((eb) => [
      'd.day',
      eb.fn
        .coalesce(
          'd.company_id',
          // The contract's company when it has exactly one (none when it has several: whose is it?).
          eb
            .selectFrom('company_contract as cc')
            .select((inner) => inner.fn.min('cc.company_id').as('company_id'))
            .whereRef('cc.contract_id', '=', 'p.contract_id')
            .having((inner) => inner.fn.countAll(), '=', 1),
        )
        .as('company_id'),
      'd.operator_id',
      'd.activity_id',
      'd.contract_period_id',
      'p.contract_id',
      eb.fn.coalesce('a.is_billable', sql<boolean>`false`).as('billable'),
      'd.minutes',
      'd.rounded_minutes',
      'd.registrations',
    ])
    .where('d.tenant_id', '=', tenantId)
    .where('d.day', '>=', range.from)
    .where('d.day', '<=', range.to);
}

type Rounded = 'billable' | 'not billable' | 'on contract' | 'all';
const rounded = (which: Rounded) => {
  const where = {
    all: sql`true`,
    billable: sql`billable`,
    'not billable': sql`not billable`,
    'on contract': sql`contract_period_id is not null`,
  }[which];
  return sql<number>`coalesce(sum(rounded_minutes) filter (where ${where}), 0)::bigint`;
};

/** Each measure summed over the rows of a bucket (TIME_MEASURES' order). */
const SUMS = [
  sql<number>`coalesce(sum(minutes), 0)::bigint`.as('minutes'),
  rounded('all').as('rounded_minutes'),
  rounded('billable').as('billable_minutes'),
  rounded('not billable').as('non_billable_minutes'),
  rounded('on contract').as('contract_minutes'),
  sql<number>`coalesce(sum(registrations), 0)::bigint`.as('registrations'),
];

/** The filter's conditions on timeDays' rows: any of the ids of each key given, and a line's operators. */
function conditions(tenantId: number, q: TimeQuery): Expression<SqlBool>[] {
  const out: RawBuilder<SqlBool>[] = [];
  for (const key of TIME_KEYS) {
    const chosen = q.filters[key] ?? [];
    const ids = chosen.filter((id): id is number => id !== 'none');
    const any = ids.length ? [sql<SqlBool>`${sql.ref(key)} in (${sql.join(ids)})`] : [];
    if (chosen.includes('none')) any.push(sql<SqlBool>`${sql.ref(key)} is null`);
    if (any.length) out.push(sql<SqlBool>`(${sql.join(any, sql` or `)})`);
  }
  if (q.line)
    out.push(
      sql<SqlBool>`operator_id in (select u.id from users u where u.tenant_id = ${tenantId} and u.is_operator = ${q.line})`,
    );
  return out;
}

/** The figures of a tenant's time in the range that the filter selects, summed per `bucket`. */
function summed<B>(db: Db, tenantId: number, q: TimeQuery, bucket: RawBuilder<B>) {
  const where = conditions(tenantId, q);
  return db
    .selectFrom(timeDays(db, tenantId, q).as('f'))
    .select([bucket.as('bucket'), ...SUMS])
    .where((eb) => eb.and(where))
    .groupBy(bucket)
    .execute();
}

/** Each measure as a number, 0 where the bucket has no row. */
export function figuresOf(row: Partial<Record<keyof TimeFigures, number | string>> | undefined): TimeFigures {
  return Object.fromEntries(TIME_MEASURES.map((m) => [m, Number(row?.[m] ?? 0)])) as TimeFigures;
}

function totalOf(rows: TimeFigures[]): TimeFigures {
  return Object.fromEntries(
    TIME_MEASURES.map((m) => [m, rows.reduce((n, row) => n + row[m], 0)]),
  ) as TimeFigures;
}

export async function timeFigures(db: Db, tenantId: number, q: TimeQuery): Promise<TimeReportAnswer> {
  const rows = await summed(db, tenantId, q, periodText(periodSql(sql`day`, q.group)));
  const byPeriod = new Map(rows.map((r) => [r.bucket, r]));
  const out = periods(q).map((p) => ({ ...p, ...figuresOf(byPeriod.get(p.period)) }));
  return { from: q.from, to: q.to, group: q.group, rows: out, total: totalOf(out) };
}

/**
 * Where each key's records are named: the field of the schema whose relation points at them (the
 * ticket's company, the registration's operator and activity, the period's contract).
 */
const NAMED_BY: Record<TimeKey, [resource: string, field: string]> = {
  company_id: ['tickets', 'company_id'],
  operator_id: ['time-registrations', 'operator_id'],
  activity_id: ['time-registrations', 'activity_id'],
  contract_id: ['contract-periods', 'contract_id'],
};

function namesOf(db: Db, tenantId: number, by: TimeKey, ids: number[]) {
  const reg = registry();
  const [name, field] = NAMED_BY[by];
  const resource = reg.require(name);
  const relation = referenceOf(resource, resource.fields[field]!);
  return recordNames(db, tenantId, relation && reg.get(relation.resource), ids);
}

export async function timeBreakdown(
  db: Db,
  tenantId: number,
  q: TimeQuery,
  by: TimeKey,
): Promise<TimeBreakdown> {
  const rows = (await summed(db, tenantId, q, sql<number | null>`${sql.ref(by)}`))
    .map((r) => ({ key: r.bucket === null ? null : Number(r.bucket), ...figuresOf(r) }))
    // A key whose registrations all went (deleted, moved) keeps rows of zeros: not a row of the report.
    .filter((r) => TIME_MEASURES.some((m) => r[m] !== 0));
  const ids = rows.map((r) => r.key).filter((k): k is number => k !== null);
  const names = await namesOf(db, tenantId, by, ids);
  const out = rows.map(({ key, ...figures }) => ({
    key,
    name: key === null ? null : (names.get(key) ?? null),
    ...figures,
  }));
  // By name, the time without one (no contract, say) last.
  out.sort((a, b) =>
    a.key === null ? 1 : b.key === null ? -1 : (a.name ?? '').localeCompare(b.name ?? '') || a.key - b.key,
  );
  return { from: q.from, to: q.to, by, rows: out, total: totalOf(out) };
}
