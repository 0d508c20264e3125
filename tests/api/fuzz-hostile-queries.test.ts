/**
 * Thousands of random and hostile builder queries and preset lists thrown at the real API, and raw
 * hostile query strings: whatever they are, the answer is never a 5xx and never carries database
 * words. Well-formed queries and the cost and row limits: tests/api/fuzz-query-limits.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import qs from 'qs';
import { registry } from '../../server/schema/registry.ts';
import { QUERY_LIMITS } from '../../server/query/limits.ts';
import { buildTestApp, targets, type TestApp } from './harness.ts';

const hostile = fc.constantFrom(
  "'; drop table tickets; --",
  '" or 1=1 --',
  'id) union select password_hash from users --',
  '%',
  '_',
  '\\',
  '\u0000',
  '../../etc/passwd',
  '<script>alert(1)</script>',
  '9'.repeat(40),
  '-1',
  '1e309',
  'NaN',
  'null',
  'true',
  'me',
  '2026-13-45',
  '2026-01-01 25:61:61',
  '{"a":1}',
  'ＳＥＬＥＣＴ',
  '',
);

const resources = [...registry().resources.values()];
const resourceNames = resources.map((r) => r.name);
const fieldNames = [
  ...new Set(resources.flatMap((r) => Object.keys(r.fields))),
  'password_hash',
  'tenant_id',
  'password',
];
const relationNames = [...new Set(resources.flatMap((r) => Object.keys(r.relations)))];

const name = fc.oneof(fc.constantFrom(...fieldNames), hostile, fc.string({ maxLength: 12 }));
const value = fc.oneof(
  hostile,
  fc.string({ maxLength: 20 }),
  fc.integer().map(String),
  fc.double().map(String),
  fc.constantFrom('true', 'false'),
);
const op = fc.oneof(fc.constantFrom('=', '!=', '<', '<=', '>', '>=', 'like'), hostile);

const leaf = fc.oneof(
  fc.record({
    where: fc.oneof(fc.tuple(name, op, value), fc.tuple(name, value), fc.array(value, { maxLength: 4 })),
  }),
  fc.record({ whereIn: fc.tuple(name, fc.oneof(fc.array(value, { maxLength: 5 }), value)) }),
  fc.record({ whereNull: name }),
  fc.record({ whereNotNull: name }),
  fc.record({ whereBetween: fc.tuple(name, fc.oneof(fc.tuple(value, value), value)) }),
  fc.record({ orderBy: fc.tuple(name, fc.oneof(fc.constantFrom('asc', 'desc'), hostile)) }),
  fc.record({ paginate: fc.oneof(fc.integer({ min: -5, max: 500 }).map(String), hostile) }),
  fc.record({ s: value }),
  fc.record({ customField: fc.tuple(name, op, value) }),
  fc.record({ doesntHave: fc.oneof(fc.constantFrom(...relationNames), hostile) }),
  fc.dictionary(fc.oneof(fc.string({ maxLength: 8 }), hostile), value, { minKeys: 0, maxKeys: 2 }),
);
const item = fc.letrec((tie) => ({
  item: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    leaf,
    fc.record({
      whereHas: fc.tuple(
        fc.oneof(fc.constantFrom(...relationNames), hostile),
        fc.array(tie('item'), { maxLength: 3 }),
      ),
    }),
  ),
})).item;

const query = fc.record(
  {
    builder: fc.array(item, { maxLength: 8 }),
    page: fc.oneof(fc.integer({ min: -3, max: 10_000 }).map(String), hostile),
    with: fc.array(fc.oneof(fc.constantFrom(...relationNames), hostile), { maxLength: 3 }),
    withCount: fc.array(fc.oneof(fc.constantFrom(...relationNames), hostile), { maxLength: 2 }),
  },
  { requiredKeys: [] },
);

const DATABASE_WORDS = /syntax error|relation "|column "|violates|pg_|SQLSTATE|invalid input syntax/i;

/** Every string of three or more characters the caller sent (names and values, nested), longest first. */
function sentStrings(sent: unknown): string[] {
  const out = new Set<string>();
  const walk = (v: unknown) => {
    if (typeof v === 'string') out.add(v);
    else if (v && typeof v === 'object') Object.values(v).forEach(walk);
  };
  walk(sent);
  return [...out].filter((s) => s.length >= 3).sort((a, b) => b.length - a.length);
}

/**
 * The answer with what the caller sent replaced by a mark, JSON-quoted as the answer quotes it: a 422
 * that names the caller's own unknown field "pg_" repeats the caller, it leaks nothing of the database.
 * Replaced, not removed, so that no words form across the gap; shorter strings ('"', a NUL) stay, since
 * taking them out would reach into the answer's own words.
 */
function withoutEcho(body: string, sent: unknown): string {
  return sentStrings(sent).reduce(
    (text, s) => text.split(JSON.stringify(s).slice(1, -1)).join('<sent>'),
    body,
  );
}

describe.each(targets)('hostile builder queries on $name', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp(target);
  });
  afterAll(() => t?.close());

  for (const caller of ['admin@example.com', 'client@example.com']) {
    it(`never a 5xx for ${caller}`, async () => {
      const headers = await t.as(caller);
      await fc.assert(
        fc.asyncProperty(fc.constantFrom(...resourceNames), query, async (resource, q) => {
          const url = `/api/${resource}?${qs.stringify(q)}`;
          const res = await t.app.inject({ method: 'GET', url, headers });
          expect(res.statusCode, url).toBeLessThan(500);
          expect(withoutEcho(res.body, q), url).not.toMatch(DATABASE_WORDS);
          if (res.statusCode === 422) expect(res.json().errors, url).toBeTypeOf('object');
        }),
        {
          numRuns: 1500,
          // Runs that once failed on the caller's own words repeated in a 422 ('pg_', a NUL beside quotes).
          examples: [
            ['activities', { builder: [{ orderBy: ['pg_', 'asc'] }] }],
            ['activities', { builder: [{ whereHas: ['\u0000', [{ where: ['\\', '"'] }]] }] }],
          ],
        },
      );
    });
  }

  for (const caller of ['admin@example.com', 'client@example.com']) {
    it(`never a 5xx for hostile preset lists as ${caller}`, async () => {
      const headers = await t.as(caller);
      const presets = fc.array(
        fc.record({
          id: fc.oneof(fc.integer({ min: 1, max: 99 }), hostile),
          builder: fc.array(item, { maxLength: 4 }),
        }),
        { maxLength: 24 },
      );
      await fc.assert(
        fc.asyncProperty(fc.constantFrom(...resourceNames), presets, async (resource, builders) => {
          const url = `/api/presets-result-count/${resource}?${qs.stringify({ builders })}`;
          const res = await t.app.inject({ method: 'GET', url, headers });
          expect(res.statusCode, url).toBeLessThan(500);
          expect(withoutEcho(res.body, builders), url).not.toMatch(DATABASE_WORDS);
          if (res.statusCode === 422) expect(res.json().errors, url).toBeTypeOf('object');
        }),
        { numRuns: 300 },
      );
    });
  }

  it('never a 5xx for raw hostile query strings', async () => {
    const headers = await t.as('admin@example.com');
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...resourceNames),
        fc.string({ maxLength: 300 }),
        async (resource, raw) => {
          const res = await t.app.inject({
            method: 'GET',
            url: `/api/${resource}?${encodeURI(raw)}`,
            headers,
          });
          expect(res.statusCode).toBeLessThan(500);
        },
      ),
      { numRuns: 500 },
    );
    // Nested far past the query string's depth: refused before any of it is read, saying the limit.
    const deep = `/api/tickets?${'builder'.concat('[0][whereHas][1]'.repeat(40))}=x`;
    const res = await t.app.inject({ method: 'GET', url: deep, headers });
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json().message).toBe(
      `The query string is nested more than ${QUERY_LIMITS.qsDepth} levels deep.`,
    );
    // The JSON spelling of the builder (server/query/json-query.ts) under the same limit, and broken JSON.
    const deepJson = `/api/tickets?builder=${encodeURIComponent('['.repeat(4000))}`;
    const refused = await t.app.inject({ method: 'GET', url: deepJson, headers });
    expect(refused.statusCode, refused.body).toBe(422);
    expect(refused.json().errors.builder).toEqual(['builder starts as a JSON list but is not valid JSON.']);
    const nested = `/api/tickets?builder=${encodeURIComponent('['.repeat(40) + ']'.repeat(40))}`;
    const tooDeep = await t.app.inject({ method: 'GET', url: nested, headers });
    expect(tooDeep.statusCode, tooDeep.body).toBe(422);
    expect(tooDeep.json().errors.builder).toEqual([
      `builder is nested more than ${QUERY_LIMITS.qsDepth} levels deep.`,
    ]);
  });
});
