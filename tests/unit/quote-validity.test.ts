/**
 * When a quote has expired (common/quote-validity.ts): from the day after its validity date, counted in
 * Amsterdam whatever the zone of the server or browser; only while it is still to be decided on.
 */
import { describe, expect, it } from 'vitest';
import { quoteExpired, validityPassed, validityToday } from '../../common/quote-validity.ts';

describe('quote validity', () => {
  it('counts days in Amsterdam: 23:30 UTC on 30 November is already 1 December there', () => {
    expect(validityToday(new Date('2026-11-30T22:59:00Z'))).toBe('2026-11-30');
    expect(validityToday(new Date('2026-11-30T23:00:00Z'))).toBe('2026-12-01');
    // Summer time: two hours ahead of UTC.
    expect(validityToday(new Date('2026-06-30T21:59:00Z'))).toBe('2026-06-30');
    expect(validityToday(new Date('2026-06-30T22:00:00Z'))).toBe('2026-07-01');
  });

  it('a validity date holds through its whole day and has passed from the next', () => {
    const lastMinute = new Date('2026-11-30T22:59:00Z');
    const nextDay = new Date('2026-11-30T23:00:00Z');
    expect(validityPassed('2026-11-30', lastMinute)).toBe(false);
    expect(validityPassed('2026-11-30', nextDay)).toBe(true);
    expect(validityPassed('2026-12-01', nextDay)).toBe(false);
    expect(validityPassed('2026-11-30T00:00:00Z', nextDay)).toBe(true);
  });

  it('no date, or a value that is no date text, never passes', () => {
    const now = new Date('2026-12-01T12:00:00Z');
    for (const value of [null, undefined, '', 'soon', 20261130, new Date('2020-01-01')]) {
      expect(validityPassed(value, now)).toBe(false);
    }
  });

  it('only a concept or sent quote expires; an accepted or rejected one stays what it is', () => {
    const now = new Date('2026-12-01T12:00:00Z');
    const past = '2026-11-01';
    expect(quoteExpired({ status_id: 1, valid_until: past }, now)).toBe(true);
    expect(quoteExpired({ status_id: 2, valid_until: past }, now)).toBe(true);
    expect(quoteExpired({ status_id: '2', valid_until: past }, now)).toBe(true);
    expect(quoteExpired({ status_id: 3, valid_until: past }, now)).toBe(false);
    expect(quoteExpired({ status_id: 4, valid_until: past }, now)).toBe(false);
    expect(quoteExpired({ status_id: 2, valid_until: '2026-12-01' }, now)).toBe(false);
  });
});
