import { describe, expect, it } from 'vitest';
import {
  ELLIPSIS_LIMITS,
  ellipsis,
  formatFileSize,
  formatMinutes,
  formatMoney,
  formatQuantity,
  parseTime,
  sanitizeNumericInput,
} from '../../common/format.ts';

/**
 * common/format.ts on numbers and texts: amounts of money, durations in hh:mm read and written,
 * quantities, file sizes, the ellipsis limits of SPEC section 9 and numeric input. Dates:
 * format-dates.test.ts.
 */

/** The no-break space Intl puts between the euro sign and the amount. */
const NBSP = '\u00a0';

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
