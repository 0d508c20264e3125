/** A time registration's rounded time: up to the tenant's step (time_rounding_minutes, 15 in the demo). */
import { describe, expect, it } from 'vitest';
import { roundTimeSpent } from '../../server/resources/time-registrations/hooks.ts';

describe('roundTimeSpent', () => {
  it('rounds up to whole steps and keeps a whole step as it is', () => {
    expect(roundTimeSpent(90, 15)).toBe(90);
    expect(roundTimeSpent(20, 15)).toBe(30);
    expect(roundTimeSpent(1, 15)).toBe(15);
    expect(roundTimeSpent(0, 15)).toBe(0);
    expect(roundTimeSpent(61, 30)).toBe(90);
  });

  it('leaves the time as it is without a valid step', () => {
    expect(roundTimeSpent(20, 0)).toBe(20);
    expect(roundTimeSpent(20, Number.NaN)).toBe(20);
    expect(roundTimeSpent(20, -15)).toBe(20);
    expect(roundTimeSpent(20, 7.5)).toBe(20);
  });
});
