/**
 * The time report as a table for its files (./file.ts): per period or per key (./time.ts), the time
 * as durations (h:mm) under the page's column names in the user's language (common/report-columns).
 */
import type { TimeBreakdown, TimeFigures, TimeReportAnswer } from '../../common/time-report.ts';
import type { ExportLocale } from '../exports/messages.ts';
import { reportColumns, type ReportColumn } from './columns.ts';
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
  if ('by' in report) {
    return {
      sheet: names.sheet,
      columns: [{ header: names[`time_${report.by}`], kind: 'text' }, ...figureColumns],
      rows: [
        ...report.rows.map((r) => [r.name ?? names.none, ...figures(r)]),
        [names.total, ...figures(report.total)],
      ],
    };
  }
  return {
    sheet: names.sheet,
    columns: [
      { header: names.period, kind: 'date' },
      { header: names.period_end, kind: 'date' },
      ...figureColumns,
    ],
    rows: [
      ...report.rows.map((r) => [r.from, r.to, ...figures(r)]),
      [names.total, null, ...figures(report.total)],
    ],
  };
}
