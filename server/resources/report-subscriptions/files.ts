/**
 * A scheduled report's attachments: the files the reports page's downloads give for that period and
 * those settings (GET /api/reports/tickets/export, /api/reports/time/export), per period and per the
 * breakdown key, as XLSX under the same names, written to the file store in the caller's transaction
 * (a store in the database rolls back with it).
 */
import type { DbTransaction } from '../../db/database.ts';
import type { FileStore } from '../../files/store.ts';
import type { OutboxAttachment } from '../../mail/enqueue.ts';
import type { ExportLocale } from '../../exports/messages.ts';
import { reportFigures } from '../../reports/figures.ts';
import type { ReportQuery } from '../../reports/selection.ts';
import { reportBreakdown } from '../../reports/breakdown.ts';
import { ticketTable } from '../../reports/ticket-table.ts';
import { timeBreakdown, timeFigures, type TimeQuery } from '../../reports/time.ts';
import { timeTable } from '../../reports/time-table.ts';
import { reportFile, XLSX_TYPE, type ReportTable } from '../../reports/file.ts';
import type { ReportKey } from '../../../common/reports.ts';
import type { TimeKey } from '../../../common/time-report.ts';
import type { SubscribedReport, SubscriptionSettings } from '../../../common/report-subscriptions.ts';

/** The tables of a report over a period: per period, and per the breakdown key; each with its file name. */
async function reportTables(
  trx: DbTransaction,
  tenantId: number,
  report: SubscribedReport,
  settings: SubscriptionSettings,
  period: { from: string; to: string },
  locale: ExportLocale,
): Promise<[name: string, table: ReportTable][]> {
  const { from, to } = period;
  const base = { from, to, group: settings.group, line: settings.line };
  if (report === 'tickets') {
    const query: ReportQuery = { ...base, filters: settings.filters as ReportQuery['filters'] };
    const by = settings.by as ReportKey;
    return [
      [`report-${from}-${to}`, ticketTable(await reportFigures(trx, tenantId, query), locale)],
      [`report-${by}-${from}-${to}`, ticketTable(await reportBreakdown(trx, tenantId, query, by), locale)],
    ];
  }
  const query: TimeQuery = { ...base, filters: settings.filters as TimeQuery['filters'] };
  const by = settings.by as TimeKey;
  return [
    [`time-${from}-${to}`, timeTable(await timeFigures(trx, tenantId, query), locale)],
    [`time-${by}-${from}-${to}`, timeTable(await timeBreakdown(trx, tenantId, query, by), locale)],
  ];
}

export async function reportAttachments(
  trx: DbTransaction,
  store: FileStore,
  tenantId: number,
  report: SubscribedReport,
  settings: SubscriptionSettings,
  period: { from: string; to: string },
  locale: ExportLocale,
): Promise<OutboxAttachment[]> {
  const out: OutboxAttachment[] = [];
  for (const [name, table] of await reportTables(trx, tenantId, report, settings, period, locale)) {
    const file = await reportFile(table, 'xlsx', locale);
    const { key } = await store.put(file.body, trx);
    out.push({ filename: `${name}.xlsx`, contentType: XLSX_TYPE, key });
  }
  return out;
}
