/**
 * The periods the reports page offers (issue 36): this and last week, month, quarter and year, or two
 * days of one's own. Days are the user's calendar days (YYYY-MM-DD), as the server reads them in the
 * desk's zone; a week starts on Monday, as the report's weeks do.
 */
import { dateWireValue } from '../list/filters.ts';

export const PERIOD_PRESETS = [
  'this_week',
  'last_week',
  'this_month',
  'last_month',
  'this_quarter',
  'last_quarter',
  'this_year',
  'last_year',
  'custom',
] as const;
export type PeriodPreset = (typeof PERIOD_PRESETS)[number];

const pad = (n: number) => String(n).padStart(2, '0');

/** A local calendar day as the API writes it: the list filters' own day format. */
const isoDay = (d: Date) => dateWireValue(d, 'date');

const day = (year: number, month: number, date: number) => new Date(year, month, date);

/** The first and last day of a preset's period around `today` (a custom period has none of its own). */
export function presetRange(
  preset: Exclude<PeriodPreset, 'custom'>,
  today: Date,
): { from: string; to: string } {
  const [y, m, d] = [today.getFullYear(), today.getMonth(), today.getDate()];
  const monday = d - ((today.getDay() + 6) % 7);
  const quarter = m - (m % 3);
  const ranges: Record<typeof preset, [Date, Date]> = {
    this_week: [day(y, m, monday), day(y, m, monday + 6)],
    last_week: [day(y, m, monday - 7), day(y, m, monday - 1)],
    this_month: [day(y, m, 1), day(y, m + 1, 0)],
    last_month: [day(y, m - 1, 1), day(y, m, 0)],
    this_quarter: [day(y, quarter, 1), day(y, quarter + 3, 0)],
    last_quarter: [day(y, quarter - 3, 1), day(y, quarter, 0)],
    this_year: [day(y, 0, 1), day(y, 11, 31)],
    last_year: [day(y - 1, 0, 1), day(y - 1, 11, 31)],
  };
  const [from, to] = ranges[preset];
  return { from: isoDay(from), to: isoDay(to) };
}

/** Business minutes as hours and minutes (`1:05`), the way the desk writes durations; '–' for none. */
export function minutesText(minutes: number | null): string {
  if (minutes === null) return '–';
  // Negative: a contract period used beyond its hours.
  const whole = Math.abs(Math.round(minutes));
  return `${minutes < 0 && whole > 0 ? '-' : ''}${Math.floor(whole / 60)}:${pad(whole % 60)}`;
}
