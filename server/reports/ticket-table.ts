/**
 * The ticket report as a table for its files (./file.ts): per period (./figures.ts) or per key
 * (./breakdown.ts), the figures in the page's order under the page's column names in the user's
 * language (common/report-columns), the met and breached counts beside their share, times in business
 * minutes.
 */
import {
  metPercent,
  type ReportAnswer,
  type ReportBreakdown,
  type ReportFigures,
} from '../../common/reports.ts';
import { headerOf } from '../exports/columns.ts';
import type { ExportLocale } from '../exports/messages.ts';
import { registry } from '../schema/registry.ts';
import { reportColumns, reportTable, type ReportColumn } from './columns.ts';
import type { CellKind, CellValue, ReportTable } from './file.ts';

/** The figures' columns, in the page's order, each with what it holds. */
const FIGURES: [key: ReportColumn, kind: CellKind, value: (f: ReportFigures) => CellValue][] = [
  ['created', 'count', (f) => f.created],
  ['solved', 'count', (f) => f.solved],
  ['reopened', 'count', (f) => f.reopened],
  ['backlog', 'count', (f) => f.backlog],
  ['responded', 'count', (f) => f.responded],
  ['response_median', 'minutes', (f) => f.response_median],
  ['response_p90', 'minutes', (f) => f.response_p90],
  ['response_met_count', 'count', (f) => f.response_met],
  ['response_breached', 'count', (f) => f.response_breached],
  ['response_met', 'percent', (f) => metPercent(f.response_met, f.response_breached)],
  ['resolution_median', 'minutes', (f) => f.resolution_median],
  ['resolution_p90', 'minutes', (f) => f.resolution_p90],
  ['resolution_met_count', 'count', (f) => f.resolution_met],
  ['resolution_breached', 'count', (f) => f.resolution_breached],
  ['resolution_met', 'percent', (f) => metPercent(f.resolution_met, f.resolution_breached)],
];

export function ticketTable(report: ReportAnswer | ReportBreakdown, locale: ExportLocale): ReportTable {
  const names = reportColumns(locale);
  const figureColumns = FIGURES.map(([key, kind]) => {
    const unit = kind === 'minutes' ? ` (${names.minutes})` : kind === 'percent' ? ' (%)' : '';
    return { header: names[key] + unit, kind };
  });
  const figures = (f: ReportFigures) => FIGURES.map(([, , value]) => value(f));
  const keyHeader =
    'by' in report
      ? headerOf(registry().get('tickets')!, { name: report.by, label: report.by }, locale)
      : null;
  return reportTable<ReportFigures>(report, locale, keyHeader, figureColumns, figures);
}
