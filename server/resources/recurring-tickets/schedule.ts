/**
 * When a recurring ticket is due (issue 37, item 4): pure schedule maths, no database. A schedule repeats
 * every `interval` weeks, months, quarters or years, counted from the period of `starts_on`, on a day of
 * that period: weekly a weekday; otherwise a day of the month (past the month's end: its last day) or an
 * nth weekday (1..4, or -1: the last), in the first month of the period; at `time_of_day`, wall-clock
 * time in the zone, so "the first Monday at 09:00" stays 09:00 local across a daylight-saving change. A
 * wall-clock time that does not exist that day (02:30 when the clocks go forward) is the first moment
 * after the gap, as luxon makes it.
 */
import { DateTime } from 'luxon';

export const FREQUENCIES = ['weekly', 'monthly', 'quarterly', 'yearly'] as const;
export type Frequency = (typeof FREQUENCIES)[number];

export interface Schedule {
  frequency: Frequency;
  /** Every how many periods (1: every one). */
  interval: number;
  /** Monthly and longer: the day of the month, 1..31; or null with nth and weekday. */
  day_of_month: number | null;
  /** Monthly and longer, with weekday: 1..4 (first to fourth) or -1 (the last). */
  nth: number | null;
  /** ISO weekday, 1 (Monday) .. 7 (Sunday): weekly, or with nth. */
  weekday: number | null;
  /** HH:MM, wall-clock time in the zone. */
  time_of_day: string;
  /** YYYY-MM-DD: the first day an occurrence may fall on; its period is the first period. */
  starts_on: string;
}

/** Months per period of each frequency but weekly. */
const MONTHS: Record<Exclude<Frequency, 'weekly'>, number> = { monthly: 1, quarterly: 3, yearly: 12 };

/** The occurrence in the period that starts at `period` (a local start of week or month), or null. */
function inPeriod(s: Schedule, period: DateTime): DateTime | null {
  const [hour, minute] = s.time_of_day.split(':').map(Number) as [number, number];
  let day: DateTime;
  if (s.frequency === 'weekly') {
    day = period.plus({ days: (s.weekday ?? 1) - 1 });
  } else if (s.day_of_month !== null) {
    day = period.set({ day: Math.min(s.day_of_month, period.daysInMonth ?? 28) });
  } else {
    const weekday = s.weekday ?? 1;
    if (s.nth === -1) {
      const last = period.endOf('month').startOf('day');
      day = last.minus({ days: (last.weekday - weekday + 7) % 7 });
    } else {
      const first = period.plus({ days: (weekday - period.weekday + 7) % 7 });
      day = first.plus({ weeks: (s.nth ?? 1) - 1 });
    }
  }
  // Set the wall-clock time on the local date: luxon keeps it local across an offset change.
  return DateTime.fromObject(
    { year: day.year, month: day.month, day: day.day, hour, minute },
    { zone: period.zone },
  );
}

/** The first occurrence of the schedule strictly after `after`, in `zone`. */
export function nextOccurrence(s: Schedule, after: Date, zone: string): Date {
  const start = DateTime.fromISO(s.starts_on, { zone }).startOf('day');
  const unit = s.frequency === 'weekly' ? 'week' : 'month';
  const step = s.frequency === 'weekly' ? s.interval : MONTHS[s.frequency] * s.interval;
  const first = start.startOf(unit);
  const from = DateTime.fromJSDate(after, { zone });
  // Jump to the period before `after` (whole steps from the first), then walk: at most a few periods.
  const elapsed = Math.floor(from.startOf(unit).diff(first, unit).as(unit));
  let k = Math.max(0, Math.floor(elapsed / step) - 1);
  for (let guard = 0; guard < 10; guard++, k++) {
    const period = first.plus({ [unit]: k * step });
    const at = inPeriod(s, period);
    if (at && at >= start && at > from) return at.toJSDate();
  }
  throw new Error('no occurrence found');
}
