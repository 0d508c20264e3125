/**
 * The client portal's service overview (issue 36, item 3): for a client's companies, per month, the
 * tickets opened and solved, the median first response and resolution in business time with the SLA
 * outcomes, the SLA targets that applied per priority, and the hours used and remaining of their current
 * contract periods and prepaid cards. The page (GET /api/portal/service-overview) and the monthly mail
 * both read it here.
 *
 * Nothing of it is computed anew: the months are the service report's (./figures.ts, the daily figures
 * and the tickets' own minutes, filtered on the companies), the contracts the contract report's
 * (./contracts.ts). The targets are read from the same daily figures: which SLA and priority the
 * companies' tickets of the range had, with that SLA's target for the priority (its sla_targets row,
 * else the SLA's own times, as server/sla/policy.ts reads them).
 */
import { sql } from 'kysely';
import { DateTime } from 'luxon';
import { DEFAULT_TIME_ZONE } from '../../common/sla/calendar.ts';
import type { OverviewFigures, OverviewTarget, ServiceOverview } from '../../common/service-overview.ts';
import type { ReportFigures } from '../../common/reports.ts';
import type { Db } from '../db/database.ts';
import { PORTAL_SHOW_SLA, tenantFlag } from '../settings/tenant-config.ts';
import { reportFigures } from './figures.ts';
import { contractConsumption } from './contracts.ts';

export type OverviewLocale = 'nl' | 'en' | 'de';

export interface OverviewQuery {
  /** The companies the figures are about (the caller's, checked by the caller). */
  companyIds: number[];
  /** First and last day in the desk's zone, whole months. */
  from: string;
  to: string;
  /** The day the contracts' current periods are those of (today, or the mail's month's last day). */
  contractsOn: string;
  locale: OverviewLocale;
}

/** The last 12 months up to the end of `today`'s, or calendar year `year`, in the desk's zone. */
export function overviewRange(today: string, year?: number): { from: string; to: string } {
  if (year !== undefined) return { from: `${year}-01-01`, to: `${year}-12-31` };
  const month = DateTime.fromISO(today, { zone: DEFAULT_TIME_ZONE }).startOf('month');
  return {
    from: month.minus({ months: 11 }).toISODate()!,
    to: month.endOf('month').toISODate()!,
  };
}

function figuresOf(r: ReportFigures, sla: boolean): OverviewFigures {
  const outcome = (n: number) => (sla ? n : null);
  return {
    opened: r.created,
    solved: r.solved,
    response_median: r.response_median,
    resolution_median: r.resolution_median,
    response_met: outcome(r.response_met),
    response_breached: outcome(r.response_breached),
    resolution_met: outcome(r.resolution_met),
    resolution_breached: outcome(r.resolution_breached),
  };
}

/** The targets per priority of each SLA that governed the companies' tickets in the range. */
async function targetsOf(db: Db, tenantId: number, q: OverviewQuery): Promise<OverviewTarget[]> {
  const label = { nl: 'p.label', en: 'p.label_en', de: 'p.label_de' } as const;
  const rows = await db
    .selectFrom(
      db
        .selectFrom('ticket_report_days')
        .select(['applied_sla_id', 'priority_id'])
        .distinct()
        .where('tenant_id', '=', tenantId)
        .where('company_id', 'in', q.companyIds)
        .where('day', '>=', q.from)
        .where('day', '<=', q.to)
        .where('applied_sla_id', 'is not', null)
        // A day row left at zero (a ticket moved to another SLA or priority) governed nothing.
        .where(sql<boolean>`created + responded + solved > 0`)
        .as('d'),
    )
    .innerJoin('slas as s', (join) =>
      join.onRef('s.id', '=', 'd.applied_sla_id').on('s.tenant_id', '=', tenantId),
    )
    .leftJoin('sla_targets as t', (join) =>
      join.onRef('t.sla_id', '=', 's.id').onRef('t.priority_id', '=', 'd.priority_id'),
    )
    .leftJoin('priorities as p', (join) =>
      join.onRef('p.id', '=', 'd.priority_id').on('p.tenant_id', '=', tenantId),
    )
    .select([
      'd.priority_id',
      sql<string | null>`coalesce(${sql.ref(label[q.locale])}, p.label)`.as('priority'),
      sql<number | null>`case when t.id is null then s.response_time else t.response_time end`.as(
        'response_time',
      ),
      sql<number | null>`case when t.id is null then s.resolution_time else t.resolution_time end`.as(
        'resolution_time',
      ),
      sql<number | null>`p."order"`.as('order'),
    ])
    .execute();
  // One line per priority and promise: two SLAs promising the same for a priority say it once.
  const seen = new Set<string>();
  return rows
    .map((r) => ({
      priority_id: r.priority_id === null ? null : Number(r.priority_id),
      priority: r.priority,
      response_time: r.response_time === null ? null : Number(r.response_time),
      resolution_time: r.resolution_time === null ? null : Number(r.resolution_time),
      order: r.order === null ? Number.POSITIVE_INFINITY : Number(r.order),
    }))
    .sort(
      (a, b) =>
        a.order - b.order ||
        (a.priority_id ?? 0) - (b.priority_id ?? 0) ||
        (a.response_time ?? -1) - (b.response_time ?? -1) ||
        (a.resolution_time ?? -1) - (b.resolution_time ?? -1),
    )
    .filter((t) => {
      const key = `${t.priority_id}:${t.response_time}:${t.resolution_time}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    })
    .map(({ order: _order, ...t }) => t);
}

/** The overview of `q.companyIds` (at least one), as the page and the mail show it. */
export async function serviceOverview(
  db: Db,
  tenantId: number,
  q: OverviewQuery,
): Promise<Omit<ServiceOverview, 'companies' | 'company_id'>> {
  const [report, sla, contracts] = await Promise.all([
    reportFigures(db, tenantId, {
      from: q.from,
      to: q.to,
      group: 'month',
      filters: { company_id: q.companyIds },
    }),
    tenantFlag(db, tenantId, PORTAL_SHOW_SLA, true),
    contractConsumption(db, tenantId, {
      from: q.contractsOn,
      to: q.contractsOn,
      filters: { company_id: q.companyIds },
    }),
  ]);
  return {
    from: q.from,
    to: q.to,
    months: report.rows.map((r) => ({ month: r.period, ...figuresOf(r, sla) })),
    total: figuresOf(report.total, sla),
    targets: sla ? await targetsOf(db, tenantId, q) : null,
    // The periods running on the day; a period only booked on that day (late time) is not current.
    contracts: contracts.rows
      .filter(
        (r) =>
          r.prepaid || (r.period_start <= q.contractsOn && (r.period_end ?? q.contractsOn) >= q.contractsOn),
      )
      .map((r) => ({
        id: r.id,
        contract_id: r.contract_id,
        contract_name: r.contract_name,
        prepaid: r.prepaid,
        period_start: r.period_start,
        period_end: r.period_end,
        minutes_total: r.minutes_total,
        registered_time: r.registered_time,
        minutes_remaining: r.minutes_remaining,
      })),
  };
}
