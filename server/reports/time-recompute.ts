/**
 * The time report's figures computed again from the raw rows (issue 36: "a check compares the
 * aggregates with a full recomputation from the raw rows, in tests on small data"): the daily figures
 * that migration 0038's triggers keep, and the report's figures per key with the rules read at query
 * time (server/reports/time.ts). Written apart from both on purpose, one registration at a time, so a
 * check does not share their SQL and its mistakes.
 */
import { sql } from 'kysely';
import { DEFAULT_TIME_ZONE } from '../../common/sla/calendar.ts';
import { TIME_MEASURES, type TimeFigures, type TimeKey } from '../../common/time-report.ts';
import type { Db } from '../db/database.ts';

const DAY_KEYS = ['company_id', 'operator_id', 'activity_id', 'contract_period_id'] as const;
type DayKey = (typeof DAY_KEYS)[number];
const DAY_MEASURES = ['minutes', 'rounded_minutes', 'registrations'] as const;
type DayMeasure = (typeof DAY_MEASURES)[number];
export type TimeDay = { day: string } & Record<DayKey, number | null> & Record<DayMeasure, number>;

const identity = (row: TimeDay) => [row.day, ...DAY_KEYS.map((k) => row[k] ?? '-')].join('|');

/** Numbers as numbers, rows with nothing in them left out (a trigger keeps a row that went to zero). */
function normalise(rows: TimeDay[]): TimeDay[] {
  return rows
    .map((r) => ({
      ...r,
      ...Object.fromEntries(DAY_KEYS.map((k) => [k, r[k] === null ? null : Number(r[k])])),
      ...Object.fromEntries(DAY_MEASURES.map((m) => [m, Number(r[m])])),
    }))
    .filter((r) => DAY_MEASURES.some((m) => r[m] !== 0))
    .sort((a, b) => identity(a).localeCompare(identity(b)));
}

/** Every non-zero row of a tenant's daily time figures as the triggers kept them, sorted. */
export async function storedTimeDays(db: Db, tenantId: number): Promise<TimeDay[]> {
  const rows = await db
    .selectFrom('time_report_days')
    .select([sql<string>`to_char(day, 'YYYY-MM-DD')`.as('day'), ...DAY_KEYS, ...DAY_MEASURES])
    .where('tenant_id', '=', tenantId)
    .execute();
  return normalise(rows as TimeDay[]);
}

/** A tenant's registrations with everything the figures depend on, read from their own rows. */
async function registrations(db: Db, tenantId: number) {
  const rows = await db
    .selectFrom('time_registrations as r')
    .leftJoin('tickets as t', 't.id', 'r.ticket_id')
    .leftJoin('contract_periods as p', 'p.id', 'r.contract_period_id')
    .leftJoin('activities as a', 'a.id', 'r.activity_id')
    .select([
      sql<string>`to_char(r.executed_at at time zone ${DEFAULT_TIME_ZONE}, 'YYYY-MM-DD')`.as('day'),
      't.company_id as ticket_company_id',
      'r.operator_id',
      'r.activity_id',
      'r.contract_period_id',
      'p.contract_id',
      'a.is_billable',
      'r.time_spent',
      'r.time_spent_rounded',
    ])
    .where('r.tenant_id', '=', tenantId)
    .execute();
  const links = await db.selectFrom('company_contract').select(['contract_id', 'company_id']).execute();
  const companiesOf = new Map<number, number[]>();
  for (const l of links)
    companiesOf.set(Number(l.contract_id), [...(companiesOf.get(Number(l.contract_id)) ?? []), l.company_id]);
  return rows.map((r) => {
    const contractCompanies = r.contract_id === null ? [] : (companiesOf.get(Number(r.contract_id)) ?? []);
    return {
      ...r,
      // The ticket's company; else the contract's when it has exactly one.
      company_id:
        r.ticket_company_id ?? (contractCompanies.length === 1 ? Number(contractCompanies[0]) : null),
    };
  });
}

/** The daily figures from the registrations and their tickets' companies. */
export async function recomputedTimeDays(db: Db, tenantId: number): Promise<TimeDay[]> {
  const days = new Map<string, TimeDay>();
  for (const r of await registrations(db, tenantId)) {
    const probe: TimeDay = {
      day: r.day,
      company_id: r.ticket_company_id,
      operator_id: r.operator_id,
      activity_id: r.activity_id,
      contract_period_id: r.contract_period_id,
      minutes: 0,
      rounded_minutes: 0,
      registrations: 0,
    };
    const row = days.get(identity(probe)) ?? probe;
    row.minutes += Number(r.time_spent);
    row.rounded_minutes += Number(r.time_spent_rounded);
    row.registrations += 1;
    days.set(identity(row), row);
  }
  return normalise([...days.values()]);
}

/**
 * The report's figures per value of `by` over the days `from` to `to`, from the registrations: the
 * company by the rule above, billable as the activity is now, the contract of the period.
 */
export async function recomputedTimeByKey(
  db: Db,
  tenantId: number,
  by: TimeKey,
  from: string,
  to: string,
): Promise<Map<number | null, TimeFigures>> {
  const out = new Map<number | null, TimeFigures>();
  for (const r of await registrations(db, tenantId)) {
    if (r.day < from || r.day > to) continue;
    const value = r[by];
    const key = value === null ? null : Number(value);
    const zero = Object.fromEntries(TIME_MEASURES.map((m) => [m, 0])) as TimeFigures;
    const figures = out.get(key) ?? zero;
    const rounded = Number(r.time_spent_rounded);
    figures.minutes += Number(r.time_spent);
    figures.rounded_minutes += rounded;
    if (r.is_billable) figures.billable_minutes += rounded;
    else figures.non_billable_minutes += rounded;
    if (r.contract_period_id !== null) figures.contract_minutes += rounded;
    figures.registrations += 1;
    out.set(key, figures);
  }
  return out;
}
