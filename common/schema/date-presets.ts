/**
 * The date filter's presets (SPEC 9) as names: what a date header filter holds, and what an `x-views`
 * condition `[field, "date", { preset, value?, unit? }]` may name (schemas/README.md, "List views"). In
 * common so the schema check at start and the apps share one list; the apps turn a preset into instants
 * at the moment they ask (src/custom/list/filters.ts), so the server only ever sees plain bounds.
 */

/**
 * SPEC 9: today, future, past, +1 day, +2 days, +3 days and later, -1 day, -2 days and earlier, and 'lte';
 * and 'range', two calendar days and the days between (a report's figure opens its tickets with one).
 */
export const DATE_PRESETS = [
  'today',
  'future',
  'past',
  'plus1',
  'plus2',
  'plus3',
  'minus1',
  'minus2',
  'lte',
  'range',
] as const;
export type DatePreset = (typeof DATE_PRESETS)[number];

export const DATE_UNITS = ['minutes', 'hours', 'days', 'weeks', 'months'] as const;
export type DateUnit = (typeof DATE_UNITS)[number];

export interface DateFilterValue {
  preset: DatePreset;
  /** For 'lte': now plus this many units. */
  value?: number;
  unit?: DateUnit;
  /** For 'range': the first and last day, YYYY-MM-DD, both included. */
  from?: string;
  to?: string;
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** Whether a value is a complete date filter value ('lte' with a finite number and a known unit). */
export function isCompleteDatePreset(value: unknown): value is DateFilterValue {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const v = value as Record<string, unknown>;
  if (!(DATE_PRESETS as readonly unknown[]).includes(v.preset)) return false;
  if (v.preset === 'range')
    return typeof v.from === 'string' && DAY.test(v.from) && typeof v.to === 'string' && DAY.test(v.to);
  if (v.from !== undefined || v.to !== undefined) return false;
  if (v.preset !== 'lte') return v.value === undefined && v.unit === undefined;
  return (
    typeof v.value === 'number' &&
    Number.isFinite(v.value) &&
    (DATE_UNITS as readonly unknown[]).includes(v.unit)
  );
}
