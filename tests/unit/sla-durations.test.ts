/**
 * The SLA panel's words for a span of business minutes (src/resources/tickets/sla/answer.ts): hours and
 * minutes, never a negative number (the words say which way), overdue once the remaining time is below 0.
 */
import { describe, expect, it } from 'vitest';
import type { TranslateFunction } from 'react-admin';
import { durationText, remainingText } from '../../src/resources/tickets/sla/answer.ts';

/** The key and its values, so the test reads what the screen asks the catalogue for. */
const translate = ((key: string, values?: Record<string, unknown>) =>
  `${key}${values ? JSON.stringify(values) : ''}`) as TranslateFunction;

describe('SLA durations', () => {
  it('says minutes, hours, or both', () => {
    expect(durationText(translate, 40)).toBe('sla.duration.minutes{"m":40}');
    expect(durationText(translate, 0)).toBe('sla.duration.minutes{"m":0}');
    expect(durationText(translate, 120)).toBe('sla.duration.hours{"h":2}');
    expect(durationText(translate, 135)).toBe('sla.duration.hours_minutes{"h":2,"m":15}');
    expect(durationText(translate, -135)).toBe('sla.duration.hours_minutes{"h":2,"m":15}');
  });

  it('says what is left, or how far past due', () => {
    expect(remainingText(translate, 135)).toBe(
      'sla.left{"time":"sla.duration.hours_minutes{\\"h\\":2,\\"m\\":15}"}',
    );
    expect(remainingText(translate, 1)).toBe('sla.left{"time":"sla.duration.minutes{\\"m\\":1}"}');
    // Breached at its due instant: nothing left, and overdue by less than a minute.
    expect(remainingText(translate, 0, true)).toBe('sla.overdue{"time":"sla.duration.under_minute"}');
    expect(remainingText(translate, -40)).toBe('sla.overdue{"time":"sla.duration.minutes{\\"m\\":40}"}');
  });
});
