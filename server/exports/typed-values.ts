/**
 * Values in an export written so that a spreadsheet can compute with them (issue 36, item 2): dates as
 * ISO text in the CSV and as date cells in the XLSX, numbers as plain decimals with the language's
 * separator (no thousands separator, no currency sign) and as number cells, durations as hours and
 * minutes (a duration cell in the XLSX). Moments are the desk's wall clock (Dutch time, as the PDFs); a
 * stored text without a zone keeps its own time.
 */
import { DateTime } from 'luxon';
import { DEFAULT_TIME_ZONE } from '../../common/sla/calendar.ts';
import type { ExportLocale } from './messages.ts';

/** A date and time of day as a wall clock: 'YYYY-MM-DD' and 'HH:MM'. */
export interface WallClock {
  date: string;
  time: string;
}

const DATE_ONLY = /^(\d{4}-\d{2}-\d{2})$/;
const NAIVE = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2})(?::\d{2}(?:\.\d+)?)?$/;

/** The wall clock of a stored date or moment; null when it is none. */
export function wallClock(value: unknown): WallClock | null {
  if (value === null || value === undefined || value === '') return null;
  if (typeof value === 'string') {
    const day = DATE_ONLY.exec(value);
    if (day) return valid(day[1]!, '00:00');
    const naive = NAIVE.exec(value);
    if (naive) return valid(naive[1]!, naive[2]!);
  }
  const moment =
    value instanceof Date
      ? DateTime.fromJSDate(value, { zone: DEFAULT_TIME_ZONE })
      : DateTime.fromISO(String(value), { zone: DEFAULT_TIME_ZONE });
  if (!moment.isValid) return null;
  return { date: moment.toFormat('yyyy-MM-dd'), time: moment.toFormat('HH:mm') };
}

/** A text date whose day and time exist (no 31 February, no 25:00); null otherwise. */
function valid(date: string, time: string): WallClock | null {
  const checked = DateTime.fromISO(`${date}T${time}`, { zone: 'UTC' });
  return checked.isValid ? { date, time } : null;
}

/**
 * The wall clock as a spreadsheet's date cell: a Date whose UTC fields are the wall clock's (a sheet
 * has no zones, and ExcelJS writes a Date's UTC time).
 */
export function sheetDate(clock: WallClock): Date {
  return new Date(`${clock.date}T${clock.time}:00Z`);
}

/** A number as plain decimal text in the language: '1234,5' in Dutch and German, '1234.5' in English. */
export function plainNumber(value: number, locale: ExportLocale, decimals?: number): string {
  const text = decimals === undefined ? String(Math.round(value * 100) / 100) : value.toFixed(decimals);
  return locale === 'en' ? text : text.replace('.', ',');
}

/** The number in a stored value ('12.50' from numeric columns), or null. */
export function numberOf(value: unknown): number | null {
  if (value === null || value === undefined || value === '') return null;
  const n = Number(value);
  return Number.isFinite(n) ? n : null;
}

/** The XLSX number format of each kind of column that has one. */
export const SHEET_FORMATS: Partial<Record<string, string>> = {
  money: '#,##0.00',
  quantity: '0.##',
  integer: '0',
  date: 'yyyy-mm-dd',
  datetime: 'yyyy-mm-dd hh:mm',
  // A duration in days (minutes / 1440), shown as hours and minutes past 24.
  minutes: '[h]:mm',
};
