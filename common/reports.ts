/**
 * The service report's answer (GET /api/reports/tickets, issue 36): what the server computes
 * (server/reports/figures.ts) and the back office shows (src/custom/reports), in one place.
 */

/** Who may read the reports: operators with this permission (second line by default). */
export const REPORTS_PERMISSION = 'tenant.reports.index';

/** What a day holds per grouping keys (migrations 0035 and 0036 say which day each counts on). */
export const REPORT_MEASURES = [
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
  'reopened',
] as const;
export type ReportMeasure = (typeof REPORT_MEASURES)[number];

/** A report's periods: a day, an ISO week (from its Monday) or a month. */
export const REPORT_GROUPS = ['day', 'week', 'month'] as const;
export type ReportGroup = (typeof REPORT_GROUPS)[number];

/**
 * The keys of the daily figures (migration 0035): what a report can be broken down by, each a ticket's
 * current company, operator, group, priority, type, category and applied SLA.
 */
export const REPORT_KEYS = [
  'company_id',
  'operator_id',
  'ticket_group_id',
  'priority_id',
  'ticket_type_id',
  'category_id',
  'applied_sla_id',
] as const;
export type ReportKey = (typeof REPORT_KEYS)[number];

/**
 * The filters a report takes: each a list of ids (any of them), as the ticket list's `whereIn`. The
 * keys, and the client who asked (no key of the daily figures: server/reports/selection.ts).
 */
export const REPORT_FILTERS = [...REPORT_KEYS, 'client_id'] as const;
export type ReportFilter = (typeof REPORT_FILTERS)[number];

export type ReportFigures = Record<ReportMeasure, number> & {
  /** Tickets open at the end of the period; null for a period that has not begun. */
  backlog: number | null;
  /** Business minutes, to a tenth; null without a ticket to measure. */
  response_median: number | null;
  response_p90: number | null;
  resolution_median: number | null;
  resolution_p90: number | null;
};

export interface ReportAnswer {
  from: string;
  to: string;
  group: ReportGroup;
  /** Each period: its first day (`period`) and the days of it in the report (`from`, `to`). */
  rows: ({ period: string; from: string; to: string } & ReportFigures)[];
  total: ReportFigures;
}

/** The share of a target met, in whole percents; null when no ticket had the target. */
export function metPercent(met: number, breached: number): number | null {
  return met + breached === 0 ? null : Math.round((100 * met) / (met + breached));
}

/** The same figures per value of a key over the whole period (GET /api/reports/tickets?by=…). */
export interface ReportBreakdown {
  from: string;
  to: string;
  by: ReportKey;
  /** Each value of the key with a figure, by name; `key` null: the tickets without one. */
  rows: ({ key: number | null; name: string | null } & ReportFigures)[];
  total: ReportFigures;
}

/** A breached SLA target a report counts (GET /api/reports/tickets/breaches). */
export interface ReportBreach {
  ticket_id: number;
  reference: string | null;
  company: string | null;
  operator: string | null;
  target: 'first_response' | 'resolution';
  /** When the target was due, and when it ended (answered or solved): ISO moments. */
  due: string | null;
  ended: string;
}

export interface ReportBreaches {
  /** How many there are in all: the report's response_breached plus resolution_breached. */
  total: number;
  /** The latest first, at most the limit asked for. */
  rows: ReportBreach[];
}
