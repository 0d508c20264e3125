/**
 * The balance of contracts (issue 39, item 2): each running contract's current period (its latest, the
 * one time registrations count against on the contract and a prepaid card's purchase tops up: see
 * server/resources/time-registrations/hooks.ts and server/resources/contracts/actions.ts) with the
 * period's own figures, the same the contract page and GET /api/reports/contracts (./contracts.ts) show:
 * `minutes_total`, `registered_time` (used) and `minutes_remaining`. Read by the alert job and by the
 * ticket detail's balance.
 */
import { DateTime } from 'luxon';
import { balanceLevel, type PeriodBalance } from '../../common/balance.ts';
import { DEFAULT_TIME_ZONE } from '../../common/sla/calendar.ts';
import type { Db } from '../db/database.ts';

export interface BalanceQuery {
  /** One tenant's contracts; all tenants' (the alert job) when absent. */
  tenantId?: number;
  /** These contracts only. */
  contractIds?: number[];
  /** Contracts after this id (the job reads in batches), at most `limit`. */
  after?: number;
  limit?: number;
}

export interface TenantBalance extends PeriodBalance {
  tenant_id: number;
}

/** Today in the desk's zone: a contract that ended yesterday there no longer runs. */
export function deskToday(now = Date.now()): string {
  return DateTime.fromMillis(now, { zone: DEFAULT_TIME_ZONE }).toISODate()!;
}

/** The current period of each running contract that `q` names, by contract id. */
export async function currentBalances(db: Db, q: BalanceQuery, now = Date.now()): Promise<TenantBalance[]> {
  if (q.contractIds && q.contractIds.length === 0) return [];
  const today = deskToday(now);
  const rows = await db
    .selectFrom('contract_periods as p')
    .innerJoin('contracts as c', (join) =>
      join.onRef('c.id', '=', 'p.contract_id').onRef('c.tenant_id', '=', 'p.tenant_id'),
    )
    .distinctOn('c.id')
    .select([
      'c.tenant_id',
      'c.id as contract_id',
      'c.name as contract_name',
      'c.period',
      'c.balance_threshold',
      'p.id as period_id',
      'p.period_start',
      'p.period_end',
      'p.minutes_total',
      'p.registered_time',
      'p.minutes_remaining',
    ])
    .$if(q.tenantId !== undefined, (s) => s.where('c.tenant_id', '=', q.tenantId!))
    .$if(q.contractIds !== undefined, (s) => s.where('c.id', 'in', q.contractIds!))
    .$if(q.after !== undefined, (s) => s.where('c.id', '>', q.after!))
    .where('c.start_date', '<=', today)
    .where((eb) => eb.or([eb('c.end_date', 'is', null), eb('c.end_date', '>=', today)]))
    .orderBy('c.id')
    .orderBy('p.period_start', 'desc')
    .orderBy('p.id', 'desc')
    .$if(q.limit !== undefined, (s) => s.limit(q.limit!))
    .execute();
  return rows.map((r) => {
    const total = Number(r.minutes_total);
    const remaining = Number(r.minutes_remaining);
    const threshold = Number(r.balance_threshold);
    return {
      tenant_id: Number(r.tenant_id),
      contract_id: Number(r.contract_id),
      contract_name: r.contract_name,
      prepaid: r.period === 'none',
      balance_threshold: threshold,
      period_id: Number(r.period_id),
      period_start: r.period_start,
      period_end: r.period_end,
      minutes_total: total,
      registered_time: Number(r.registered_time),
      minutes_remaining: remaining,
      level: balanceLevel(total, remaining, threshold),
    };
  });
}
