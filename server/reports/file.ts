/**
 * A report's table as a file to compute with (issue 36, items 1 and 2): a row each and the total last,
 * under headers in the user's language. As every export of the desk (server/exports/typed-values.ts):
 * the CSV has ISO dates, plain decimals in the language and durations as h:mm; the XLSX has date,
 * number, percentage and duration cells with a format. A report is a few hundred rows at most: written
 * in memory.
 */
import type { Worksheet } from 'exceljs';
import { formatMinutes } from '../../common/format.ts';
import { csvFile } from '../csv/format.ts';
import type { ExportLocale } from '../exports/messages.ts';
import { plainNumber, sheetDate } from '../exports/typed-values.ts';

export const CSV_TYPE = 'text/csv; charset=utf-8';
export const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/**
 * What a column holds: a day, a text, a count, business minutes as a decimal (a median), a whole
 * percentage, or a duration in minutes (time logged: h:mm).
 */
export type CellKind = 'date' | 'text' | 'count' | 'minutes' | 'percent' | 'duration';
export type CellValue = string | number | null;

export interface ReportTable {
  sheet: string;
  columns: { header: string; kind: CellKind }[];
  /** The rows, the total last (in bold in the sheet). */
  rows: CellValue[][];
}

const XLSX_FORMATS: Record<CellKind, string | undefined> = {
  date: 'yyyy-mm-dd',
  text: undefined,
  count: '0',
  minutes: '0.0',
  percent: '0%',
  duration: '[h]:mm',
};

/** A value as CSV text: ISO dates as they are, numbers as plain decimals in the language. */
function csvText(value: CellValue, kind: CellKind, locale: ExportLocale): string {
  if (value === null) return '';
  if (typeof value !== 'number') return value;
  if (kind === 'minutes') return plainNumber(value, locale, 1);
  if (kind === 'duration') return formatMinutes(value);
  return String(value);
}

/** A value as a sheet's cell: dates as date cells, percentages and durations as fractions. */
function cell(value: CellValue, kind: CellKind): Date | string | number | null {
  if (value === null) return null;
  if (kind === 'date' && /^\d{4}-\d{2}-\d{2}$/.test(String(value))) {
    return sheetDate({ date: String(value), time: '00:00' });
  }
  if (typeof value !== 'number') return value;
  if (kind === 'percent') return value / 100;
  // A duration cell counts days.
  if (kind === 'duration') return value / 1440;
  return value;
}

function fill(sheet: Worksheet, { columns, rows }: ReportTable): void {
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
  table: ReportTable,
  format: 'csv' | 'xlsx',
  locale: ExportLocale,
): Promise<{ type: string; body: Buffer }> {
  if (format === 'csv') {
    const body = csvFile(
      table.columns.map((c) => c.header),
      table.rows.map((row) => row.map((v, i) => csvText(v, table.columns[i]!.kind, locale))),
    );
    return { type: CSV_TYPE, body: Buffer.from(body, 'utf8') };
  }
  // Loaded by the first file, not at start-up (server/exports/files.ts says why).
  const { default: ExcelJS } = await import('exceljs');
  const workbook = new ExcelJS.Workbook();
  fill(workbook.addWorksheet(table.sheet, { views: [{ state: 'frozen', ySplit: 1 }] }), table);
  return { type: XLSX_TYPE, body: Buffer.from(await workbook.xlsx.writeBuffer()) };
}
