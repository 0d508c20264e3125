/**
 * The client portal's service overview (issue 36, item 3): the answer of
 * GET /api/portal/service-overview (server/reports/service-overview.ts), what the portal shows
 * (src/custom/service-overview) and the monthly mail writes (server/reports/service-overview-mail.ts).
 */
import type { ContractConsumptionRow } from './time-report.ts';

/**
 * Who may read it: clients whose role holds this. Not granted to the starting client role (a provider
 * decides whether its clients see SLA figures); the demo's client role has it.
 */
export const SERVICE_OVERVIEW_PERMISSION = 'portal.reports.index';

/** The user config of a client's opt-in to the monthly mail (JSON `true`; anything else: not). */
export const SERVICE_OVERVIEW_MAIL_CONFIG = 'service_overview_mail';

/** A month's figures (or the total's): counts from the daily figures, times in business minutes. */
export interface OverviewFigures {
  opened: number;
  solved: number;
  /** Median business minutes to the first answer / to the solving, to a tenth; null: none measured. */
  response_median: number | null;
  resolution_median: number | null;
  /**
   * Tickets whose target ended met or breached (the SLA outcomes); null, all four, when the desk shows
   * clients no SLA promise (the tenant setting portal_show_sla).
   */
  response_met: number | null;
  response_breached: number | null;
  resolution_met: number | null;
  resolution_breached: number | null;
}

/** A promised target per priority of an SLA that governed tickets of the range (no SLA names). */
export interface OverviewTarget {
  priority_id: number | null;
  /** The priority's name in the request's language; null: tickets without a priority. */
  priority: string | null;
  /** Business minutes; null: no such target. */
  response_time: number | null;
  resolution_time: number | null;
}

export interface ServiceOverview {
  /** The caller's companies, by name, and the one the figures are about (null: all of them). */
  companies: { id: number; name: string }[];
  company_id: number | null;
  /** The months' days: the last 12 months to this one's end, or a calendar year. */
  from: string;
  to: string;
  /** Each month: its first day. */
  months: ({ month: string } & OverviewFigures)[];
  total: OverviewFigures;
  /** The SLA targets that applied, per priority; null when the desk shows clients no SLA promise. */
  targets: OverviewTarget[] | null;
  /** Current contract periods and prepaid cards of the companies: hours used and remaining now. */
  contracts: Pick<
    ContractConsumptionRow,
    | 'id'
    | 'contract_id'
    | 'contract_name'
    | 'prepaid'
    | 'period_start'
    | 'period_end'
    | 'minutes_total'
    | 'registered_time'
    | 'minutes_remaining'
  >[];
}
