/**
 * A service report as a file to compute with (issue 36, items 1 and 2): the figures of a report per
 * period (./figures.ts) or per key (./breakdown.ts), a row each and the total last, under headers in the
 * user's language (common/report-columns). As every export of the desk (server/exports/typed-values.ts):
 * the CSV has ISO dates and plain decimals in the language, the XLSX date, number and percentage cells
 * with a format. Times are business minutes. A report is a few hundred rows at most: written in memory.
 */
import type { Worksheet } from 'exceljs';
import {
  metPercent,
  type ReportAnswer,
  type ReportBreakdown,
  type ReportFigures,
} from '../../common/reports.ts';
import en from '../../common/report-columns/en.ts';
import nl from '../../common/report-columns/nl.ts';
import de from '../../common/report-columns/de.ts';
import { csvFile } from '../csv/format.ts';
import { headerOf } from '../exports/columns.ts';
import type { ExportLocale } from '../exports/messages.ts';
import { plainNumber, sheetDate } from '../exports/typed-values.ts';
import { registry } from '../schema/registry.ts';

export const CSV_TYPE = 'text/csv; charset=utf-8';
export const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

const COLUMN_NAMES: Record<ExportLocale, typeof en> = { en, nl, de };

type Kind = 'date' | 'text' | 'count' | 'minutes' | 'percent';
type Value = string | number | null;
interface Column {
  header: string;
  kind: Kind;
}

const XLSX_FORMATS: Record<Kind, string | undefined> = {
  date: 'yyyy-mm-dd',
  text: undefined,
  count: '0',
  minutes: '0.0',
  percent: '0%',
};

/** The figures' columns, in the page's order, each with what it holds. */
const FIGURES: [key: keyof typeof en, kind: Kind, value: (f: ReportFigures) => Value][] = [
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

/** The table of a report: its columns and its rows (the total last). */
function table(
  report: ReportAnswer | ReportBreakdown,
  locale: ExportLocale,
): { columns: Column[]; rows: Value[][] } {
  const names = COLUMN_NAMES[locale];
  const figureColumns = FIGURES.map(([key, kind]): Column => {
    const unit = kind === 'minutes' ? ` (${names.minutes})` : kind === 'percent' ? ' (%)' : '';
    return { header: names[key] + unit, kind };
  });
  const figures = (f: ReportFigures) => FIGURES.map(([, , value]) => value(f));
  if ('by' in report) {
    const tickets = registry().get('tickets')!;
    const keyHeader = headerOf(tickets, { name: report.by, label: report.by }, locale);
    return {
      columns: [{ header: keyHeader, kind: 'text' }, ...figureColumns],
      rows: [
        ...report.rows.map((r) => [r.name ?? names.none, ...figures(r)]),
        [names.total, ...figures(report.total)],
      ],
    };
  }
  return {
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

/** A value as CSV text: ISO dates as they are, numbers as plain decimals in the language. */
function csvText(value: Value, kind: Kind, locale: ExportLocale): string {
  if (value === null) return '';
  if (typeof value === 'number') return kind === 'minutes' ? plainNumber(value, locale, 1) : String(value);
  return value;
}

/** A value as a sheet's cell: dates as date cells, percentages as fractions (a `0%` cell). */
function cell(value: Value, kind: Kind): Date | string | number | null {
  if (value === null) return null;
  if (kind === 'date' && /^\d{4}-\d{2}-\d{2}$/.test(String(value))) {
    return sheetDate({ date: String(value), time: '00:00' });
  }
  if (kind === 'percent' && typeof value === 'number') return value / 100;
  return value;
}

function fill(sheet: Worksheet, columns: Column[], rows: Value[][]): void {
  sheet.columns = columns.map((c, i) => ({
    header: c.header,
    key: String(i),
    width: Math.min(40, Math.max(10, c.header.length + 2)),
    style: XLSX_FORMATS[c.kind] ? { numFmt: XLSX_FORMATS[c.kind] } : {},
  }));
  sheet.getRow(1).font = { bold: true };
  for (const row of rows) sheet.addRow(row.map((v, i) => cell(v, columns[i]!.kind)));
  sheet.getRow(rows.length + 1).font = { bold: true };
}

export async function reportFile(
  report: ReportAnswer | ReportBreakdown,
  format: 'csv' | 'xlsx',
  locale: ExportLocale,
): Promise<{ type: string; name: string; body: Buffer }> {
  const { columns, rows } = table(report, locale);
  const name = `report-${'by' in report ? `${report.by}-` : ''}${report.from}-${report.to}.${format}`;
  if (format === 'csv') {
    const body = csvFile(
      columns.map((c) => c.header),
      rows.map((row) => row.map((v, i) => csvText(v, columns[i]!.kind, locale))),
    );
    return { type: CSV_TYPE, name, body: Buffer.from(body, 'utf8') };
  }
  // Loaded by the first export, not at start-up (server/exports/files.ts says why).
  const { default: ExcelJS } = await import('exceljs');
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet(COLUMN_NAMES[locale].sheet, {
    views: [{ state: 'frozen', ySplit: 1 }],
  });
  fill(sheet, columns, rows);
  return { type: XLSX_TYPE, name, body: Buffer.from(await workbook.xlsx.writeBuffer()) };
}
