/**
 * When a time-based rule's wait is over (server/automation/due-time.ts): wall hours and days as they
 * are, business hours as working time of the calendar (the SLA clock's count), business days as the
 * same local time on the amount-th working day after, passing weekends and holidays.
 */
import { describe, expect, it } from 'vitest';
import { DateTime } from 'luxon';
import { dueAfter, wallLowerBoundMs } from '../../server/automation/due-time.ts';
import { ALWAYS_OPEN, toCalendar } from '../../common/sla/calendar.ts';

const office = toCalendar({
  timezone: 'Europe/Amsterdam',
  schedule: Object.fromEntries(
    ['monday', 'tuesday', 'wednesday', 'thursday', 'friday'].map((d) => [
      d,
      [{ from: '09:00', to: '17:00' }],
    ]),
  ),
  holidays: [{ date: '2026-12-25', name: 'Kerst' }],
});
const at = (local: string) => DateTime.fromISO(local, { zone: 'Europe/Amsterdam' }).toMillis();
const local = (ms: number | null) =>
  DateTime.fromMillis(ms!, { zone: 'Europe/Amsterdam' }).toFormat('ccc yyyy-MM-dd HH:mm');

describe('the due time of a time-based rule', () => {
  it('counts wall hours and days as they are, whatever the calendar', () => {
    expect(dueAfter(office, at('2026-12-04T15:00'), 4, 'hours')).toBe(at('2026-12-04T19:00'));
    expect(dueAfter(office, at('2026-12-04T15:00'), 2, 'days')).toBe(at('2026-12-06T15:00'));
  });

  it('counts business hours in working time: Friday 15:00 plus 4 is Monday 11:00', () => {
    expect(local(dueAfter(office, at('2026-12-04T15:00'), 4, 'business_hours'))).toBe('Mon 2026-12-07 11:00');
  });

  it('counts business days as working days at the same local time, past weekends and holidays', () => {
    expect(local(dueAfter(office, at('2026-12-04T15:00'), 1, 'business_days'))).toBe('Mon 2026-12-07 15:00');
    expect(local(dueAfter(office, at('2026-12-23T10:00'), 3, 'business_days'))).toBe('Tue 2026-12-29 10:00');
    // Across the change to summer time: still 10:00 local.
    expect(local(dueAfter(office, at('2027-03-26T10:00'), 1, 'business_days'))).toBe('Mon 2027-03-29 10:00');
  });

  it('without a calendar of its own a ticket is always open: business time is wall time', () => {
    const start = at('2026-12-04T15:00');
    expect(dueAfter(ALWAYS_OPEN, start, 5, 'business_hours')).toBe(start + 5 * 3_600_000);
    expect(dueAfter(ALWAYS_OPEN, start, 3, 'business_days')).toBe(dueAfter(ALWAYS_OPEN, start, 3, 'days'));
  });

  it('never answers a due for a calendar that never works, and bounds the look by the wall clock', () => {
    const closed = { ...office, week: office.week.map(() => []) };
    expect(dueAfter(closed, at('2026-12-04T15:00'), 1, 'business_days')).toBeNull();
    expect(wallLowerBoundMs(3, 'business_days')).toBe(3 * 86_400_000);
    expect(wallLowerBoundMs(3, 'business_hours')).toBe(3 * 3_600_000);
  });
});
