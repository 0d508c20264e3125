/**
 * Scheduled reports (issue 36, item 4): an operator's standing order for a report of the reports page
 * by mail, what the server keeps and sends (server/resources/report-subscriptions) and the page shows
 * (src/custom/reports), in one place.
 */
import { REPORT_FILTERS, REPORT_KEYS, type ReportGroup } from './reports.ts';
import { TIME_KEYS, type TimeKey } from './time-report.ts';

/** The page's two reports, as its tabs name them. */
export const SUBSCRIBED_REPORTS = ['tickets', 'time'] as const;
export type SubscribedReport = (typeof SUBSCRIBED_REPORTS)[number];

/** Weekly: the previous week (Monday to Sunday), on Monday; monthly: the previous month, on the 1st. */
export const FREQUENCIES = ['weekly', 'monthly'] as const;
export type Frequency = (typeof FREQUENCIES)[number];

/** The report's files attached (XLSX), or a link to the page with the report. */
export const DELIVERIES = ['xlsx', 'link'] as const;
export type Delivery = (typeof DELIVERIES)[number];

/**
 * The filters each report keeps: the page's own (the ticket report takes them all, the time report the
 * company and the operator, src/custom/reports/ReportsPage.tsx), so its link shows what its mail holds.
 */
export const SUBSCRIPTION_FILTERS: Record<SubscribedReport, readonly string[]> = {
  tickets: REPORT_FILTERS,
  time: ['company_id', 'operator_id'] satisfies TimeKey[],
};

/** The breakdown keys each report takes (common/reports.ts, common/time-report.ts). */
export const SUBSCRIPTION_BY: Record<SubscribedReport, readonly string[]> = {
  tickets: REPORT_KEYS,
  time: TIME_KEYS,
};

/** What a subscription keeps of the page: the report's settings, never its dates. */
export interface SubscriptionSettings {
  group: ReportGroup;
  /** The operators' line; absent: all. */
  line?: 1 | 2;
  /** Any of these ids per key; `none`: the rows without one. */
  filters: Record<string, (number | 'none')[]>;
  /** The breakdown's key. */
  by: string;
}

/** A subscription as the API answers it: its settings beside what it is (flat, as it is sent). */
export interface ReportSubscription extends SubscriptionSettings {
  id: number;
  report: SubscribedReport;
  frequency: Frequency;
  delivery: Delivery;
  paused: boolean;
  created_at: string;
}

/** The most subscriptions one operator holds. */
export const MAX_SUBSCRIPTIONS = 50;

/**
 * The reports page's address (src/custom/reports/settings.ts reads it) for a subscription's report over
 * a period: the tab, a custom period of those days, and the kept settings; the page's filters are its
 * header controls' state, where `none` is null.
 */
export function reportPageQuery(
  report: SubscribedReport,
  settings: SubscriptionSettings,
  period: { from: string; to: string },
): string {
  const out = new URLSearchParams({
    tab: report,
    period: 'custom',
    from: period.from,
    to: period.to,
    group: settings.group,
    line: settings.line ? String(settings.line) : 'all',
  });
  out.set(report === 'time' ? 'time_by' : 'by', settings.by);
  const filters = Object.fromEntries(
    Object.entries(settings.filters)
      .filter(([, ids]) => ids.length > 0)
      .map(([key, ids]) => [key, ids.map((id) => (id === 'none' ? null : id))]),
  );
  if (Object.keys(filters).length) out.set('filter', JSON.stringify(filters));
  return out.toString();
}
