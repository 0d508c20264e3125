/** The display keywords of the schemas (x-badge, x-ellipsis, x-detail): read in one place, checked for every field. */
import { describe, expect, it } from 'vitest';
import { badgeOf, inDetail, ellipsisOf, meets } from '../../common/schema/display.ts';
import { registry } from '../../server/schema/registry.ts';

const field = (schema: Record<string, unknown>, format = 'date') => ({ name: 'f', format, schema });

describe('x-badge', () => {
  it('reads a kind alone or with settled conditions', () => {
    expect(badgeOf(field({}))).toBeUndefined();
    expect(badgeOf(field({ 'x-badge': 'due-date' }))).toEqual({ kind: 'due-date', settled: [] });
    expect(
      badgeOf(field({ 'x-badge': { kind: 'contract-end', settled: [['status_id', '=', 4]] } }, 'date-time')),
    ).toEqual({ kind: 'contract-end', settled: [['status_id', '=', 4]] });
  });

  it('refuses an unknown kind, a field that is not a date and a malformed condition', () => {
    expect(() => badgeOf(field({ 'x-badge': 'soon' }))).toThrow(/field f: x-badge must be one of/);
    expect(() => badgeOf(field({ 'x-badge': 'due-date' }, 'email'))).toThrow(/needs format date/);
    expect(() => badgeOf(field({ 'x-badge': { kind: 'due-date', settled: [['a', 'like', 1]] } }))).toThrow(
      /settled must be a list/,
    );
  });

  it('is well formed on every field of every schema, and on the fields SPEC 4 names', () => {
    const reg = registry();
    for (const resource of reg.resources.values())
      for (const f of Object.values(resource.fields)) {
        expect(() => badgeOf(f), `${resource.name}.${f.name}`).not.toThrow();
        expect(() => ellipsisOf(f), `${resource.name}.${f.name}`).not.toThrow();
      }
    const kind = (r: string, f: string) => badgeOf(reg.get(r)!.fields[f]!)?.kind;
    expect(kind('tickets', 'deadline')).toBe('due-date');
    expect(kind('invoices', 'due_date')).toBe('due-date');
    expect(kind('assets', 'warranty_until')).toBe('due-date');
    expect(kind('contracts', 'end_date')).toBe('contract-end');
    // Issue 35: the SLA dues are decided by the state the server stored beside them.
    expect(badgeOf(reg.get('tickets')!.fields.resolution_due!)).toEqual({
      kind: 'due-date',
      settled: [],
      state: 'resolution_state',
    });
  });

  it('takes a state field on a due-date badge only', () => {
    expect(badgeOf(field({ 'x-badge': { kind: 'due-date', state: 's' } }))?.state).toBe('s');
    expect(() => badgeOf(field({ 'x-badge': { kind: 'contract-end', state: 's' } }))).toThrow(
      /x-badge state/,
    );
    expect(() => badgeOf(field({ 'x-badge': { kind: 'due-date', state: 3 } }))).toThrow(/x-badge state/);
  });
});

describe('meets', () => {
  it('compares like the schema conditions do, null meaning is null / is not null', () => {
    expect(meets({ status_id: 4 }, ['status_id', '=', 4])).toBe(true);
    expect(meets({ status_id: '4' }, ['status_id', '=', 4])).toBe(true);
    expect(meets({ status_id: 2 }, ['status_id', '=', 4])).toBe(false);
    expect(meets({ resolved_at: null }, ['resolved_at', '!=', null])).toBe(false);
    expect(meets({}, ['resolved_at', '=', null])).toBe(true);
    expect(meets({ resolved_at: '2026-01-01' }, ['resolved_at', '!=', null])).toBe(true);
    expect(meets({ n: 3 }, ['n', '>=', 3])).toBe(true);
    expect(meets({ n: null }, ['n', '<', 3])).toBe(false);
  });
});

describe('x-ellipsis', () => {
  it('is a positive limit, false for none, or absent', () => {
    expect(ellipsisOf(field({}))).toBeUndefined();
    expect(ellipsisOf(field({ 'x-ellipsis': false }))).toBe(false);
    expect(ellipsisOf(field({ 'x-ellipsis': 12 }))).toBe(12);
    expect(() => ellipsisOf(field({ 'x-ellipsis': 0 }))).toThrow(/positive integer or false/);
    expect(ellipsisOf(registry().get('invoices')!.fields.reference!)).toBe(false);
  });
});

describe('x-detail', () => {
  it('lists a field in the detail unless it says false, and refuses any other value', () => {
    expect(inDetail(field({}))).toBe(true);
    expect(inDetail(field({ 'x-detail': false }))).toBe(false);
    expect(() => inDetail(field({ 'x-detail': true }))).toThrow(/field f: x-detail may only be false/);
  });
});
