/**
 * The SLA clock's calendar (issue 35; common/sla/calendar.ts, business-time.ts, zone-offsets.ts):
 * bad input named by field or interval; business minutes across DST days in Amsterdam, holidays
 * (yearly 02-29 in leap years only), split days, midnight, year ends and 24/7; and, for random
 * calendars and instants, adding and measuring business time are each other's inverse and monotonic,
 * and the week-skipping walk agrees with a plain day-by-day sum.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  addBusinessMinutes,
  businessMinutesBetween,
  businessMsBetween,
  isWorking,
} from '../../common/sla/business-time.ts';
import {
  ALWAYS_OPEN,
  type Calendar,
  CalendarInputError,
  WEEKDAYS,
  calendarProblems,
  toCalendar,
} from '../../common/sla/calendar.ts';
import { instantOfWall } from '../../common/sla/zone-offsets.ts';

const at = (iso: string) => Date.parse(iso);
const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
const everyDay = (...intervals: [string, string][]) =>
  Object.fromEntries(WEEKDAYS.map((day) => [day, intervals.map(([from, to]) => ({ from, to }))]));
const weekdays = (...intervals: [string, string][]) =>
  Object.fromEntries(WEEKDAYS.slice(0, 5).map((day) => [day, intervals.map(([from, to]) => ({ from, to }))]));

/** Office hours with a lunch break, Monday to Friday, Amsterdam. */
const office = toCalendar({ schedule: weekdays(['08:00', '12:00'], ['13:00', '17:30']) });

describe('calendar input', () => {
  it('a good contract, as seeded, has no problems and defaults to Amsterdam', () => {
    const input = { schedule: weekdays(['08:30', '17:30']), timezone: null };
    expect(calendarProblems(input)).toEqual({});
    expect(toCalendar(input).zone).toBe('Europe/Amsterdam');
    expect(calendarProblems({ schedule: '24/7', timezone: 'America/New_York' })).toEqual({});
  });

  it('names the interval that is reversed, overlaps or has a bad time', () => {
    const problems = calendarProblems({
      schedule: {
        monday: [
          { from: '08:00', to: '12:00' },
          { from: '11:00', to: '13:00' },
          { from: '12:00', to: '12:00' },
        ],
        tuesday: [{ from: '8:00', to: '24:01' }],
        wednesday: [{ from: '13:00', to: '17:00' }, { from: '12:00', to: '13:00' }, 'x'],
        thursday: [{ start: '09:00', end: '17:00' }],
        funday: [],
        friday: {},
      },
    });
    expect(problems).toEqual({
      'schedule.monday.1': ['The interval 11:00 to 13:00 overlaps the interval 08:00 to 12:00.'],
      'schedule.monday.2': ['The interval 12:00 to 12:00 ends before or when it starts.'],
      'schedule.tuesday.0.from': ['The time 8:00 is not a time HH:MM from 00:00 to 24:00.'],
      'schedule.tuesday.0.to': ['The time 24:01 is not a time HH:MM from 00:00 to 24:00.'],
      'schedule.wednesday.2': ['An interval must be an object with a from and a to time.'],
      'schedule.thursday.0.from': ['The time is missing: give it as HH:MM from 00:00 to 24:00.'],
      'schedule.thursday.0.to': ['The time is missing: give it as HH:MM from 00:00 to 24:00.'],
      'schedule.funday': ['Unknown weekday funday: use monday to sunday.'],
      'schedule.friday': ['The friday intervals must be a list of from and to times.'],
    });
  });

  it('names an unknown zone, a holiday date that is no date and a holiday without a name', () => {
    const problems = calendarProblems({
      schedule: weekdays(['09:00', '17:00']),
      timezone: 'Europe/Amsterdan',
      holidays: [
        { date: '2026-12-25', name: 'Christmas' },
        { date: '02-29', name: 'Leap day' },
        { date: '2026-02-29', name: 'No such day' },
        { date: '13-01', name: '' },
        'New Year',
      ],
    });
    expect(problems).toEqual({
      timezone: ['Unknown time zone Europe/Amsterdan: use an IANA name such as Europe/Amsterdam.'],
      'holidays.2.date': ['The holiday date 2026-02-29 is not a date YYYY-MM-DD, or MM-DD for every year.'],
      'holidays.3.date': ['The holiday date 13-01 is not a date YYYY-MM-DD, or MM-DD for every year.'],
      'holidays.3.name': ['A holiday needs a name.'],
      'holidays.4': ['A holiday must be an object with a date and a name.'],
    });
  });

  it('a schedule without working time, or none at all, is a problem; toCalendar throws them all', () => {
    expect(calendarProblems({ schedule: { monday: [] } })).toEqual({
      schedule: ['The schedule has no working time: give at least one interval, or "24/7".'],
    });
    expect(calendarProblems({})).toEqual({
      schedule: ['The schedule is missing: give working intervals per weekday, or "24/7".'],
    });
    expect(() => toCalendar({ schedule: 'always', timezone: 5 })).toThrow(CalendarInputError);
    try {
      toCalendar({ schedule: 'always', timezone: 5 });
    } catch (error) {
      expect(Object.keys((error as CalendarInputError).problems)).toEqual(['schedule', 'timezone']);
    }
  });

  it('touching intervals join, in any order', () => {
    const c = toCalendar({
      schedule: {
        monday: [
          { from: '12:00', to: '17:00' },
          { from: '08:00', to: '12:00' },
        ],
      },
    });
    expect(c.week[0]).toEqual([{ from: 480, to: 1020 }]);
  });
});

describe('business time', () => {
  it('an interval 01:00-04:00 lasts 120 real minutes on the spring DST Sunday and 240 on the autumn one', () => {
    const night = toCalendar({ schedule: everyDay(['01:00', '04:00']) });
    // 29 March 2026 and 25 October 2026 are the last Sundays of March and October.
    expect(businessMinutesBetween(night, at('2026-03-28T22:00:00Z'), at('2026-03-29T12:00:00Z'))).toBe(120);
    expect(businessMinutesBetween(night, at('2026-10-24T22:00:00Z'), at('2026-10-25T12:00:00Z'))).toBe(240);
    expect(businessMinutesBetween(night, at('2026-03-27T22:00:00Z'), at('2026-03-28T12:00:00Z'))).toBe(180);
    // 01:00 CET is 00:00Z; 90 minutes later it is 03:30 CEST (the clocks jumped from 02:00 to 03:00).
    expect(iso(addBusinessMinutes(night, at('2026-03-29T00:00:00Z'), 90))).toBe('2026-03-29T01:30:00.000Z');
    // 01:00 CEST is 23:00Z the day before; 150 minutes later it is 02:30 CET, the second 02:30.
    expect(iso(addBusinessMinutes(night, at('2026-10-24T23:00:00Z'), 150))).toBe('2026-10-25T01:30:00.000Z');
  });

  it('a wall time in the spring gap is the jump, one in the autumn hour its first occurrence', () => {
    const wall = (s: string) => at(`${s}Z`);
    expect(iso(instantOfWall('Europe/Amsterdam', wall('2026-03-29T02:30:00')))).toBe(
      '2026-03-29T01:00:00.000Z',
    );
    expect(iso(instantOfWall('Europe/Amsterdam', wall('2026-10-25T02:30:00')))).toBe(
      '2026-10-25T00:30:00.000Z',
    );
    const gap = toCalendar({ schedule: everyDay(['02:15', '02:45'], ['03:00', '04:00']) });
    expect(businessMinutesBetween(gap, at('2026-03-28T23:00:00Z'), at('2026-03-29T22:00:00Z'))).toBe(60);
  });

  it('other zones: a 30-minute DST change (Lord Howe) and a skipped midnight (Santiago)', () => {
    const howe = toCalendar({ schedule: everyDay(['01:00', '04:00']), timezone: 'Australia/Lord_Howe' });
    // 4 October 2026 02:00 → 02:30, 5 April 2026 02:00 → 01:30.
    expect(businessMinutesBetween(howe, at('2026-10-03T12:00:00Z'), at('2026-10-04T12:00:00Z'))).toBe(150);
    expect(businessMinutesBetween(howe, at('2026-04-04T12:00:00Z'), at('2026-04-05T12:00:00Z'))).toBe(210);
    // Chile's clocks go from 24:00 on Saturday 5 September 2026 to 01:00 on Sunday: the Sunday starts at
    // 01:00 (04:00Z) and has 23 hours. A holiday keeps the calendar off its real-time shortcut.
    const santiago = toCalendar({
      schedule: everyDay(['00:00', '24:00']),
      timezone: 'America/Santiago',
      holidays: [{ date: '2026-01-01', name: 'New Year' }],
    });
    expect(iso(instantOfWall('America/Santiago', at('2026-09-06T00:00:00Z')))).toBe(
      '2026-09-06T04:00:00.000Z',
    );
    expect(businessMinutesBetween(santiago, at('2026-09-06T04:00:00Z'), at('2026-09-07T03:00:00Z'))).toBe(
      23 * 60,
    );
    expect(iso(addBusinessMinutes(santiago, at('2026-09-05T04:00:00Z'), 47 * 60))).toBe(
      '2026-09-07T03:00:00.000Z',
    );
    expect(businessMinutesBetween(santiago, at('2025-12-31T03:00:00Z'), at('2026-01-02T03:00:00Z'))).toBe(
      1440,
    );
  });

  it('splits the day at lunch and goes over the weekend', () => {
    // Friday 4 December 2026 16:00 in Amsterdam (15:00Z): 90 minutes left, the rest on Monday from 08:00.
    expect(iso(addBusinessMinutes(office, at('2026-12-04T15:00:00Z'), 120))).toBe('2026-12-07T07:30:00.000Z');
    // Monday 11:30 plus 60 minutes: 30 before lunch, 30 after it.
    expect(iso(addBusinessMinutes(office, at('2026-12-07T10:30:00Z'), 60))).toBe('2026-12-07T12:30:00.000Z');
    // Running out at the end of an interval is due at that end, not at the next opening.
    expect(iso(addBusinessMinutes(office, at('2026-12-07T10:30:00Z'), 30))).toBe('2026-12-07T11:00:00.000Z');
    expect(businessMinutesBetween(office, at('2026-12-04T15:00:00Z'), at('2026-12-07T07:30:00Z'))).toBe(120);
    expect(businessMinutesBetween(office, at('2026-12-05T09:00:00Z'), at('2026-12-06T20:00:00Z'))).toBe(0);
    expect(isWorking(office, at('2026-12-07T11:30:00Z'))).toBe(false);
    expect(isWorking(office, at('2026-12-07T12:00:00Z'))).toBe(true);
  });

  it('intervals ending at 24:00 join the next day’s from 00:00 across midnight and the year end', () => {
    const nights = toCalendar({
      schedule: everyDay(['00:00', '06:00'], ['22:00', '24:00']),
      timezone: 'UTC',
    });
    expect(iso(addBusinessMinutes(nights, at('2026-12-31T23:00:00Z'), 120))).toBe('2027-01-01T01:00:00.000Z');
    expect(businessMinutesBetween(nights, at('2026-12-31T22:00:00Z'), at('2027-01-01T06:00:00Z'))).toBe(480);
    // Year end in Amsterdam with office hours: Thursday 31 December 17:00 plus 60 → Friday 1 January 08:30.
    expect(iso(addBusinessMinutes(office, at('2026-12-31T16:00:00Z'), 60))).toBe('2027-01-01T07:30:00.000Z');
  });

  it('holidays close whole days; a yearly 02-29 only in leap years', () => {
    const c = toCalendar({
      schedule: weekdays(['09:00', '17:00']),
      timezone: 'UTC',
      holidays: [
        { date: '12-25', name: 'Christmas' },
        { date: '2026-12-28', name: 'Bridge day' },
        { date: '02-29', name: 'Leap day' },
      ],
    });
    // Thursday 24 December 2026 16:00 + 120: 60 that day, Friday 25 and Monday 28 are off, Tuesday 10:00.
    expect(iso(addBusinessMinutes(c, at('2026-12-24T16:00:00Z'), 120))).toBe('2026-12-29T10:00:00.000Z');
    // 2027-12-27 is no holiday (the single one was 2026's); Christmas 2027 is a Saturday anyway.
    expect(businessMinutesBetween(c, at('2027-12-27T00:00:00Z'), at('2027-12-28T00:00:00Z'))).toBe(480);
    // 29 February 2028 is a Tuesday: closed. 2027 has no 29 February; 1 March 2027 (Monday) works.
    expect(businessMinutesBetween(c, at('2028-02-29T00:00:00Z'), at('2028-03-01T00:00:00Z'))).toBe(0);
    expect(businessMinutesBetween(c, at('2027-03-01T00:00:00Z'), at('2027-03-02T00:00:00Z'))).toBe(480);
  });

  it('24/7 counts real minutes, also across DST; with a holiday it closes that day', () => {
    const always = toCalendar({ schedule: '24/7' });
    expect(businessMinutesBetween(always, at('2026-03-28T12:00:00Z'), at('2026-03-29T12:00:00Z'))).toBe(1440);
    expect(iso(addBusinessMinutes(always, at('2026-10-24T12:00:00Z'), 1440))).toBe(
      '2026-10-25T12:00:00.000Z',
    );
    expect(businessMinutesBetween(ALWAYS_OPEN, 0, 90_000)).toBe(1.5);
    const closedXmas = toCalendar({ schedule: '24/7', holidays: [{ date: '12-25', name: 'Christmas' }] });
    // 24 December 12:00 CET + 24 hours: 12 hours that day, none on the 25th, 12 on the 26th.
    expect(iso(addBusinessMinutes(closedXmas, at('2026-12-24T11:00:00Z'), 1440))).toBe(
      '2026-12-26T11:00:00.000Z',
    );
  });

  it('a calendar that never opens gives null instead of looping; zero minutes are due at once', () => {
    const never: Calendar = { zone: 'UTC', week: WEEKDAYS.map(() => []), holidays: [], yearlyHolidays: [] };
    expect(addBusinessMinutes(never, 0, 10)).toBeNull();
    expect(businessMinutesBetween(never, 0, 1e12)).toBe(0);
    expect(addBusinessMinutes(never, 5, 0)).toBe(5);
    // Only Mondays, and every day of the year a yearly holiday: the walk gives up.
    const allDays: string[] = [];
    for (let d = 0; d < 366; d++) allDays.push(new Date(Date.UTC(2000, 0, 1 + d)).toISOString().slice(5, 10));
    const blocked: Calendar = {
      ...never,
      week: [[{ from: 0, to: 60 }], [], [], [], [], [], []],
      yearlyHolidays: allDays,
    };
    expect(addBusinessMinutes(blocked, 0, 10)).toBeNull();
  });

  it('a year of office hours counts whole weeks at once and equals the days one by one', () => {
    // 2026 has 261 weekdays (52 weeks and a Thursday) of 510 minutes each (no holidays given).
    expect(businessMinutesBetween(office, at('2025-12-31T23:00:00Z'), at('2026-12-31T23:00:00Z'))).toBe(
      261 * 510,
    );
  });
});

/** Random calendars: a zone, 0-3 intervals per weekday (disjoint), maybe holidays. */
const zones = ['Europe/Amsterdam', 'UTC', 'America/New_York', 'Australia/Lord_Howe', 'Asia/Kolkata'];
const dayIntervals = fc.uniqueArray(fc.integer({ min: 0, max: 48 }), { maxLength: 6 }).map((points) => {
  const sorted = [...points].sort((a, b) => a - b);
  const out: { from: string; to: string }[] = [];
  const hhmm = (half: number) => `${String(Math.floor(half / 2)).padStart(2, '0')}:${half % 2 ? '30' : '00'}`;
  for (let k = 0; k + 1 < sorted.length; k += 2)
    out.push({ from: hhmm(sorted[k]!), to: hhmm(sorted[k + 1]!) });
  return out;
});
const workingCalendar = fc
  .record({
    zone: fc.constantFrom(...zones),
    days: fc.array(dayIntervals, { minLength: 7, maxLength: 7 }),
    holidays: fc.array(fc.constantFrom('12-25', '01-01', '02-29', '2026-03-30', '2026-10-26', '2027-01-04')),
  })
  .filter((r) => r.days.some((d) => d.length > 0))
  .map((r) =>
    toCalendar({
      schedule: Object.fromEntries(WEEKDAYS.map((day, i) => [day, r.days[i]])),
      timezone: r.zone,
      holidays: r.holidays.map((date) => ({ date, name: date })),
    }),
  );
const instant = fc.integer({ min: at('2025-12-01T00:00:00Z'), max: at('2028-03-31T00:00:00Z') });

/** The reference: the same sum one local day at a time, without skipping weeks. */
function dayByDay(calendar: Calendar, a: number, b: number): number {
  let total = 0;
  // Two days either side: a UTC date and the zone's wall date differ by one at most, and days outside
  // [a, b] add nothing (each is clipped to it).
  for (let t = a - 2 * 86_400_000; t < b + 2 * 86_400_000; t += 86_400_000) {
    const day = new Date(t).toISOString().slice(0, 10);
    const start = instantOfWall(calendar.zone, at(`${day}T00:00:00Z`));
    const end = instantOfWall(calendar.zone, at(`${day}T00:00:00Z`) + 86_400_000);
    const from = Math.max(start, a);
    const to = Math.min(end, b);
    if (to > from) total += businessMsBetween(calendar, from, to);
  }
  return total;
}

describe('business time, for any calendar', () => {
  it('between(start, add(start, m)) is m, and add(start, between(start, t)) is at most t', () => {
    fc.assert(
      fc.property(
        workingCalendar,
        instant,
        fc.integer({ min: 0, max: 40_000 }),
        instant,
        (c, start, m, t) => {
          const due = addBusinessMinutes(c, start, m);
          expect(due).not.toBeNull();
          expect(businessMinutesBetween(c, start, due!)).toBe(m);
          if (t >= start) {
            const back = addBusinessMinutes(c, start, businessMinutesBetween(c, start, t))!;
            expect(back).toBeLessThanOrEqual(t);
            expect(businessMsBetween(c, back, t)).toBe(0);
          }
        },
      ),
      { numRuns: 150 },
    );
  });

  it('is monotonic and additive, and skipping weeks changes nothing', () => {
    fc.assert(
      fc.property(workingCalendar, instant, instant, instant, fc.nat(5000), (c, x, y, z, m) => {
        const [a, b, d] = [x, y, z].sort((p, q) => p - q) as [number, number, number];
        expect(businessMsBetween(c, a, d)).toBe(businessMsBetween(c, a, b) + businessMsBetween(c, b, d));
        expect(addBusinessMinutes(c, a, m)!).toBeLessThanOrEqual(addBusinessMinutes(c, a, m + 1)!);
        expect(addBusinessMinutes(c, a, m)!).toBeLessThanOrEqual(addBusinessMinutes(c, b, m)!);
        if (d - a < 120 * 86_400_000) expect(businessMsBetween(c, a, d)).toBe(dayByDay(c, a, d));
      }),
      { numRuns: 100 },
    );
  });
});
