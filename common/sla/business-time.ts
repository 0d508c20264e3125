/**
 * Business-time arithmetic on a Calendar (common/sla/calendar.ts): the due instant of a number of
 * business minutes, and the business minutes between two instants.
 *
 * The walk goes day by day over the calendar's local days, and each day's intervals are turned into
 * real instants in its zone (./zone-offsets.ts), so DST days, midnight and year ends need no special
 * case: a day is the real time between its wall-clock bounds. Whole weeks without a holiday and without
 * an offset change are skipped at once (they hold the calendar's nominal week), so a span of a year
 * costs about 52 steps, not 365 and never one per minute. A calendar that never opens (no interval, or
 * holidays over every working day) gives null from addBusinessMinutes instead of looping: the walk
 * gives up after MAX_CLOSED_DAYS closed days in a row, more than the 28-year cycle after which a
 * yearly holiday falls on the same weekday again (02-29 on a Monday being the longest wait).
 */
import type { Calendar, Interval } from './calendar.ts';
import { instantOfWall, offsetAt, offsetChangesBetween } from './zone-offsets.ts';

const MINUTE = 60_000;
const DAY = 86_400_000;
/** Further than any zone's offset from UTC: a local day lies within [wall − MARGIN, wall + DAY + MARGIN]. */
const MARGIN = 15 * 3_600_000;
const MAX_CLOSED_DAYS = 366 * 40;

/** What the walk needs of a calendar, worked out once per Calendar object. */
interface Prepared {
  readonly zone: string;
  readonly week: readonly (readonly Interval[])[];
  /** The nominal working time of seven days, in ms (no DST day, no holiday). */
  readonly weekMs: number;
  readonly holidays: ReadonlySet<string>;
  readonly yearly: ReadonlySet<string>;
  /** 24/7 without holidays: business time is real time. */
  readonly realTime: boolean;
  /** Each local day's windows once worked out (a recompute walks the same days again and again). */
  readonly days: Map<number, readonly number[]>;
}

const prepared = new WeakMap<Calendar, Prepared>();

function prepare(calendar: Calendar): Prepared {
  let p = prepared.get(calendar);
  if (!p) {
    let weekMinutes = 0;
    for (const day of calendar.week) for (const i of day) weekMinutes += i.to - i.from;
    const noHolidays = calendar.holidays.length === 0 && calendar.yearlyHolidays.length === 0;
    p = {
      zone: calendar.zone,
      week: calendar.week,
      weekMs: weekMinutes * MINUTE,
      holidays: new Set(calendar.holidays),
      yearly: new Set(calendar.yearlyHolidays),
      realTime: noHolidays && weekMinutes === 7 * 1440,
      days: new Map(),
    };
    prepared.set(calendar, p);
  }
  return p;
}

/** Days are numbered from 1970-01-01 (day 0, a Thursday); weekday 0 is Monday. */
function weekdayOf(day: number): number {
  return (((day + 3) % 7) + 7) % 7;
}

function isHoliday(p: Prepared, day: number): boolean {
  if (p.holidays.size === 0 && p.yearly.size === 0) return false;
  const iso = new Date(day * DAY).toISOString(); // YYYY-MM-DDT…, for years 0-9999
  return p.holidays.has(iso.slice(0, 10)) || p.yearly.has(iso.slice(5, 10));
}

/** The local day (number) of an instant in the calendar's zone. */
function localDay(p: Prepared, instant: number): number {
  return Math.floor((instant + offsetAt(p.zone, instant) * MINUTE) / DAY);
}

const CLOSED: readonly number[] = [];
/** Days remembered per calendar before the memo starts again: some years, a bound and not a tuning. */
const MAX_DAYS = 4096;

/** The day's working intervals as real instants, flat: [start0, end0, start1, end1, …]. */
function dayWindows(p: Prepared, day: number): readonly number[] {
  let windows = p.days.get(day);
  if (!windows) {
    windows = workOutDay(p, day);
    if (p.days.size >= MAX_DAYS) p.days.clear();
    p.days.set(day, windows);
  }
  return windows;
}

function workOutDay(p: Prepared, day: number): readonly number[] {
  const intervals = p.week[weekdayOf(day)] ?? [];
  if (intervals.length === 0 || isHoliday(p, day)) return CLOSED;
  const midnight = day * DAY;
  const out: number[] = [];
  if (!offsetChangesBetween(p.zone, midnight - MARGIN, midnight + DAY + MARGIN)) {
    const shift = offsetAt(p.zone, midnight) * MINUTE;
    for (const i of intervals) out.push(midnight + i.from * MINUTE - shift, midnight + i.to * MINUTE - shift);
  } else {
    // A DST day: each bound on its own (the gap's times collapse onto the jump, see instantOfWall).
    for (const i of intervals) {
      const from = instantOfWall(p.zone, midnight + i.from * MINUTE);
      const to = instantOfWall(p.zone, midnight + i.to * MINUTE);
      if (to > from) out.push(from, to);
    }
  }
  return out;
}

/** Whether the seven days from `day` hold exactly the nominal week: no holiday, no offset change. */
function plainWeek(p: Prepared, day: number): boolean {
  for (let d = day; d < day + 7; d++) if (isHoliday(p, d)) return false;
  return !offsetChangesBetween(p.zone, day * DAY - MARGIN, (day + 7) * DAY + MARGIN);
}

/**
 * The instant at which `ms` business milliseconds have passed from `start`: the earliest such instant,
 * so a target that runs out at the end of an interval is due at that end, not at the next opening.
 * 0 gives `start`. null when the calendar never opens again.
 */
export function addBusinessMs(calendar: Calendar, start: number, ms: number): number | null {
  if (!(ms > 0)) return start;
  const p = prepare(calendar);
  if (p.realTime) return start + ms;
  if (p.weekMs === 0) return null;
  let remaining = ms;
  let day = localDay(p, start);
  let closedRun = 0;
  for (let first = true; ; first = false, day++) {
    if (!first) {
      while (remaining > p.weekMs && plainWeek(p, day)) {
        remaining -= p.weekMs;
        day += 7;
        closedRun = 0;
      }
    }
    const windows = dayWindows(p, day);
    let open = false;
    for (let k = 0; k < windows.length; k += 2) {
      const end = windows[k + 1] as number;
      if (end <= start) continue;
      const from = Math.max(windows[k] as number, start);
      open = true;
      if (end - from >= remaining) return from + remaining;
      remaining -= end - from;
    }
    closedRun = open ? 0 : closedRun + 1;
    if (closedRun > MAX_CLOSED_DAYS) return null;
  }
}

/** The business milliseconds in [a, b); negative when b lies before a. */
export function businessMsBetween(calendar: Calendar, a: number, b: number): number {
  if (b < a) return -businessMsBetween(calendar, b, a);
  if (b === a) return 0;
  const p = prepare(calendar);
  if (p.realTime) return b - a;
  if (p.weekMs === 0) return 0;
  const firstDay = localDay(p, a);
  const lastDay = localDay(p, b);
  let total = 0;
  for (let day = firstDay; day <= lastDay; day++) {
    // Whole weeks strictly inside (a, b) count as the nominal week when nothing in them is special.
    while (day > firstDay && day + 7 <= lastDay && plainWeek(p, day)) {
      total += p.weekMs;
      day += 7;
    }
    const windows = dayWindows(p, day);
    for (let k = 0; k < windows.length; k += 2) {
      const from = Math.max(windows[k] as number, a);
      const to = Math.min(windows[k + 1] as number, b);
      if (to > from) total += to - from;
    }
  }
  return total;
}

/** The due instant of `minutes` business minutes from `start`; null when the calendar never opens. */
export function addBusinessMinutes(calendar: Calendar, start: number, minutes: number): number | null {
  return addBusinessMs(calendar, start, Math.round(minutes * MINUTE));
}

/** The business minutes in [a, b) (fractional when a or b falls inside a minute). */
export function businessMinutesBetween(calendar: Calendar, a: number, b: number): number {
  return businessMsBetween(calendar, a, b) / MINUTE;
}

/** Whether `instant` lies inside a working interval (at an interval's start counts as inside). */
export function isWorking(calendar: Calendar, instant: number): boolean {
  const p = prepare(calendar);
  if (p.realTime) return true;
  const windows = dayWindows(p, localDay(p, instant));
  for (let k = 0; k < windows.length; k += 2) {
    if ((windows[k] as number) <= instant && instant < (windows[k + 1] as number)) return true;
  }
  return false;
}
