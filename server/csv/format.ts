/**
 * The one CSV convention of every file the desk writes (list exports, the invoices' CSV): UTF-8 with a
 * byte order mark, `;` between fields, CRLF line ends, fields quoted as RFC 4180 says when they hold the
 * separator, a quote or a line end. That is what Excel with Dutch or German regional settings opens as
 * columns on a double click: there the list separator is `;`, since `,` is the decimal sign, and without
 * the byte order mark it reads the file as ANSI (mojibake for é, ü, €). The separator does not follow
 * the app's language: the spreadsheet reads with the computer's regional settings, which an operator who
 * uses the app in English at a Dutch provider still has (docs/decisions.md, 2026-12-01).
 *
 * A cell that starts like a formula is defused (see `defuse`), since the texts are typed by people.
 */
import type { Language } from '../../common/schema/types.ts';

export const CSV_SEPARATOR = ';';
export const CSV_BOM = '\uFEFF';
export const CSV_LINE_END = '\r\n';

/**
 * A cell that starts like a formula (= + - @, a tab or carriage return) gets a leading apostrophe, so a
 * spreadsheet shows it as text instead of running it (CSV injection); plain numbers and times such as
 * '-01:30' stay as they are.
 */
export function defuse(value: string): string {
  if (/^[=+\-@\t\r]/.test(value) && !/^-?[\d.,:]+$/.test(value)) return `'${value}`;
  return value;
}

/** One field: defused, and quoted when it holds the separator, a quote or a line end. */
export function csvField(value: string): string {
  const safe = defuse(value);
  return /[";\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** One line of fields, with its line end. */
export function csvLine(values: string[]): string {
  return values.map(csvField).join(CSV_SEPARATOR) + CSV_LINE_END;
}

/** A whole (small) file: the byte order mark, the header line and a line per row. */
export function csvFile(header: string[], rows: string[][]): string {
  return CSV_BOM + csvLine(header) + rows.map(csvLine).join('');
}

/**
 * A number as a spreadsheet with the language's regional settings reads it: no thousands separator and
 * the decimal sign of the language (`121,50` in Dutch and German, `121.50` in English), `decimals` places;
 * '' for no value, and a value that is no number as it is.
 */
export function csvNumber(value: unknown, language: Language, decimals = 2): string {
  if (value === null || value === undefined || value === '') return '';
  const n = Number(value);
  if (!Number.isFinite(n)) return String(value);
  const text = n.toFixed(decimals);
  return language === 'en' ? text : text.replace('.', ',');
}
