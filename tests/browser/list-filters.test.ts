import { describe, expect, it } from 'vitest';
import {
  addUnits,
  applyNoneRule,
  builderToFilterState,
  builderToLinkFilter,
  dateCondition,
  dateFilterToProvider,
  hasActiveFilter,
  sameFilter,
  selectValues,
  toProviderFilter,
  type FilterKind,
} from '../../src/custom/list/filters.ts';

// A fixed clock: Wednesday 5 March 2025, 14:30:15.250 local time.
const NOW = new Date(2025, 2, 5, 14, 30, 15, 250);
const iso = (...args: [number, number, number, number?, number?, number?, number?]) =>
  new Date(...(args as [number, number, number, number, number, number, number])).toISOString();
const startOf = (day: number) => iso(2025, 2, day, 0, 0, 0, 0);
const endOf = (day: number) => iso(2025, 2, day, 23, 59, 59, 999);

describe('date filter presets -> provider filter keys (SPEC 9), fixed clock', () => {
  const f = (preset: any, extra: object = {}) =>
    dateFilterToProvider('updated_at', 'datetime', { preset, ...extra }, NOW);

  it('today: between the start and the end of today', () => {
    expect(f('today')).toEqual({ 'updated_at@between': [startOf(5), endOf(5)] });
  });

  it('future and past: after and before now', () => {
    expect(f('future')).toEqual({ 'updated_at@>': NOW.toISOString() });
    expect(f('past')).toEqual({ 'updated_at@<': NOW.toISOString() });
  });

  it('+1 day and +2 days: that whole day', () => {
    expect(f('plus1')).toEqual({ 'updated_at@between': [startOf(6), endOf(6)] });
    expect(f('plus2')).toEqual({ 'updated_at@between': [startOf(7), endOf(7)] });
  });

  it('+3 days and later: from the start of that day on', () => {
    expect(f('plus3')).toEqual({ 'updated_at@>=': startOf(8) });
  });

  it('-1 day: yesterday; -2 days and earlier: up to the end of that day', () => {
    expect(f('minus1')).toEqual({ 'updated_at@between': [startOf(4), endOf(4)] });
    expect(f('minus2')).toEqual({ 'updated_at@<=': endOf(3) });
  });

  it("'lte' with a value and a unit: up to now plus value·unit", () => {
    expect(f('lte', { value: 3, unit: 'days' })).toEqual({
      'updated_at@<=': iso(2025, 2, 8, 14, 30, 15, 250),
    });
    expect(f('lte', { value: 90, unit: 'minutes' })).toEqual({
      'updated_at@<=': iso(2025, 2, 5, 16, 0, 15, 250),
    });
    expect(f('lte', { value: 2, unit: 'hours' })).toEqual({
      'updated_at@<=': iso(2025, 2, 5, 16, 30, 15, 250),
    });
    expect(f('lte', { value: 1, unit: 'weeks' })).toEqual({
      'updated_at@<=': iso(2025, 2, 12, 14, 30, 15, 250),
    });
    expect(f('lte', { value: 1, unit: 'months' })).toEqual({
      'updated_at@<=': iso(2025, 3, 5, 14, 30, 15, 250),
    });
    expect(f('lte', { value: -2, unit: 'days' })).toEqual({
      'updated_at@<=': iso(2025, 2, 3, 14, 30, 15, 250),
    });
  });

  it("'range': from the start of its first day to the end of its last, whatever today is", () => {
    expect(f('range', { from: '2025-03-01', to: '2025-03-03' })).toEqual({
      'updated_at@between': [startOf(1), endOf(3)],
    });
    expect(
      dateFilterToProvider(
        'due_date',
        'date',
        { preset: 'range', from: '2025-02-28', to: '2025-03-01' },
        NOW,
      ),
    ).toEqual({
      'due_date@between': ['2025-02-28', '2025-03-01'],
    });
    expect(dateCondition({ preset: 'range', from: '2025-03-01' }, NOW)).toBeNull();
  });

  it("'lte' without a value filters nothing yet", () => {
    expect(f('lte', { unit: 'days' })).toEqual({});
    expect(dateCondition({ preset: 'lte', value: 3 }, NOW)).toBeNull();
  });

  it('a date field (no time) compares calendar days', () => {
    const d = (preset: any, extra: object = {}) =>
      dateFilterToProvider('due_date', 'date', { preset, ...extra }, NOW);
    expect(d('today')).toEqual({ 'due_date@between': ['2025-03-05', '2025-03-05'] });
    expect(d('plus1')).toEqual({ 'due_date@between': ['2025-03-06', '2025-03-06'] });
    expect(d('plus3')).toEqual({ 'due_date@>=': '2025-03-08' });
    expect(d('minus2')).toEqual({ 'due_date@<=': '2025-03-03' });
    expect(d('future')).toEqual({ 'due_date@>': '2025-03-05' });
    expect(d('lte', { value: 1, unit: 'months' })).toEqual({ 'due_date@<=': '2025-04-05' });
  });

  it('crosses month and year ends', () => {
    const newYearsEve = new Date(2024, 11, 31, 22, 0, 0);
    expect(dateFilterToProvider('d', 'date', { preset: 'plus1' }, newYearsEve)).toEqual({
      'd@between': ['2025-01-01', '2025-01-01'],
    });
    expect(dateFilterToProvider('d', 'date', { preset: 'plus3' }, newYearsEve)).toEqual({
      'd@>=': '2025-01-03',
    });
  });

  it('adds calendar months without rolling over', () => {
    expect(addUnits(new Date(2025, 0, 31, 9), 1, 'months')).toEqual(new Date(2025, 1, 28, 9));
    expect(addUnits(new Date(2024, 0, 31, 9), 1, 'months')).toEqual(new Date(2024, 1, 29, 9));
  });
});

describe('filter state -> provider filter', () => {
  const kinds: Record<string, FilterKind> = {
    description: 'text',
    id: 'number',
    direct_debit: 'boolean',
    status_id: 'select',
    company_id: 'select',
    updated_at: 'datetime',
  };
  const kindOf = (f: string) => kinds[f];

  it('maps each control to the provider convention', () => {
    expect(
      toProviderFilter(
        {
          q: 'printer',
          description: ' toner ',
          id: '12',
          direct_debit: false,
          status_id: [1, 2],
          company_id: [null],
          updated_at: { preset: 'past' },
        },
        kindOf,
        NOW,
      ),
    ).toEqual({
      q: 'printer',
      'description@like': 'toner',
      id: 12,
      direct_debit: false,
      status_id: [1, 2],
      company_id: [null],
      'updated_at@<': NOW.toISOString(),
    });
  });

  it('leaves out empty values and fields that cannot be filtered (a client sees fewer fields)', () => {
    expect(
      toProviderFilter(
        { description: '', status_id: [], secret: 'x', 'secret@null': true, id: 'abc' },
        kindOf,
        NOW,
      ),
    ).toEqual({});
  });

  it('passes provider keys of filterable fields through (presets written as builder lists)', () => {
    expect(toProviderFilter({ 'updated_at@between': ['2025-01-01', '2025-02-01'] }, kindOf, NOW)).toEqual({
      'updated_at@between': ['2025-01-01', '2025-02-01'],
    });
  });

  it('compares filters regardless of key order and empty values, nested values included', () => {
    expect(sameFilter({ a: [1], b: 'x', c: '' }, { b: 'x', a: [1] })).toBe(true);
    expect(sameFilter({ d: { preset: 'today' } }, { d: { preset: 'past' } })).toBe(false);
    expect(
      sameFilter(
        { d: { unit: 'days', preset: 'lte', value: 2 } },
        { d: { preset: 'lte', value: 2, unit: 'days' } },
      ),
    ).toBe(true);
    expect(sameFilter({ a: [1, 2] }, { a: [2, 1] })).toBe(false);
  });

  it('knows whether anything filters', () => {
    expect(hasActiveFilter({})).toBe(false);
    expect(hasActiveFilter({ description: '', status_id: [] })).toBe(false);
    expect(hasActiveFilter({ status_id: [null] })).toBe(true);
  });
});

describe("the '(none)' option of column-filter selectors (SPEC 5)", () => {
  it('choosing (none) clears the other selections', () => {
    expect(applyNoneRule([1, 2], [1, 2, null])).toEqual([null]);
    expect(applyNoneRule([], [null])).toEqual([null]);
  });

  it('choosing another option clears (none)', () => {
    expect(applyNoneRule([null], [null, 3])).toEqual([3]);
    expect(applyNoneRule([null], [3, null])).toEqual([3]);
  });

  it('otherwise keeps the selection as chosen', () => {
    expect(applyNoneRule([1], [1, 2])).toEqual([1, 2]);
    expect(applyNoneRule([1, 2], [2])).toEqual([2]);
    expect(applyNoneRule([null], [])).toEqual([]);
    expect(applyNoneRule([null], [null])).toEqual([null]);
  });

  it('reads a single value (from a preset) as a selection', () => {
    expect(selectValues('me')).toEqual(['me']);
    expect(selectValues([1, null])).toEqual([1, null]);
    expect(selectValues(undefined)).toEqual([]);
  });
});

describe('presets written as builder lists', () => {
  it('become filter state', () => {
    expect(
      builderToFilterState([
        { where: ['operator_id', '=', 'me'] },
        { whereIn: ['status_id', [1, 2]] },
        { where: ['description', 'like', 'toner'] },
        { where: ['total', '>=', 100] },
        { where: ['stage', 'open'] },
        { whereNull: 'deadline' },
        { whereNotNull: 'resolved_at' },
        { whereBetween: ['created_at', ['2025-01-01', '2025-02-01']] },
        { s: 'printer' },
        { whereHas: ['company', []] },
        { where: ['x', 'drop table', 1] },
      ]),
    ).toEqual({
      operator_id: 'me',
      status_id: [1, 2],
      description: 'toner',
      'total@>=': 100,
      stage: 'open',
      'deadline@null': true,
      'resolved_at@notnull': true,
      'created_at@between': ['2025-01-01', '2025-02-01'],
      q: 'printer',
    });
  });

  it('ignore anything that is not a list of items', () => {
    expect(builderToFilterState('nonsense')).toEqual({});
    expect(builderToFilterState([null, 3, {}])).toEqual({});
  });
});

describe("a list link's builder (a rule's preview)", () => {
  const open = { whereHas: ['status', [{ whereIn: ['internal_type', [0, 1]] }]] };
  it('puts what the header holds in its controls and the rest raw, which reaches the provider as it was', () => {
    const state = builderToLinkFilter([{ where: ['priority_id', 3] }, open]);
    expect(state).toEqual({ priority_id: 3, '@builder': [open] });
    expect(hasActiveFilter(state)).toBe(true);
    const kindOf = (f: string): FilterKind | undefined => (f === 'priority_id' ? 'select' : undefined);
    expect(toProviderFilter(state, kindOf, NOW)).toEqual({ priority_id: 3, '@builder': [open] });
  });
  it('needs no raw key when every item has a control', () => {
    expect(builderToLinkFilter([{ whereNull: 'operator_id' }])).toEqual({ 'operator_id@null': true });
  });
});
