/**
 * The time report as a table for its files (./file.ts): per period or per key (./time.ts), the time
 * as durations (h:mm) under the page's column names in the user's language (common/report-columns).
 */
import type { TimeBreakdown, TimeFigures, TimeReportAnswer } from '../../common/time-report.ts';
import type { ExportLocale } from '../exports/messages.ts';
import { reportColumns, reportTable, type ReportColumn } from './columns.ts';
import type { CellKind, CellValue, ReportTable } from './file.ts';

const FIGURES: [key: ReportColumn, kind: CellKind, value: (f: TimeFigures) => CellValue][] = [
  ['time_minutes', 'duration', (f) => f.minutes],
  ['time_rounded', 'duration', (f) => f.rounded_minutes],
  ['time_billable', 'duration', (f) => f.billable_minutes],
  ['time_non_billable', 'duration', (f) => f.non_billable_minutes],
  ['time_contract', 'duration', (f) => f.contract_minutes],
  ['time_registrations', 'count', (f) => f.registrations],
];

export function timeTable(report: TimeReportAnswer | TimeBreakdown, locale: ExportLocale): ReportTable {
  const names = reportColumns(locale);
  const figureColumns = FIGURES.map(([key, kind]) => ({ header: names[key], kind }));
  const figures = (f: TimeFigures) => FIGURES.map(([, , value]) => value(f));
  const keyHeader = 'by' in report ? names[`time_${report.by}`] : null;
  return reportTable<TimeFigures>(report, locale, keyHeader, figureColumns, figures);
}
