/**
 * Thousands of random and hostile builder queries thrown at the real API: whatever they are, the
 * answer is never a 5xx and never carries database words.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import qs from 'qs';
import { registry } from '../../server/schema/registry.ts';
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
          expect(res.body, url).not.toMatch(DATABASE_WORDS);
          if (res.statusCode === 422) expect(res.json().errors, url).toBeTypeOf('object');
        }),
        { numRuns: 1500 },
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
    const deep = `/api/tickets?${'builder'.concat('[0][whereHas][1]'.repeat(40))}=x`;
    expect((await t.app.inject({ method: 'GET', url: deep, headers })).statusCode).toBeLessThan(500);
  });
});
