/**
 * The SLA clock's calendar (issue 35): when the service desk works, and business-time arithmetic on it.
 * Pure code for server and browser: no database, no Node APIs; luxon (via ./zone-offsets.ts) for zones.
 *
 * The input is a business hour contract as stored (schemas/business-hour-contracts.json), with one new
 * sibling field:
 *
 * - `schedule`: weekday name → list of `{from: "HH:MM", to: "HH:MM"}` wall-clock intervals ("24:00" is
 *   allowed as an end), as in server/db/seed/data/settings.json; a missing weekday is a closed day. Or
 *   the text `"24/7"`: every day 00:00-24:00. Intervals lie within one day; a night shift is two
 *   intervals, 22:00-24:00 and 00:00-06:00 of the next day, and they join: nothing is lost or counted
 *   twice at midnight.
 * - `timezone`: an IANA name; empty means Europe/Amsterdam, the desk's own zone.
 * - `holidays` (new): `[{date, name}]`, `date` either `YYYY-MM-DD` (that day once) or `MM-DD` (that day
 *   every year). A holiday closes the whole day, also on a "24/7" calendar ("24/7 but Christmas").
 *   A yearly `02-29` is a holiday in leap years only: it is not moved to 28 February or 1 March, since a
 *   holiday that falls on another day is another holiday and can be written as such.
 *
 * Business time is real time inside the working intervals, so a day's length follows daylight saving.
 * All instants are epoch milliseconds; minutes in the API are business minutes. The arithmetic on a
 * Calendar (`addBusinessMinutes`, `businessMinutesBetween`) is in ./business-time.ts, the zone offsets
 * it needs in ./zone-offsets.ts: three small modules instead of one long one.
 */
import { IANAZone } from 'luxon';
import { serverText, type ServerTextKey } from '../server-texts.ts';

/** The desk's zone when a contract names none. */
export const DEFAULT_TIME_ZONE = 'Europe/Amsterdam';

/** Monday first, as ISO weekdays and the contracts' schedules are written. */
export const WEEKDAYS = [
  'monday',
  'tuesday',
  'wednesday',
  'thursday',
  'friday',
  'saturday',
  'sunday',
] as const;
export type Weekday = (typeof WEEKDAYS)[number];

/** One working interval, in minutes after local midnight: 0 ≤ from < to ≤ 1440. */
export interface Interval {
  readonly from: number;
  readonly to: number;
}

/** A checked calendar: plain data (no caches in it), so it can be kept, compared and sent. */
export interface Calendar {
  readonly zone: string;
  /** Index 0 is Monday. Sorted, not overlapping, touching intervals joined. */
  readonly week: readonly (readonly Interval[])[];
  /** `YYYY-MM-DD` days that are closed once. */
  readonly holidays: readonly string[];
  /** `MM-DD` days that are closed every year. */
  readonly yearlyHolidays: readonly string[];
}

/** A contract's fields as stored or sent: checked by `calendarProblems`, turned into a Calendar. */
export interface CalendarInput {
  readonly schedule?: unknown;
  readonly timezone?: unknown;
  readonly holidays?: unknown;
}

/** Problems by the field or interval they are about: `schedule.monday.1`, `holidays.2.date`, `timezone`. */
export type CalendarProblems = Record<string, string[]>;

type CalendarTextKey = Extract<ServerTextKey, `calendar_${string}`>;

/** A value sent back in a line, cut short: the line names it, it need not repeat a long one. */
const shown = (value: unknown) => String(value).slice(0, 40);

function text(key: CalendarTextKey, values: Record<string, string | number> = {}): string {
  return serverText(key, values);
}

const TIME = /^(?:([01]\d|2[0-3]):([0-5]\d)|(24):(00))$/;

/** "HH:MM" as minutes after midnight (24:00 is 1440), or null. */
export function parseTime(value: unknown): number | null {
  if (typeof value !== 'string') return null;
  const match = TIME.exec(value);
  if (!match) return null;
  return match[3] ? 1440 : Number(match[1]) * 60 + Number(match[2]);
}

const SINGLE_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const YEARLY_DATE = /^(\d{2})-(\d{2})$/;

function realDate(year: number, month: number, day: number): boolean {
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/** 'single' for YYYY-MM-DD, 'yearly' for MM-DD (checked against a leap year: 02-29 is a date), or null. */
export function holidayKind(value: unknown): 'single' | 'yearly' | null {
  if (typeof value !== 'string') return null;
  const single = SINGLE_DATE.exec(value);
  if (single) return realDate(Number(single[1]), Number(single[2]), Number(single[3])) ? 'single' : null;
  const yearly = YEARLY_DATE.exec(value);
  if (yearly) return realDate(2000, Number(yearly[1]), Number(yearly[2])) ? 'yearly' : null;
  return null;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function add(problems: CalendarProblems, key: string, line: string): void {
  (problems[key] ??= []).push(line);
}

function scheduleProblems(schedule: unknown, problems: CalendarProblems): void {
  if (schedule === '24/7') return;
  if (schedule === undefined || schedule === null)
    return add(problems, 'schedule', text('calendar_schedule_missing'));
  if (!isRecord(schedule)) return add(problems, 'schedule', text('calendar_schedule_not_object'));
  let working = false;
  for (const [day, list] of Object.entries(schedule)) {
    const key = `schedule.${day}`;
    if (!(WEEKDAYS as readonly string[]).includes(day)) {
      add(problems, key, text('calendar_weekday_unknown', { day: shown(day) }));
      continue;
    }
    if (!Array.isArray(list)) {
      add(problems, key, text('calendar_intervals_not_list', { day }));
      continue;
    }
    const good: { index: number; from: number; to: number; label: [string, string] }[] = [];
    list.forEach((interval: unknown, index) => {
      const at = `${key}.${index}`;
      if (!isRecord(interval)) return add(problems, at, text('calendar_interval_not_object'));
      const from = parseTime(interval.from);
      const to = parseTime(interval.to);
      // A time left out is named as missing, not shown as the word "undefined".
      const bad = (value: unknown) =>
        value === undefined || value === null
          ? text('calendar_time_missing')
          : text('calendar_time_bad', { value: shown(value) });
      if (from === null) add(problems, `${at}.from`, bad(interval.from));
      if (to === null) add(problems, `${at}.to`, bad(interval.to));
      if (from === null || to === null) return;
      const label: [string, string] = [String(interval.from), String(interval.to)];
      if (to <= from)
        return add(problems, at, text('calendar_interval_reversed', { from: label[0], to: label[1] }));
      good.push({ index, from, to, label });
    });
    // Each overlap is told on the later-listed interval of the two, naming the other by its times.
    for (const later of good) {
      for (const earlier of good) {
        if (earlier.index >= later.index) break;
        if (later.from < earlier.to && earlier.from < later.to) {
          add(
            problems,
            `${key}.${later.index}`,
            text('calendar_interval_overlap', {
              from: later.label[0],
              to: later.label[1],
              start: earlier.label[0],
              end: earlier.label[1],
            }),
          );
        }
      }
    }
    if (good.length > 0) working = true;
  }
  if (!working && !Object.keys(problems).some((key) => key.startsWith('schedule'))) {
    add(problems, 'schedule', text('calendar_no_working_time'));
  }
}

function holidayProblems(holidays: unknown, problems: CalendarProblems): void {
  if (holidays === undefined || holidays === null) return;
  if (!Array.isArray(holidays)) return add(problems, 'holidays', text('calendar_holidays_not_list'));
  holidays.forEach((holiday: unknown, index) => {
    const at = `holidays.${index}`;
    if (!isRecord(holiday)) return add(problems, at, text('calendar_holiday_not_object'));
    if (holidayKind(holiday.date) === null) {
      add(problems, `${at}.date`, text('calendar_holiday_date_bad', { value: shown(holiday.date) }));
    }
    if (typeof holiday.name !== 'string' || holiday.name.trim() === '') {
      add(problems, `${at}.name`, text('calendar_holiday_name_missing'));
    }
  });
}

function zoneOf(timezone: unknown): string | null {
  if (timezone === undefined || timezone === null || timezone === '') return DEFAULT_TIME_ZONE;
  return typeof timezone === 'string' && IANAZone.isValidZone(timezone) ? timezone : null;
}

/** Every problem of a calendar input, by field or interval; an empty object when it is good. */
export function calendarProblems(input: CalendarInput): CalendarProblems {
  const problems: CalendarProblems = {};
  scheduleProblems(input.schedule, problems);
  if (zoneOf(input.timezone) === null) {
    if (typeof input.timezone !== 'string') add(problems, 'timezone', text('calendar_timezone_not_text'));
    else add(problems, 'timezone', text('calendar_timezone_unknown', { zone: shown(input.timezone) }));
  }
  holidayProblems(input.holidays, problems);
  return problems;
}

/** Thrown by `toCalendar` on bad input; carries the problems for the 422. */
export class CalendarInputError extends Error {
  constructor(readonly problems: CalendarProblems) {
    super(`Bad calendar: ${Object.keys(problems).join(', ')}`);
  }
}

function joined(intervals: Interval[]): Interval[] {
  const sorted = [...intervals].sort((a, b) => a.from - b.from);
  const out: Interval[] = [];
  for (const next of sorted) {
    const last = out[out.length - 1];
    if (last && next.from <= last.to)
      out[out.length - 1] = { from: last.from, to: Math.max(last.to, next.to) };
    else out.push(next);
  }
  return out;
}

/** The checked Calendar of a contract; throws CalendarInputError with every problem otherwise. */
export function toCalendar(input: CalendarInput): Calendar {
  const problems = calendarProblems(input);
  if (Object.keys(problems).length > 0) throw new CalendarInputError(problems);
  const schedule = input.schedule;
  const week = WEEKDAYS.map((day) => {
    if (schedule === '24/7') return [{ from: 0, to: 1440 }];
    const list = (schedule as Record<string, { from: string; to: string }[] | undefined>)[day] ?? [];
    return joined(list.map((i) => ({ from: parseTime(i.from) as number, to: parseTime(i.to) as number })));
  });
  const holidays: string[] = [];
  const yearlyHolidays: string[] = [];
  for (const holiday of (input.holidays ?? []) as { date: string }[]) {
    (holidayKind(holiday.date) === 'single' ? holidays : yearlyHolidays).push(holiday.date);
  }
  return { zone: zoneOf(input.timezone) as string, week, holidays, yearlyHolidays };
}

/** Open all the time, in real minutes: the calendar of a ticket without an SLA's contract. */
export const ALWAYS_OPEN: Calendar = {
  zone: 'UTC',
  week: WEEKDAYS.map(() => [{ from: 0, to: 1440 }]),
  holidays: [],
  yearlyHolidays: [],
};
