/**
 * Prepaid consumption per contract period (issue 36, item 1; GET /api/reports/contracts): each period of
 * a contract (hours per period, or a prepaid card: period 'none') that overlaps the range or had time
 * booked on it in the range, with what the range took off it and its own figures as they stand now.
 *
 * - Consumption is the time booked on the period by registrations executed in the range (their day in
 *   the desk's zone): `rounded_minutes` is what was taken off the period (time_spent_rounded, as the
 *   booking in server/resources/time-registrations/hooks.ts takes it off), `minutes` the time spent,
 *   `registrations` how many. From the daily figures (time_report_days, migration 0038), so over the
 *   same range it adds up with GET /api/reports/time's `contract_minutes`.
 * - `minutes_total`, `registered_time` and `minutes_remaining` are the period's own (SPEC 3, what the
 *   contract page shows): now, not at the range's end, since a prepaid card's purchases change them too.
 * - A period booked in the range outside its own dates (late time on last month's period) is listed too,
 *   so no booked minute is left out.
 */
import { sql, type Expression, type SqlBool } from 'kysely';
import {
  CONSUMPTION_MEASURES,
  type ContractConsumption,
  type ConsumptionMeasure,
} from '../../common/time-report.ts';
import type { Db } from '../db/database.ts';

export interface ContractQuery {
  from: string;
  to: string;
  /** Any of the contract's companies (`none`: contracts of no company); these contracts. */
  filters: { company_id?: (number | 'none')[]; contract_id?: number[] };
}

export async function contractConsumption(
  db: Db,
  tenantId: number,
  q: ContractQuery,
): Promise<ContractConsumption> {
  const booked = db
    .selectFrom('time_report_days')
    .select([
      'contract_period_id',
      sql<number>`sum(minutes)::bigint`.as('minutes'),
      sql<number>`sum(rounded_minutes)::bigint`.as('rounded_minutes'),
      sql<number>`sum(registrations)::bigint`.as('registrations'),
    ])
    .where('tenant_id', '=', tenantId)
    .where('contract_period_id', 'is not', null)
    .where('day', '>=', q.from)
    .where('day', '<=', q.to)
    .groupBy('contract_period_id');
  const companies = q.filters.company_id ?? [];
  const contracts = q.filters.contract_id ?? [];
  const periods = await db
    .selectFrom('contract_periods as p')
    .innerJoin('contracts as c', (join) =>
      join.onRef('c.id', '=', 'p.contract_id').onRef('c.tenant_id', '=', 'p.tenant_id'),
    )
    .leftJoin(booked.as('b'), 'b.contract_period_id', 'p.id')
    .select([
      'p.id',
      'p.period_start',
      'p.period_end',
      'p.contract_id',
      'c.name as contract_name',
      sql<boolean>`c.period = 'none'`.as('prepaid'),
      'b.minutes',
      'b.rounded_minutes',
      'b.registrations',
      'p.minutes_total',
      'p.registered_time',
      'p.minutes_remaining',
    ])
    .where('p.tenant_id', '=', tenantId)
    .where((eb) =>
      eb.or([
        eb.and([
          eb('p.period_start', '<=', q.to),
          eb.or([eb('p.period_end', 'is', null), eb('p.period_end', '>=', q.from)]),
        ]),
        eb('b.registrations', '>', 0),
      ]),
    )
    .where((eb) => {
      const where: Expression<SqlBool>[] = [];
      if (companies.length) {
        const ids = companies.filter((id): id is number => id !== 'none');
        const of = eb.selectFrom('company_contract as cc').whereRef('cc.contract_id', '=', 'c.id');
        const any: Expression<SqlBool>[] = [];
        if (ids.length) any.push(eb.exists(of.select('cc.company_id').where('cc.company_id', 'in', ids)));
        if (companies.includes('none')) any.push(eb.not(eb.exists(of.select('cc.company_id'))));
        where.push(eb.or(any));
      }
      if (contracts.length) where.push(eb('c.id', 'in', contracts));
      return eb.and(where);
    })
    .orderBy('c.name')
    .orderBy('c.id')
    .orderBy('p.period_start')
    .orderBy('p.id')
    .execute();
  const contractIds = [...new Set(periods.map((p) => Number(p.contract_id)))];
  const named = contractIds.length
    ? await db
        .selectFrom('company_contract as cc')
        .innerJoin('companies as co', 'co.id', 'cc.company_id')
        .select(['cc.contract_id', 'co.id', 'co.name'])
        .where('co.tenant_id', '=', tenantId)
        .where('cc.contract_id', 'in', contractIds)
        .orderBy('co.name')
        .orderBy('co.id')
        .execute()
    : [];
  const rows = periods.map((p) => ({
    id: Number(p.id),
    period_start: p.period_start,
    period_end: p.period_end,
    contract_id: Number(p.contract_id),
    contract_name: p.contract_name,
    prepaid: p.prepaid,
    companies: named
      .filter((c) => Number(c.contract_id) === Number(p.contract_id))
      .map((c) => ({ id: Number(c.id), name: c.name })),
    ...(Object.fromEntries(CONSUMPTION_MEASURES.map((m) => [m, Number(p[m] ?? 0)])) as Record<
      ConsumptionMeasure,
      number
    >),
  }));
  const total = Object.fromEntries(
    CONSUMPTION_MEASURES.map((m) => [m, rows.reduce((n, row) => n + row[m], 0)]),
  ) as Record<ConsumptionMeasure, number>;
  return { from: q.from, to: q.to, rows, total };
}
