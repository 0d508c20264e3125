/** The reports' column names in a language (common/report-columns: the page's and the files' words). */
import en from '../../common/report-columns/en.ts';
import nl from '../../common/report-columns/nl.ts';
import de from '../../common/report-columns/de.ts';
import type { ExportLocale } from '../exports/messages.ts';
import type { CellValue, ReportTable } from './file.ts';

export type ReportColumn = keyof typeof en;

const COLUMN_NAMES: Record<ExportLocale, typeof en> = { en, nl, de };

export const reportColumns = (locale: ExportLocale) => COLUMN_NAMES[locale];

/**
 * A report as the table of its files: per period (its first and last day) or per key (the row's name
 * under `keyHeader`), the figures' columns after them, and the total last.
 */
export function reportTable<F>(
  report: { rows: (F & { from?: string; to?: string; name?: string | null })[]; total: F },
  locale: ExportLocale,
  keyHeader: string | null,
  figureColumns: ReportTable['columns'],
  figures: (f: F) => CellValue[],
): ReportTable {
  const names = reportColumns(locale);
  if (keyHeader !== null)
    return {
      sheet: names.sheet,
      columns: [{ header: keyHeader, kind: 'text' }, ...figureColumns],
      rows: [
        ...report.rows.map((r) => [r.name ?? names.none, ...figures(r)]),
        [names.total, ...figures(report.total)],
      ],
    };
  return {
    sheet: names.sheet,
    columns: [
      { header: names.period, kind: 'date' },
      { header: names.period_end, kind: 'date' },
      ...figureColumns,
    ],
    rows: [
      ...report.rows.map((r) => [r.from ?? null, r.to ?? null, ...figures(r)]),
      [names.total, null, ...figures(report.total)],
    ],
  };
}
