/**
 * When a time-based rule's wait is over (issue 37, item 2): `amount` hours or days of the wall clock, or
 * business hours or business days of the ticket's business-hour calendar, the one its SLA clock counts
 * in (the applied SLA's calendar; none: always open, as the SLA clock has it).
 *
 * A business hour is an hour of working time (common/sla/business-time.ts, as the SLA targets count).
 * A business day is reached at the same local time on the amount-th working day after the start's day
 * (a day of the week with working intervals that is no holiday): Friday 15:00 plus one business day is
 * Monday 15:00. Pure code: the loop reads the calendars, this counts.
 */
import { DateTime } from 'luxon';
import { addBusinessMinutes } from '../../common/sla/business-time.ts';
import type { Calendar } from '../../common/sla/calendar.ts';

export type TimeUnit = 'hours' | 'days' | 'business_hours' | 'business_days';

const HOUR = 60 * 60_000;
const DAY = 24 * HOUR;

/** The longest the wall clock can take for the wait (business time never runs faster): the SQL's bound. */
export function wallLowerBoundMs(amount: number, unit: TimeUnit): number {
  return unit === 'hours' || unit === 'business_hours' ? amount * HOUR : amount * DAY;
}

function isWorkingDay(calendar: Calendar, day: DateTime): boolean {
  const date = day.toISODate()!;
  if (calendar.holidays.includes(date) || calendar.yearlyHolidays.includes(date.slice(5))) return false;
  return (calendar.week[day.weekday - 1]?.length ?? 0) > 0;
}

/** The instant the wait that began at `start` is over; null when the calendar never works. */
export function dueAfter(calendar: Calendar, start: number, amount: number, unit: TimeUnit): number | null {
  if (unit === 'hours') return start + amount * HOUR;
  if (unit === 'days') return start + amount * DAY;
  if (unit === 'business_hours') return addBusinessMinutes(calendar, start, amount * 60);
  let day = DateTime.fromMillis(start, { zone: calendar.zone });
  // At most ten years of days looked at: a calendar with no working day is never due.
  for (let counted = 0, looked = 0; counted < amount; looked++) {
    if (looked > 3660) return null;
    day = day.plus({ days: 1 });
    if (isWorkingDay(calendar, day)) counted++;
  }
  return day.toMillis();
}
