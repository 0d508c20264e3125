import { describe, expect, it } from 'vitest';
import { tooManyAttemptsMessage } from '../../server/auth/rate-limit.ts';

// The limits themselves are tested against the limiter in the database: tests/api/attempt-limits.test.ts.

describe('tooManyAttemptsMessage', () => {
  it('says whole minutes from a minute on, else whole seconds, rounded up and never 0', () => {
    expect(tooManyAttemptsMessage(15 * 60_000)).toBe(
      'Too many login attempts. Please try again in 15 minutes.',
    );
    expect(tooManyAttemptsMessage(14 * 60_000 + 1)).toBe(
      'Too many login attempts. Please try again in 15 minutes.',
    );
    expect(tooManyAttemptsMessage(60_000)).toBe('Too many login attempts. Please try again in 1 minutes.');
    expect(tooManyAttemptsMessage(59_001)).toBe('Too many login attempts. Please try again in 60 seconds.');
    expect(tooManyAttemptsMessage(1_500)).toBe('Too many login attempts. Please try again in 2 seconds.');
    expect(tooManyAttemptsMessage(1)).toBe('Too many login attempts. Please try again in 1 seconds.');
  });
});
