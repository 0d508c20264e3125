/**
 * The generic list route checks its query string twice: our parser (server/query/parse.ts) first, whose
 * 422s are the contract's words and judge each name against what the caller may see, then the route's
 * schema, which is the OpenAPI document's. A query the parser takes but the schema refuses would be a
 * valid call answered 422, and means the document says less than the server does: this property test
 * generates builder queries near the grammar (valid and not), sends them through qs as the apps do or as
 * one JSON parameter, and holds that whatever the parser takes, the schema takes too.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import qs from 'qs';
import { registry as loadRegistry } from '../../server/schema/registry.ts';
import { parseListQuery } from '../../server/query/parse.ts';
import { resourceRouteSchema } from '../../server/docs/resource-schemas.ts';
import { componentSchemas } from '../../server/docs/components.ts';
import { createAjv } from '../../server/schema/validate.ts';
import { parseQueryString } from '../../server/query/query-string.ts';
import { operatorAuth } from '../callers.ts';

const registry = loadRegistry();
const tickets = registry.require('tickets');
const auth = operatorAuth();
// A coercing ajv of its own that knows the components, as the route's (server/http/route-validation.ts).
const ajv = createAjv({ coerce: true });
for (const schema of componentSchemas(registry)) ajv.addSchema(schema);
const routeSchema = resourceRouteSchema(registry, tickets, 'index').querystring as object;
const validate = ajv.compile(routeSchema);

const field = fc.constantFrom(
  'status_id',
  'subject',
  'id',
  'priority_id',
  'created_at',
  'operator_id',
  'nope',
);
const value = fc.oneof(
  fc.constantFrom('1', 'me', 'x', '', '2026-01-01', 'true'),
  fc.integer({ min: -2, max: 5 }),
);
const operator = fc.constantFrom('=', '!=', '<', 'like', '==');
const relation = fc.constantFrom('status', 'company', 'messages', 'company.clients', 'nope');
const { item } = fc.letrec((tie) => ({
  item: fc.oneof(
    fc.record({ orderBy: fc.oneof(fc.tuple(field), fc.tuple(field, fc.constantFrom('asc', 'desc', 'up'))) }),
    fc.record({ paginate: fc.constantFrom(1, 15, 0, 1000, 'x', 2.5) }),
    fc.record({ where: fc.oneof(fc.tuple(field, value), fc.tuple(field, operator, value), fc.tuple(field)) }),
    fc.record({
      whereIn: fc.oneof(
        fc.tuple(field, fc.array(value, { minLength: 1, maxLength: 120 })),
        fc.tuple(field, value),
      ),
    }),
    fc.record({ whereNull: field }),
    fc.record({ whereNotNull: field }),
    fc.record({ doesntHave: relation }),
    fc.record({ whereBetween: fc.tuple(field, fc.tuple(value, value)) }),
    fc.record({ s: fc.constantFrom('abc', 'x', '') }),
    fc.record({
      select: fc.array(fc.constantFrom('subject', 'status.name', 'id', 'nope'), {
        minLength: 1,
        maxLength: 3,
      }),
    }),
    fc.record({ whereHas: fc.tuple(relation, fc.array(tie('item'), { maxLength: 2 })) }),
  ),
}));
const query = fc.record(
  {
    builder: fc.array(item, { maxLength: 4 }),
    with: fc.oneof(
      fc.array(relation, { maxLength: 2 }),
      fc.constantFrom('status,company', 'company.clients'),
    ),
    withCount: fc.array(fc.constantFrom('messages', 'status'), { maxLength: 1 }),
    page: fc.constantFrom(1, 2, 0, 'x'),
    version: fc.constantFrom(1, 2),
  },
  { requiredKeys: [] },
);

/** The query string as every route receives it. */
const received = (text: string) => parseQueryString(text) as Record<string, unknown>;

function taken(parse: () => unknown): boolean {
  try {
    parse();
    return true;
  } catch {
    return false;
  }
}

describe('the list query schema and the parser', () => {
  it('the schema takes every query the parser takes, in the bracket style and as JSON', () => {
    let accepted = 0;
    fc.assert(
      fc.property(query, fc.boolean(), (sent, asJson) => {
        const { builder, ...rest } = sent;
        const text = asJson
          ? [qs.stringify(rest), builder ? `builder=${encodeURIComponent(JSON.stringify(builder))}` : '']
              .filter(Boolean)
              .join('&')
          : qs.stringify(sent);
        const input = received(text);
        if (!taken(() => parseListQuery({ registry, auth }, tickets, structuredClone(input)))) return;
        accepted += 1;
        const valid = validate(structuredClone(input));
        const why = validate.errors?.slice(0, 2).map((e) => `${e.instancePath} ${e.message}`);
        expect(valid, `${decodeURIComponent(text)}: ${why?.join('; ')}`).toBe(true);
      }),
      { numRuns: 5000, seed: 34 },
    );
    // Not met by refusing everything: a good share of the queries are valid ones.
    expect(accepted).toBeGreaterThan(400);
  });

  it('takes a list longer than qs makes a list of (a whereIn of 150 values), as the parser does', () => {
    const values = Array.from({ length: 150 }, (_, i) => `builder[0][whereIn][1][${i}]=${i + 1}`);
    const input = received(['builder[0][whereIn][0]=id', ...values].join('&'));
    expect(taken(() => parseListQuery({ registry, auth }, tickets, structuredClone(input)))).toBe(true);
    expect(validate(input), JSON.stringify(validate.errors?.[0])).toBe(true);
  });

  it('refuses what the document does not allow (a page that is not a whole number)', () => {
    expect(validate(received('page=2'))).toBe(true);
    expect(validate(received('page=x'))).toBe(false);
    expect(validate(received('builder[0][paginate]=15&with[]=status'))).toBe(true);
    expect(validate(received('builder[0][nope]=1'))).toBe(false);
  });
});
