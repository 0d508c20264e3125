/**
 * Single values from the query string (already split by qs), checked before they can reach SQL: lists as
 * qs hands them over, texts PostgreSQL can hold, values converted to a field's type, page numbers.
 */
import type { Field } from '../../common/schema/types.ts';
import type { Scalar } from './tree.ts';
import { QUERY_LIMITS } from './limits.ts';

const INT_MAX = 2_147_483_647;

/** qs turns a[0]=x into an array, but a[150]=x (past arrayLimit) into an object with numeric keys. */
export function asList(value: unknown): unknown[] | undefined {
  if (Array.isArray(value)) return value;
  if (value && typeof value === 'object') {
    const keys = Object.keys(value);
    if (keys.length > 0 && keys.every((k) => /^\d+$/.test(k))) {
      return keys.sort((a, b) => Number(a) - Number(b)).map((k) => (value as Record<string, unknown>)[k]);
    }
  }
  return undefined;
}

/**
 * The query string with every list as a list: qs hands a list longer than its arrayLimit (or one with
 * an index past it) over as an object with numeric keys. Made a list here, in index order, as `asList`
 * reads it, so the route schemas (a `whereIn` of 150 ids is an array) and our parser see one shape.
 * Bounded by qs's own limits (depth, parameters) before this runs.
 */
export function compactLists(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(compactLists);
  if (!value || typeof value !== 'object') return value;
  const list = asList(value);
  if (list) return list.map(compactLists);
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, compactLists(v)]));
}

export function isScalarInput(v: unknown): v is string | number | boolean {
  return typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean';
}

const DATE_TIME = /^\d{4}-\d{2}-\d{2}([ T]\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}(:?\d{2})?)?)?$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

/**
 * Why a text from the query string cannot reach SQL, or undefined: too long, or holding the NUL
 * character, which PostgreSQL text cannot hold (the statement would fail with a 500).
 */
export function textProblem(text: string, what: string): string | undefined {
  if (text.length > QUERY_LIMITS.maxTextLength) {
    return `${what} may not be longer than ${QUERY_LIMITS.maxTextLength} characters.`;
  }
  if (text.includes('\u0000')) return `${what} may not contain the NUL character.`;
  return undefined;
}

/** A query-string value converted to the field's type, or an error line. */
export function coerce(field: Field, raw: unknown): { value: Scalar } | { error: string } {
  if (!isScalarInput(raw)) return { error: `The value for ${field.name} must be a single value.` };
  const text = String(raw);
  const problem = textProblem(text, `The value for ${field.name}`);
  if (problem) return { error: problem };
  switch (field.type) {
    case 'integer': {
      if (!/^-?\d{1,10}$/.test(text) || Math.abs(Number(text)) > INT_MAX) {
        return { error: `The value for ${field.name} must be a whole number.` };
      }
      return { value: Number(text) };
    }
    case 'number': {
      const n = Number(text);
      if (text.trim() === '' || !Number.isFinite(n))
        return { error: `The value for ${field.name} must be a number.` };
      return { value: n };
    }
    case 'boolean': {
      if (['true', '1'].includes(text)) return { value: true };
      if (['false', '0'].includes(text)) return { value: false };
      return { error: `The value for ${field.name} must be true or false.` };
    }
    case 'string': {
      if (
        field.format === 'date-time' &&
        !(DATE_TIME.test(text) && !Number.isNaN(Date.parse(text.replace(' ', 'T'))))
      ) {
        return { error: `The value for ${field.name} must be a date and time (YYYY-MM-DD HH:mm:ss).` };
      }
      if (field.format === 'date' && !(DATE.test(text) && !Number.isNaN(Date.parse(text)))) {
        return { error: `The value for ${field.name} must be a date (YYYY-MM-DD).` };
      }
      return { value: text };
    }
    default:
      return { error: `The field ${field.name} cannot be filtered.` };
  }
}

export function positiveInt(raw: unknown, max: number): number | undefined {
  if (typeof raw === 'number' && Number.isInteger(raw) && raw >= 1 && raw <= max) return raw;
  if (typeof raw === 'string' && /^\d{1,10}$/.test(raw) && Number(raw) >= 1 && Number(raw) <= max)
    return Number(raw);
  return undefined;
}
