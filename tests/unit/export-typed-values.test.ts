/**
 * Export values a spreadsheet computes with (server/exports/typed-values.ts): a stored date or moment
 * as the desk's wall clock (Dutch time across daylight-saving changes; a text without a zone keeps its
 * own time; an impossible date is none), and numbers as plain decimals in the language.
 */
import { describe, expect, it } from 'vitest';
import { numberOf, plainNumber, sheetDate, wallClock } from '../../server/exports/typed-values.ts';

describe('export values', () => {
  it('reads a moment as the wall clock in Amsterdam, in winter and in summer', () => {
    expect(wallClock(new Date('2026-01-15T08:05:00Z'))).toEqual({ date: '2026-01-15', time: '09:05' });
    expect(wallClock('2026-07-01T22:30:00.000Z')).toEqual({ date: '2026-07-02', time: '00:30' });
    // The night the clocks go forward: 01:30 UTC is 03:30 summer time.
    expect(wallClock('2026-03-29T01:30:00Z')).toEqual({ date: '2026-03-29', time: '03:30' });
  });

  it('keeps a date and a text without a zone as they are, and refuses what is no date', () => {
    expect(wallClock('2026-02-28')).toEqual({ date: '2026-02-28', time: '00:00' });
    expect(wallClock('2026-11-30 14:00:00')).toEqual({ date: '2026-11-30', time: '14:00' });
    for (const none of ['2026-02-31', '2026-11-30 25:00', 'gisteren', '', null, undefined])
      expect(wallClock(none), String(none)).toBeNull();
  });

  it('makes a sheet date whose UTC fields are the wall clock', () => {
    expect(sheetDate({ date: '2026-07-01', time: '14:30' }).toISOString()).toBe('2026-07-01T14:30:00.000Z');
  });

  it('writes numbers plainly, with the decimal comma in Dutch and German', () => {
    expect(plainNumber(1234.5, 'nl', 2)).toBe('1234,50');
    expect(plainNumber(1234.5, 'de', 2)).toBe('1234,50');
    expect(plainNumber(1234.5, 'en', 2)).toBe('1234.50');
    expect(plainNumber(2.125, 'nl')).toBe('2,13');
    expect(plainNumber(3, 'en')).toBe('3');
    expect(numberOf('12.50')).toBe(12.5);
    expect(numberOf('twaalf')).toBeNull();
    expect(numberOf('')).toBeNull();
  });
});
