import { describe, expect, it } from 'vitest';
import qs from 'qs';
import { toBuilder, toQueryString } from '../../src/dataProvider/builder.ts';

/**
 * The apps write list queries without qs (it would be a sixth of the portal's first download); the
 * server reads them with qs. Each query here must come out exactly as qs itself writes it, and read back
 * by qs as what was sent.
 */
const queries: Record<string, unknown>[] = [
  {},
  { page: 2 },
  {
    builder: toBuilder({
      sort: { field: 'updated_at', order: 'DESC' },
      filter: { status_id: 3, q: 'printer on 2nd floor', 'created_at@between': ['2026-01-01', ''] },
      pagination: { page: 2, perPage: 15 },
    }),
    page: 2,
  },
  { builder: [{ whereIn: ['priority_id', [1, 2, 3]] }, { whereNull: 'closed_at' }, { paginate: 25 }] },
  { builder: [{ where: ['subject', 'like', "50% off! (it's *) ~a_b.c-d"] }] },
  { builder: [{ where: ['subject', '=', 'Ünïcödé — 日本語 😀 & = ? # / + , ; :'] }] },
  { builder: [{ where: ['due_at', '>=', new Date(Date.UTC(2026, 10, 24, 9, 30))] }] },
  { builder: [{ whereHas: ['messages', [{ where: ['internal', true] }, { where: ['author_id', 'me'] }]] }] },
  { builder: [{ customField: ['field_3', '!=', 0] }, { where: ['archived', false] }] },
  { with: ['company', 'status'], withCount: ['messages'], withSum: undefined, version: null },
  { with: [], withCount: {}, ids: [7, null, 9], empty: '' },
];

describe('toQueryString', () => {
  it.each(queries.map((q, i) => [i, q] as const))('query %i is written as qs writes it', (_i, query) => {
    const written = toQueryString(query);
    expect(written).toBe(qs.stringify(query, { encodeValuesOnly: true }));
    expect(qs.parse(written, { depth: 10, arrayLimit: 100 })).toEqual(
      qs.parse(qs.stringify(query, { encodeValuesOnly: true }), { depth: 10, arrayLimit: 100 }),
    );
  });

  it('keeps the order of the builder items and their positions', () => {
    expect(toQueryString({ builder: [{ orderBy: ['name', 'asc'] }, { paginate: 15 }], page: 1 })).toBe(
      'builder[0][orderBy][0]=name&builder[0][orderBy][1]=asc&builder[1][paginate]=15&page=1',
    );
  });
});
