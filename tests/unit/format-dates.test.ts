import { describe, expect, it } from 'vitest';
import {
  contractEndBadge,
  dueDateBadge,
  formatDate,
  formatDateTime,
  formatPeriodDate,
  parseDate,
  relativeTime,
} from '../../common/format.ts';

/**
 * common/format.ts on dates and moments: how a date is written in each language and time zone, how long
 * ago it was, and which badge a due or end date gets. Amounts, durations, sizes and texts:
 * format-numbers.test.ts.
 */

describe('formatDate (DD MMM YY)', () => {
  it('writes day, abbreviated month and two-digit year in each language', () => {
    expect(formatDate('2026-03-05', 'nl')).toBe('05 mrt 26');
    expect(formatDate('2026-03-05', 'en')).toBe('05 Mar 26');
    expect(formatDate('2026-03-05', 'de')).toBe('05 März 26');
  });

  it('is Dutch by default', () => {
    expect(formatDate('2026-10-31')).toBe('31 okt 26');
    expect(formatDate('2026-05-01')).toBe('01 mei 26');
  });

  it('drops the abbreviation dot of German months', () => {
    expect(formatDate('2026-01-15', 'de')).toBe('15 Jan 26');
    expect(formatDate('2026-12-24', 'de')).toBe('24 Dez 26');
    expect(formatDate('2026-12-24', 'nl')).toBe('24 dec 26');
    expect(formatDate('2026-12-24', 'en')).toBe('24 Dec 26');
  });

  it('shows a wall-clock value as written, whatever the time zone', () => {
    expect(formatDate('2026-03-05 23:59:59', 'nl')).toBe('05 mrt 26');
    expect(formatDate('2026-03-05T00:00', 'nl', 'Pacific/Kiritimati')).toBe('05 mrt 26');
    expect(formatDate('2009-01-01', 'nl')).toBe('01 jan 09');
  });

  it('shows an instant in the given time zone', () => {
    expect(formatDate('2026-03-05T23:30:00Z', 'nl', 'Europe/Amsterdam')).toBe('06 mrt 26');
    expect(formatDate('2026-03-05T23:30:00Z', 'nl', 'UTC')).toBe('05 mrt 26');
    expect(formatDate(new Date(Date.UTC(2026, 6, 1, 12)), 'en', 'UTC')).toBe('01 Jul 26');
    expect(formatDate(Date.UTC(2026, 6, 1, 12), 'de', 'UTC')).toBe('01 Juli 26');
    expect(formatDate('2026-03-05T23:30:00.000000Z', 'nl', 'Europe/Amsterdam')).toBe('06 mrt 26');
    expect(formatDate('2026-03-05 23:30:00+01:00', 'en', 'UTC')).toBe('05 Mar 26');
    expect(formatDate('2026-03-05T00:30:00-0500', 'en', 'UTC')).toBe('05 Mar 26');
  });

  it('is empty for no value or a value that is not a date', () => {
    expect(formatDate(null)).toBe('');
    expect(formatDate(undefined)).toBe('');
    expect(formatDate('')).toBe('');
    expect(formatDate('not a date')).toBe('');
    expect(formatDate('2026-02-31')).toBe('');
    expect(formatDate('1')).toBe('');
    expect(formatDate('March 5, 2026')).toBe('');
    expect(formatDate(new Date(Number.NaN))).toBe('');
  });
});

describe('formatPeriodDate (DD-MM-YYYY)', () => {
  it('writes periods with dashes', () => {
    expect(formatPeriodDate('2026-03-05')).toBe('05-03-2026');
    expect(formatPeriodDate('2026-12-31 23:59:00')).toBe('31-12-2026');
    expect(formatPeriodDate('2026-03-05T23:30:00Z', 'Europe/Amsterdam')).toBe('06-03-2026');
  });

  it('is empty without a date', () => {
    expect(formatPeriodDate(null)).toBe('');
    expect(formatPeriodDate('31-12-2026')).toBe('');
  });
});

describe('formatDateTime (D MMMM HH:mm)', () => {
  it('writes the date pickers’ display format in each language', () => {
    expect(formatDateTime('2026-03-05 14:30:00', 'nl')).toBe('5 maart 14:30');
    expect(formatDateTime('2026-03-05 14:30:00', 'en')).toBe('5 March 14:30');
    expect(formatDateTime('2026-03-05 14:30:00', 'de')).toBe('5 März 14:30');
  });

  it('uses a 24-hour clock with two-digit hours', () => {
    expect(formatDateTime('2026-10-21 00:05:00')).toBe('21 oktober 00:05');
    expect(formatDateTime('2026-10-21 09:00:00', 'en')).toBe('21 October 09:00');
    expect(formatDateTime('2026-10-21', 'de')).toBe('21 Oktober 00:00');
  });

  it('shows an instant in the given time zone', () => {
    expect(formatDateTime('2026-07-01T10:00:00Z', 'nl', 'Europe/Amsterdam')).toBe('1 juli 12:00');
  });

  it('is empty without a date', () => {
    expect(formatDateTime(undefined)).toBe('');
  });
});

describe('relativeTime', () => {
  const now = new Date(2026, 2, 5, 12, 0, 0);
  const before = (ms: number) => new Date(now.getTime() - ms);
  const after = (ms: number) => new Date(now.getTime() + ms);
  const MIN = 60_000;
  const HOUR = 60 * MIN;
  const DAY = 24 * HOUR;

  it('says now under a minute', () => {
    expect(relativeTime(now, now, 'nl')).toBe('nu');
    expect(relativeTime(before(30_000), now, 'en')).toBe('now');
    expect(relativeTime(after(59_000), now, 'de')).toBe('jetzt');
  });

  it('counts minutes, hours, days, weeks, months and years', () => {
    expect(relativeTime(before(5 * MIN), now, 'nl')).toBe('5 minuten geleden');
    expect(relativeTime(before(5 * MIN), now, 'en')).toBe('5 minutes ago');
    expect(relativeTime(before(5 * MIN), now, 'de')).toBe('vor 5 Minuten');
    expect(relativeTime(before(1 * MIN), now, 'en')).toBe('1 minute ago');
    expect(relativeTime(before(3 * HOUR + 59 * MIN), now, 'nl')).toBe('3 uur geleden');
    expect(relativeTime(after(2 * HOUR), now, 'en')).toBe('in 2 hours');
    expect(relativeTime(before(DAY), now, 'nl')).toBe('gisteren');
    expect(relativeTime(before(DAY), now, 'en')).toBe('yesterday');
    expect(relativeTime(before(DAY), now, 'de')).toBe('gestern');
    expect(relativeTime(before(3 * DAY), now, 'nl')).toBe('3 dagen geleden');
    expect(relativeTime(before(14 * DAY), now, 'en')).toBe('2 weeks ago');
    expect(relativeTime(before(60 * DAY), now, 'de')).toBe('vor 2 Monaten');
    expect(relativeTime(before(800 * DAY), now, 'nl')).toBe('2 jaar geleden');
  });

  it('takes API date strings and is Dutch by default', () => {
    expect(relativeTime('2026-03-05 11:00:00', now)).toBe('1 uur geleden');
    expect(relativeTime(null, now)).toBe('');
  });
});

describe('dueDateBadge', () => {
  const now = new Date(2026, 2, 5, 12, 0, 0);

  it('is past when the moment has passed and upcoming before it', () => {
    expect(dueDateBadge('2026-03-05 11:59:00', now)).toBe('past');
    expect(dueDateBadge('2026-03-05 12:00:00', now)).toBe('past');
    expect(dueDateBadge('2026-03-05 12:01:00', now)).toBe('upcoming');
  });

  it('is upcoming within 30 days only; a date further away is later, not flagged', () => {
    expect(dueDateBadge('2026-04-04', now)).toBe('upcoming');
    expect(dueDateBadge('2026-04-04 12:00:00', now)).toBe('upcoming');
    expect(dueDateBadge('2026-04-04 12:01:00', now)).toBe('later');
    expect(dueDateBadge('2026-04-05', now)).toBe('later');
    // A warranty 14 months away is not 'soon'.
    expect(dueDateBadge(new Date(2027, 4, 5), now)).toBe('later');
  });

  it('keeps a date without a time upcoming until the end of that day', () => {
    expect(dueDateBadge('2026-03-05', now)).toBe('upcoming');
    expect(dueDateBadge('2026-03-04', now)).toBe('past');
  });

  it('is none without a date', () => {
    expect(dueDateBadge(null, now)).toBe('none');
    expect(dueDateBadge('', now)).toBe('none');
    expect(dueDateBadge('soon', now)).toBe('none');
  });
});

describe('contractEndBadge', () => {
  const now = new Date(2026, 2, 5, 12, 0, 0);

  it('is red once the end date has passed', () => {
    expect(contractEndBadge('2026-03-04', now)).toBe('red');
    expect(contractEndBadge('2025-01-01', now)).toBe('red');
  });

  it('is yellow within a month', () => {
    expect(contractEndBadge('2026-03-05', now)).toBe('yellow');
    expect(contractEndBadge('2026-03-20', now)).toBe('yellow');
    expect(contractEndBadge('2026-04-05', now)).toBe('yellow');
  });

  it('is green further away', () => {
    expect(contractEndBadge('2026-04-06', now)).toBe('green');
    expect(contractEndBadge('2027-03-05', now)).toBe('green');
  });

  it('is none without an end date: green means an end date is set', () => {
    expect(contractEndBadge(null, now)).toBe('none');
    expect(contractEndBadge('', now)).toBe('none');
  });

  it('takes a month from the end of January as the end of February', () => {
    const endOfJanuary = new Date(2026, 0, 31, 9, 0, 0);
    expect(contractEndBadge('2026-02-28', endOfJanuary)).toBe('yellow');
    expect(contractEndBadge('2026-03-01', endOfJanuary)).toBe('green');
  });
});

describe('parseDate', () => {
  it('reads wall-clock values in the local time zone', () => {
    expect(parseDate('2026-03-05 14:30:00')?.getTime()).toBe(new Date(2026, 2, 5, 14, 30).getTime());
    expect(parseDate('2026-03-05')?.getTime()).toBe(new Date(2026, 2, 5).getTime());
    expect(parseDate('2026-03-05T14:30:00Z')?.getTime()).toBe(Date.UTC(2026, 2, 5, 14, 30));
    expect(parseDate('2026-13-01')).toBeNull();
    expect(parseDate('2026-03-05 24:00:00')).toBeNull();
  });
});
