/**
 * The schedule maths of recurring tickets (server/resources/recurring-tickets/schedule.ts): weekly,
 * monthly, quarterly and yearly; a day of the month or the nth / last weekday; every n periods from the
 * start; wall-clock time in Europe/Amsterdam kept across both daylight-saving changes (the last Sundays
 * of March and October).
 */
import { describe, expect, it } from 'vitest';
import { DateTime } from 'luxon';
import { nextOccurrence, type Schedule } from '../../server/resources/recurring-tickets/schedule.ts';

const ZONE = 'Europe/Amsterdam';
const base: Schedule = {
  frequency: 'monthly',
  interval: 1,
  day_of_month: null,
  nth: 1,
  weekday: 1,
  time_of_day: '09:00',
  starts_on: '2026-01-01',
};

/** The next `count` occurrences after `from` (local ISO), each as local ISO without seconds. */
function run(s: Partial<Schedule>, from: string, count: number): string[] {
  const schedule = { ...base, ...s };
  let at = DateTime.fromISO(from, { zone: ZONE }).toJSDate();
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    at = nextOccurrence(schedule, at, ZONE);
    out.push(DateTime.fromJSDate(at, { zone: ZONE }).toFormat("yyyy-MM-dd'T'HH:mmZZ"));
  }
  return out;
}

describe('recurring schedules', () => {
  it('keeps "first Monday 09:00" at 09:00 local across the change to summer time and back', () => {
    expect(run({}, '2026-02-10T00:00', 3)).toEqual([
      '2026-03-02T09:00+01:00',
      '2026-04-06T09:00+02:00', // after the last Sunday of March (29 March 2026)
      '2026-05-04T09:00+02:00',
    ]);
    expect(run({}, '2026-10-06T00:00', 2)).toEqual([
      '2026-11-02T09:00+01:00', // after the last Sunday of October (25 October 2026)
      '2026-12-07T09:00+01:00',
    ]);
  });

  it('runs weekly on a weekday across a change, and every second week from the start', () => {
    expect(
      run({ frequency: 'weekly', weekday: 7, nth: null, time_of_day: '08:30' }, '2026-03-20T00:00', 3),
    ).toEqual(['2026-03-22T08:30+01:00', '2026-03-29T08:30+02:00', '2026-04-05T08:30+02:00']);
    expect(
      run(
        { frequency: 'weekly', interval: 2, weekday: 3, nth: null, starts_on: '2026-01-05' },
        '2026-01-05T00:00',
        3,
      ),
    ).toEqual(['2026-01-07T09:00+01:00', '2026-01-21T09:00+01:00', '2026-02-04T09:00+01:00']);
  });

  it('takes the last weekday of a month, and the last Sunday is the change itself', () => {
    expect(run({ nth: -1, weekday: 7, time_of_day: '10:00' }, '2026-03-01T00:00', 2)).toEqual([
      '2026-03-29T10:00+02:00',
      '2026-04-26T10:00+02:00',
    ]);
    expect(run({ nth: -1, weekday: 7, time_of_day: '10:00' }, '2026-10-01T00:00', 1)).toEqual([
      '2026-10-25T10:00+01:00',
    ]);
  });

  it('clamps a day of the month past its end to the last day', () => {
    expect(run({ day_of_month: 31, nth: null, weekday: null }, '2026-01-31T12:00', 3)).toEqual([
      '2026-02-28T09:00+01:00',
      '2026-03-31T09:00+02:00',
      '2026-04-30T09:00+02:00',
    ]);
  });

  it('runs quarterly and yearly from the month of the start, every n periods', () => {
    expect(
      run(
        { frequency: 'quarterly', day_of_month: 15, nth: null, starts_on: '2026-02-01' },
        '2026-01-01T00:00',
        3,
      ),
    ).toEqual(['2026-02-15T09:00+01:00', '2026-05-15T09:00+02:00', '2026-08-15T09:00+02:00']);
    expect(
      run(
        { frequency: 'yearly', interval: 2, nth: 4, weekday: 4, starts_on: '2026-11-01' },
        '2026-01-01T00:00',
        2,
      ),
    ).toEqual(['2026-11-26T09:00+01:00', '2028-11-23T09:00+01:00']);
  });

  it('does not run before the start day, nor at the moment it is asked after', () => {
    expect(run({ starts_on: '2026-03-03' }, '2026-01-01T00:00', 1)).toEqual(['2026-04-06T09:00+02:00']);
    expect(run({}, '2026-03-02T09:00', 1)).toEqual(['2026-04-06T09:00+02:00']);
  });

  it('finds the next one quickly far after the start', () => {
    expect(
      run({ frequency: 'weekly', weekday: 1, nth: null, starts_on: '2000-01-03' }, '2026-10-20T00:00', 1),
    ).toEqual(['2026-10-26T09:00+01:00']);
  });
});
