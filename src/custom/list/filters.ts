/**
 * Header filters: what a filter control holds (the filter state, kept per user and route) and how it
 * becomes the data provider's filter object (SPEC 2, 5 and 9). Pure functions; the clock is passed in.
 *
 * Filter state: field name -> control value. `q` is the text search. Keys with an `@` are provider keys
 * (from presets written as builder lists) and pass through unchanged.
 *
 * Provider filter (the data provider's convention): `q` text search; `field: scalar` equals;
 * `field: array` one of (`[null]` is null); `field@op` comparison (= != < <= > >= like);
 * `field@null: true`; `field@notnull: true`; `field@between: [a, b]`.
 */

import {
  DATE_PRESETS,
  DATE_UNITS,
  type DateFilterValue,
  type DateUnit,
} from '../../../common/schema/date-presets.ts';

export type FilterState = Record<string, unknown>;

/** The filter state's key for builder items as they are (the data provider's `@builder`). */
export const RAW_ITEMS_KEY = '@builder';
export type ProviderFilter = Record<string, unknown>;

/** What a field's header control produces; from the type table of src/resources/fields/kinds.ts. */
export type FilterKind = 'text' | 'number' | 'boolean' | 'select' | 'date' | 'datetime';

export { DATE_PRESETS, DATE_UNITS } from '../../../common/schema/date-presets.ts';
export type { DateFilterValue, DatePreset, DateUnit } from '../../../common/schema/date-presets.ts';

export type SelectValue = string | number | null;

/** A date filter as an interval or a bound; `null` when the value is incomplete. */
export type DateCondition =
  { op: 'between'; from: Date; to: Date } | { op: '>' | '>=' | '<' | '<='; at: Date };

const startOfDay = (d: Date, days = 0) => new Date(d.getFullYear(), d.getMonth(), d.getDate() + days);
const endOfDay = (d: Date, days = 0) =>
  new Date(d.getFullYear(), d.getMonth(), d.getDate() + days, 23, 59, 59, 999);

/** now + value·unit; months are calendar months (31 January + 1 month = the end of February). */
export function addUnits(now: Date, value: number, unit: DateUnit): Date {
  const d = new Date(now.getTime());
  switch (unit) {
    case 'minutes':
      d.setMinutes(d.getMinutes() + value);
      return d;
    case 'hours':
      d.setHours(d.getHours() + value);
      return d;
    case 'days':
      d.setDate(d.getDate() + value);
      return d;
    case 'weeks':
      d.setDate(d.getDate() + 7 * value);
      return d;
    case 'months': {
      const day = d.getDate();
      d.setDate(1);
      d.setMonth(d.getMonth() + value);
      const last = new Date(d.getFullYear(), d.getMonth() + 1, 0).getDate();
      d.setDate(Math.min(day, last));
      return d;
    }
  }
}

export function isDateFilterValue(value: unknown): value is DateFilterValue {
  return (
    typeof value === 'object' && value !== null && DATE_PRESETS.includes((value as DateFilterValue).preset)
  );
}

/** The interval or bound a date preset means at `now` (local days). */
export function dateCondition(filter: DateFilterValue, now: Date): DateCondition | null {
  switch (filter.preset) {
    case 'today':
      return { op: 'between', from: startOfDay(now), to: endOfDay(now) };
    case 'future':
      return { op: '>', at: now };
    case 'past':
      return { op: '<', at: now };
    case 'plus1':
      return { op: 'between', from: startOfDay(now, 1), to: endOfDay(now, 1) };
    case 'plus2':
      return { op: 'between', from: startOfDay(now, 2), to: endOfDay(now, 2) };
    case 'plus3':
      return { op: '>=', at: startOfDay(now, 3) };
    case 'minus1':
      return { op: 'between', from: startOfDay(now, -1), to: endOfDay(now, -1) };
    case 'minus2':
      return { op: '<=', at: endOfDay(now, -2) };
    case 'range': {
      const [from, to] = [filter.from, filter.to].map((day) => {
        const [y, m, d] = (day ?? '').split('-').map(Number);
        return y && m && d ? new Date(y, m - 1, d) : undefined;
      });
      if (!from || !to) return null;
      return { op: 'between', from: startOfDay(from), to: endOfDay(to) };
    }
    case 'lte': {
      const value = Number(filter.value);
      if (filter.value === undefined || !Number.isFinite(value) || !filter.unit) return null;
      if (!DATE_UNITS.includes(filter.unit)) return null;
      return { op: '<=', at: addUnits(now, value, filter.unit) };
    }
    default:
      return null;
  }
}

const pad = (n: number) => String(n).padStart(2, '0');

/** A date field compares local calendar days ('YYYY-MM-DD'); a date-time field instants (ISO, UTC). */
export function dateWireValue(date: Date, kind: 'date' | 'datetime'): string {
  if (kind === 'datetime') return date.toISOString();
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/** One date filter as provider keys, e.g. today -> `{ 'updated_at@between': [start, end] }`. */
export function dateFilterToProvider(
  field: string,
  kind: 'date' | 'datetime',
  filter: DateFilterValue,
  now: Date,
): ProviderFilter {
  const condition = dateCondition(filter, now);
  if (!condition) return {};
  if (condition.op === 'between') {
    return { [`${field}@between`]: [dateWireValue(condition.from, kind), dateWireValue(condition.to, kind)] };
  }
  return { [`${field}@${condition.op}`]: dateWireValue(condition.at, kind) };
}

/**
 * Filter-state keys of custom fields: `custom_fields.<name>`, the name the forms use. A text is matched as
 * contained (`like`), `{ equals: value }` exactly (a select's option, a date); both become the builder item
 * `customField` (SPEC 7), which the server checks against the resource's morph type.
 */
export const CUSTOM_FIELD_PREFIX = 'custom_fields.';

export type CustomFieldFilterValue = string | { equals: string };

function customFieldItem(name: string, value: unknown): Record<string, unknown> | undefined {
  if (typeof value === 'string' && value.trim() !== '') return { customField: [name, 'like', value.trim()] };
  if (typeof value === 'object' && value !== null && 'equals' in value) {
    const equals = (value as { equals: unknown }).equals;
    if (typeof equals === 'string' && equals !== '') return { customField: [name, '=', equals] };
  }
  return undefined;
}

const isEmpty = (value: unknown) =>
  value === undefined ||
  value === null ||
  (typeof value === 'string' && value.trim() === '') ||
  (Array.isArray(value) && value.length === 0);

/**
 * The filter state as the data provider's filter object at `now`. Fields without a kind (no longer
 * filterable, or not visible to this user) are left out; empty values too.
 */
export function toProviderFilter(
  state: FilterState,
  kindOf: (field: string) => FilterKind | undefined,
  now: Date,
): ProviderFilter {
  const out: ProviderFilter = {};
  for (const [key, value] of Object.entries(state)) {
    if (isEmpty(value)) continue;
    if (key === 'q') {
      if (typeof value === 'string') out.q = value.trim();
      continue;
    }
    if (key.startsWith(CUSTOM_FIELD_PREFIX)) {
      const item = customFieldItem(key.slice(CUSTOM_FIELD_PREFIX.length), value);
      if (item) out['@builder'] = [...((out['@builder'] as unknown[]) ?? []), item];
      continue;
    }
    if (key === RAW_ITEMS_KEY) {
      // Builder items no header control holds (a rule's whereHas): the server checks each as any query.
      if (Array.isArray(value)) out['@builder'] = [...((out['@builder'] as unknown[]) ?? []), ...value];
      continue;
    }
    if (key.includes('@')) {
      if (kindOf(key.slice(0, key.indexOf('@')))) out[key] = value;
      continue;
    }
    const kind = kindOf(key);
    switch (kind) {
      case 'text':
        if (typeof value === 'string') out[`${key}@like`] = value.trim();
        else out[key] = value;
        break;
      case 'number': {
        const n = Number(value);
        if (Number.isFinite(n)) out[key] = n;
        break;
      }
      case 'boolean':
        if (typeof value === 'boolean') out[key] = value;
        break;
      case 'select':
        out[key] = value;
        break;
      case 'date':
      case 'datetime':
        if (isDateFilterValue(value)) Object.assign(out, dateFilterToProvider(key, kind, value, now));
        break;
      default:
        break;
    }
  }
  return out;
}

/**
 * SPEC 5: the '(none)' option (id null) of a column-filter selector clears the other selections, and
 * choosing another option clears '(none)'.
 */
export function applyNoneRule(previous: readonly SelectValue[], next: readonly SelectValue[]): SelectValue[] {
  const hadNone = previous.includes(null);
  const hasNone = next.includes(null);
  if (hasNone && !hadNone) return [null];
  if (hasNone && next.length > 1) return next.filter((v) => v !== null);
  return [...next];
}

/** A selector's value as a list (a preset may hold a single value, e.g. 'me'). */
export function selectValues(value: unknown): SelectValue[] {
  if (value === undefined) return [];
  const list = Array.isArray(value) ? value : [value];
  return list.filter((v): v is SelectValue => v === null || typeof v === 'string' || typeof v === 'number');
}

/** True when something filters the list. */
export function hasActiveFilter(state: FilterState): boolean {
  return Object.values(state).some((v) => !isEmpty(v));
}

/** Empty values dropped: two states that filter the same compare equal. */
export function normalizeFilter(state: FilterState): FilterState {
  return Object.fromEntries(Object.entries(state).filter(([, v]) => !isEmpty(v)));
}

function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const keys = Object.keys(value)
      .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
      .sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${stableJson((value as Record<string, unknown>)[k])}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** Whether two filter states filter the same (key order and empty values do not matter). */
export function sameFilter(a: FilterState, b: FilterState): boolean {
  return stableJson(normalizeFilter(a)) === stableJson(normalizeFilter(b));
}

const OPS = new Set(['=', '!=', '<', '<=', '>', '>=', 'like']);

/**
 * A preset written as a builder list (SPEC 7: where, whereIn, whereNull, whereNotNull, whereBetween, s)
 * as filter state; items a header filter cannot express (whereHas, other customField operators) are
 * left out.
 */
export function builderToFilterState(items: unknown): FilterState {
  const out: FilterState = {};
  if (!Array.isArray(items)) return out;
  for (const item of items) {
    if (typeof item !== 'object' || item === null) continue;
    const [kind, arg] = Object.entries(item)[0] ?? [];
    const args = Array.isArray(arg) ? (arg as unknown[]) : undefined;
    switch (kind) {
      case 'where': {
        if (!args || args.length < 2) break;
        const [field, op, value] = args.length === 3 ? args : [args[0], '=', args[1]];
        if (typeof field !== 'string' || typeof op !== 'string' || !OPS.has(op)) break;
        if (op === '=' || op === 'like') out[field] = value;
        else out[`${field}@${op}`] = value;
        break;
      }
      case 'whereIn':
        if (args && typeof args[0] === 'string' && Array.isArray(args[1])) out[args[0]] = args[1];
        break;
      case 'whereNull':
        if (typeof arg === 'string') out[`${arg}@null`] = true;
        break;
      case 'whereNotNull':
        if (typeof arg === 'string') out[`${arg}@notnull`] = true;
        break;
      case 'whereBetween':
        if (args && typeof args[0] === 'string' && Array.isArray(args[1]))
          out[`${args[0]}@between`] = args[1];
        break;
      case 's':
        if (typeof arg === 'string') out.q = arg;
        break;
      case 'customField':
        if (args && typeof args[0] === 'string' && typeof args[2] === 'string') {
          if (args[1] === 'like') out[`${CUSTOM_FIELD_PREFIX}${args[0]}`] = args[2];
          else if (args[1] === '=') out[`${CUSTOM_FIELD_PREFIX}${args[0]}`] = { equals: args[2] };
        }
        break;
      default:
        break;
    }
  }
  return out;
}

/**
 * A builder as filter state for a list link (a rule's preview): what the header controls can hold goes
 * to them, where the user sees and changes it; the rest (whereHas, …) travels as raw items, shown only
 * as an active filter the user can reset.
 */
export function builderToLinkFilter(items: readonly unknown[]): FilterState {
  const out: FilterState = {};
  const raw: unknown[] = [];
  for (const item of items) {
    const state = builderToFilterState([item]);
    if (Object.keys(state).length === 0) raw.push(item);
    else Object.assign(out, state);
  }
  return raw.length ? { ...out, [RAW_ITEMS_KEY]: raw } : out;
}
