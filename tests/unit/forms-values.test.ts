/**
 * The date pickers' value (SPEC 9): 'YYYY-MM-DD HH:mm:ss' of the wall-clock time plus its UTC offset, on a
 * 5-minute step.
 */
import { describe, expect, it } from 'vitest';
import { PICKER_MINUTES_STEP, pickerValue, roundToMinutesStep } from '../../common/format.ts';

describe('date picker values', () => {
  it('the value format is YYYY-MM-DD HH:mm:ss with the offset of that moment', () => {
    const date = new Date(2026, 2, 5, 14, 30, 0);
    const value = pickerValue(date)!;
    expect(value).toMatch(/^2026-03-05 14:30:00[+-]\d{2}:\d{2}$/);
    // The same moment again.
    expect(new Date(value.replace(' ', 'T')).getTime()).toBe(date.getTime());
    expect(pickerValue(null)).toBeNull();
    expect(pickerValue(new Date(Number.NaN))).toBeNull();
  });

  it('moves a time to the nearest 5 minutes and drops seconds', () => {
    expect(PICKER_MINUTES_STEP).toBe(5);
    const at = (h: number, m: number, s = 0) => new Date(2026, 0, 10, h, m, s);
    expect(roundToMinutesStep(at(14, 32, 40))).toEqual(at(14, 30));
    expect(roundToMinutesStep(at(14, 33))).toEqual(at(14, 35));
    expect(roundToMinutesStep(at(23, 58))).toEqual(new Date(2026, 0, 11, 0, 0));
  });
});
