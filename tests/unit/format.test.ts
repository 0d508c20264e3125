import { describe, expect, it } from 'vitest';
import {
  contractEndBadge,
  dueDateBadge,
  ELLIPSIS_LIMITS,
  ellipsis,
  formatDate,
  formatDateTime,
  formatFileSize,
  formatMinutes,
  formatMoney,
  formatPeriodDate,
  formatQuantity,
  parseDate,
  parseTime,
  relativeTime,
  sanitizeNumericInput,
} from '../../common/format.ts';

/** The no-break space Intl puts between the euro sign and the amount. */
const NBSP = '\u00a0';

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

describe('formatMoney (euros, two decimals)', () => {
  it('writes what Intl writes for EUR in each language', () => {
    expect(formatMoney(1234.5, 'nl')).toBe(`€${NBSP}1.234,50`);
    expect(formatMoney(1234.5, 'en')).toBe('€1,234.50');
    expect(formatMoney(1234.5, 'de')).toBe(`1.234,50${NBSP}€`);
  });

  it('always shows two decimals and rounds to cents', () => {
    expect(formatMoney(0)).toBe(`€${NBSP}0,00`);
    expect(formatMoney(12)).toBe(`€${NBSP}12,00`);
    expect(formatMoney(0.125, 'en')).toBe('€0.13');
    expect(formatMoney(1234567.891, 'nl')).toBe(`€${NBSP}1.234.567,89`);
  });

  it('takes the API’s decimal strings', () => {
    expect(formatMoney('1234.50', 'nl')).toBe(`€${NBSP}1.234,50`);
    expect(formatMoney('99.9', 'de')).toBe(`99,90${NBSP}€`);
  });

  it('writes negative amounts and never -0', () => {
    expect(formatMoney(-1234.5, 'nl')).toBe(`€${NBSP}-1.234,50`);
    expect(formatMoney(-1234.5, 'en')).toBe('-€1,234.50');
    expect(formatMoney(-1234.5, 'de')).toBe(`-1.234,50${NBSP}€`);
    expect(formatMoney(-0)).toBe(`€${NBSP}0,00`);
  });

  it('is empty for no amount', () => {
    expect(formatMoney(null)).toBe('');
    expect(formatMoney(undefined)).toBe('');
    expect(formatMoney('')).toBe('');
    expect(formatMoney('abc')).toBe('');
    expect(formatMoney(Number.NaN)).toBe('');
  });
});

describe('formatMinutes (HH:MM)', () => {
  it('writes hours and minutes with two digits each', () => {
    expect(formatMinutes(0)).toBe('00:00');
    expect(formatMinutes(5)).toBe('00:05');
    expect(formatMinutes(60)).toBe('01:00');
    expect(formatMinutes(90)).toBe('01:30');
    expect(formatMinutes(605)).toBe('10:05');
    expect(formatMinutes(1439)).toBe('23:59');
  });

  it('does not wrap at a day', () => {
    expect(formatMinutes(1440)).toBe('24:00');
    expect(formatMinutes(6000)).toBe('100:00');
  });

  it('writes negative durations with a minus sign', () => {
    expect(formatMinutes(-90)).toBe('-01:30');
    expect(formatMinutes(-5)).toBe('-00:05');
    expect(formatMinutes(-0)).toBe('00:00');
  });

  it('rounds fractions of a minute and takes strings', () => {
    expect(formatMinutes(89.6)).toBe('01:30');
    expect(formatMinutes('605')).toBe('10:05');
  });

  it('is empty for no value', () => {
    expect(formatMinutes(null)).toBe('');
    expect(formatMinutes('x')).toBe('');
  });
});

describe('parseTime (hh:mm or minutes)', () => {
  it('reads hh:mm as minutes', () => {
    expect(parseTime('01:30')).toBe(90);
    expect(parseTime('1:30')).toBe(90);
    expect(parseTime('10:05')).toBe(605);
    expect(parseTime('0:00')).toBe(0);
    expect(parseTime('100:00')).toBe(6000);
    expect(parseTime(' 2:15 ')).toBe(135);
  });

  it('reads a plain number as minutes', () => {
    expect(parseTime('90')).toBe(90);
    expect(parseTime('0')).toBe(0);
    expect(parseTime(' 45 ')).toBe(45);
  });

  it('is null for anything else', () => {
    for (const text of [
      '',
      '  ',
      '1:60',
      '1:5',
      ':30',
      '1:30:00',
      '-10',
      '1.5',
      '1,5',
      'abc',
      '1h30',
      '12:3a',
    ]) {
      expect(parseTime(text), text).toBeNull();
    }
    expect(parseTime(null)).toBeNull();
    expect(parseTime(undefined)).toBeNull();
  });

  it('reads back what formatMinutes writes', () => {
    for (const m of [0, 1, 59, 60, 61, 605, 1439, 6000]) expect(parseTime(formatMinutes(m))).toBe(m);
  });
});

describe('formatQuantity (fractions with 2 decimals)', () => {
  it('writes whole numbers as they are', () => {
    expect(formatQuantity(2, 'nl')).toBe('2');
    expect(formatQuantity(0, 'en')).toBe('0');
    expect(formatQuantity(-3, 'de')).toBe('-3');
    expect(formatQuantity(1500, 'nl')).toBe('1500');
    expect(formatQuantity('2.00', 'nl')).toBe('2');
  });

  it('writes fractions with two decimals in the locale’s notation', () => {
    expect(formatQuantity(1.5, 'nl')).toBe('1,50');
    expect(formatQuantity(1.5, 'en')).toBe('1.50');
    expect(formatQuantity(1.5, 'de')).toBe('1,50');
    expect(formatQuantity(0.333, 'nl')).toBe('0,33');
    expect(formatQuantity('2.75')).toBe('2,75');
    expect(formatQuantity(1234.5, 'en')).toBe('1234.50');
    expect(formatQuantity(-0.5, 'nl')).toBe('-0,50');
  });

  it('is empty for no value', () => {
    expect(formatQuantity(null)).toBe('');
    expect(formatQuantity('')).toBe('');
  });
});

describe('formatFileSize (units of 1024)', () => {
  it('writes bytes as a whole number', () => {
    expect(formatFileSize(0)).toBe('0 B');
    expect(formatFileSize(512)).toBe('512 B');
    expect(formatFileSize(1023)).toBe('1023 B');
  });

  it('writes larger units with one decimal in the locale’s notation', () => {
    expect(formatFileSize(1024, 'nl')).toBe('1,0 KB');
    expect(formatFileSize(1536, 'nl')).toBe('1,5 KB');
    expect(formatFileSize(1536, 'en')).toBe('1.5 KB');
    expect(formatFileSize(1536, 'de')).toBe('1,5 KB');
    expect(formatFileSize(1024 * 1024, 'en')).toBe('1.0 MB');
    expect(formatFileSize(5.25 * 1024 * 1024, 'nl')).toBe('5,3 MB');
    expect(formatFileSize(3 * 1024 ** 3, 'de')).toBe('3,0 GB');
    expect(formatFileSize(2 * 1024 ** 4, 'en')).toBe('2.0 TB');
    expect(formatFileSize(2048 * 1024 ** 4, 'en')).toBe('2048.0 TB');
  });

  it('moves up a unit rather than writing 1024,0', () => {
    expect(formatFileSize(1024 * 1024 - 1, 'nl')).toBe('1,0 MB');
  });

  it('is empty for no or a negative size', () => {
    expect(formatFileSize(null)).toBe('');
    expect(formatFileSize(-1)).toBe('');
  });
});

describe('ellipsis', () => {
  it('has the limits of SPEC section 9', () => {
    expect(ELLIPSIS_LIMITS).toEqual({ name: 30, phone: 35, ticketDescription: 50, idText: 10, generic: 35 });
  });

  it('keeps a text up to the limit and cuts a longer one', () => {
    expect(ellipsis('Jansen', ELLIPSIS_LIMITS.name)).toBe('Jansen');
    expect(ellipsis('1234567890', ELLIPSIS_LIMITS.idText)).toBe('1234567890');
    expect(ellipsis('12345678901', ELLIPSIS_LIMITS.idText)).toBe('1234567890…');
    expect(ellipsis('a'.repeat(50), ELLIPSIS_LIMITS.ticketDescription)).toBe('a'.repeat(50));
    expect(ellipsis('a'.repeat(51), ELLIPSIS_LIMITS.ticketDescription)).toBe(`${'a'.repeat(50)}…`);
  });

  it('uses the generic limit by default and drops the space before the mark', () => {
    expect(ellipsis('x'.repeat(36))).toBe(`${'x'.repeat(35)}…`);
    expect(ellipsis('Printer on the third floor is out of toner again')).toBe(
      'Printer on the third floor is out o…',
    );
    expect(ellipsis('Hello world', 6)).toBe('Hello…');
  });

  it('never splits a character', () => {
    expect(ellipsis('😀😀😀', 2)).toBe('😀😀…');
  });

  it('is empty for no text and writes numbers', () => {
    expect(ellipsis(null)).toBe('');
    expect(ellipsis(undefined, 10)).toBe('');
    expect(ellipsis(12345678901, 10)).toBe('1234567890…');
  });
});

describe('sanitizeNumericInput', () => {
  it('keeps digits, dots and minus signs and turns a comma into a dot', () => {
    expect(sanitizeNumericInput('12,50')).toBe('12.50');
    expect(sanitizeNumericInput('-3.5')).toBe('-3.5');
    expect(sanitizeNumericInput('€ 1 234,5 ')).toBe('1234.5');
    expect(sanitizeNumericInput('abc')).toBe('');
    expect(sanitizeNumericInput('1e5')).toBe('15');
    expect(sanitizeNumericInput('+7')).toBe('7');
    expect(sanitizeNumericInput('')).toBe('');
    expect(sanitizeNumericInput(null)).toBe('');
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
