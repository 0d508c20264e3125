/**
 * Random builder queries thrown at the real API by the rules they must meet: well-formed ones on real
 * fields always answer 200; nested whereHas and preset lists past the cost budget are always a 422
 * (issue 12, finding 2), as are loaded relations past the rows `with` may bring (issue 31, item 5),
 * each with its figure. Hostile queries: tests/api/fuzz-hostile-queries.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import qs from 'qs';
import { registry } from '../../server/schema/registry.ts';
import { QUERY_COST, QUERY_LIMITS, WITH_LIMITS } from '../../server/query/limits.ts';
import type { Relation, Resource } from '../../common/schema/types.ts';
import { buildTestApp, targets, type TestApp } from './harness.ts';

const resources = [...registry().resources.values()];

/**
 * Well-formed builder queries that nest whereHas through real relations up to the parser's depth,
 * load relations and count them: some inside the cost budget, many past it. Each comes with its cost
 * by the rules of server/query/limits.ts, worked out here on the raw query as an oracle.
 */
const byName = new Map(resources.map((r) => [r.name, r]));
const toManyKinds = new Set(['hasMany', 'morphMany', 'belongsToMany']);
const fanOut = (relation: Relation) =>
  relation.kind === 'belongsTo'
    ? 1
    : relation.kind === 'morphTo'
      ? Object.keys(relation.types).length
      : QUERY_COST.toMany;
const targetOf = (relation: Relation) =>
  relation.kind === 'morphTo' ? undefined : byName.get(relation.resource)!;

interface Costed {
  items: object[];
  cost: number;
}

function conditionsOf(resource: Resource, depth: number): fc.Arbitrary<Costed> {
  const options: fc.Arbitrary<Costed>[] = [
    fc
      .integer({ min: 0, max: 50 })
      .map((n) => ({ items: [{ where: ['id', '>', n] }], cost: QUERY_COST.condition })),
  ];
  if (resource.search.length > 0) {
    options.push(
      fc.constant({ items: [{ s: 'zq' }], cost: QUERY_COST.searchColumn * resource.search.length }),
    );
  }
  const relations = Object.values(resource.relations);
  // The parser takes whereHas and doesntHave three levels deep.
  if (relations.length > 0 && depth < 3) {
    options.push(
      fc.constantFrom(...relations).map((relation) => ({
        items: [{ doesntHave: relation.name }],
        cost: fanOut(relation),
      })),
    );
    options.push(
      fc.constantFrom(...relations).chain((relation) => {
        const target = targetOf(relation);
        // A relation to several kinds of record takes no conditions.
        const inner = target ? conditionsOf(target, depth + 1) : fc.constant({ items: [], cost: 0 });
        return inner.map((c) => ({
          items: [{ whereHas: [relation.name, c.items] }],
          cost: fanOut(relation) * (1 + c.cost),
        }));
      }),
    );
  }
  return fc
    .array(fc.oneof(...options), { minLength: depth === 0 ? 1 : 0, maxLength: 3 })
    .map((list) => ({ items: list.flatMap((c) => c.items), cost: list.reduce((n, c) => n + c.cost, 0) }));
}

/**
 * `with` paths through one-target relations, and the rows they can load on the default page (15 records):
 * each node of the tree once, its records times the fan-out of every level (to-one 1, to-many the
 * per-record cap).
 */
function withOf(resource: Resource): fc.Arbitrary<{ paths: string[]; rows: number }> {
  const path = (from: Resource, depth: number): fc.Arbitrary<string[]> => {
    const relations = Object.values(from.relations);
    if (relations.length === 0) return fc.constant([]);
    return fc.constantFrom(...relations).chain((relation): fc.Arbitrary<string[]> => {
      const target = targetOf(relation);
      if (!target || depth === 2) return fc.constant<string[]>([relation.name]);
      return fc.oneof(
        fc.constant<string[]>([relation.name]),
        path(target, depth + 1).map((rest) => [relation.name, ...rest]),
      );
    });
  };
  return fc.array(path(resource, 0), { maxLength: 3 }).map((list) => {
    const paths = list.filter((p) => p.length > 0).map((p) => p.join('.'));
    const nodes = new Set(
      paths.flatMap((p) => p.split('.').map((_, i, all) => all.slice(0, i + 1).join('.'))),
    );
    let total = 0;
    for (const node of nodes) {
      let rows: number = QUERY_LIMITS.defaultPageSize;
      let at: Resource | undefined = resource;
      for (const name of node.split('.')) {
        const relation: Relation = at!.relations[name]!;
        rows *= toManyKinds.has(relation.kind) ? WITH_LIMITS.perRecord : 1;
        at = targetOf(relation);
      }
      total += rows;
    }
    return { paths, rows: total };
  });
}

const costedQuery = fc
  .constantFrom(...resources.filter((r) => r.actions.includes('index')))
  .chain((resource) =>
    fc
      .tuple(
        conditionsOf(resource, 0),
        withOf(resource),
        fc.subarray(Object.values(resource.relations).filter((r) => toManyKinds.has(r.kind))),
      )
      .map(([conditions, loads, counted]) => ({
        resource: resource.name,
        query: { builder: conditions.items, with: loads.paths, withCount: counted.map((r) => r.name) },
        cost: QUERY_COST.statement + conditions.cost + counted.length * QUERY_COST.toMany,
        rows: loads.rows,
      })),
  );

const costedPresets = fc
  .constantFrom(...resources.filter((r) => r.actions.includes('index')))
  .chain((resource) =>
    fc.array(conditionsOf(resource, 0), { minLength: 1, maxLength: 20 }).map((presets) => ({
      resource: resource.name,
      builders: presets.map((p, i) => ({ id: i + 1, builder: p.items })),
      cost: presets.reduce((n, p) => n + QUERY_COST.statement + p.cost, 0),
    })),
  );

const TOO_EXPENSIVE =
  /^The query is too expensive: it costs (\d+) where at most \d+ is allowed .* Use fewer nested conditions or presets\.$/;
const TOO_MANY_ROWS =
  /^The relations to load \(.+\) can bring up to (\d+) rows, where at most \d+ are allowed /;

describe.each(targets)('hostile builder queries on $name', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp(target);
  });
  afterAll(() => t?.close());

  it('well-formed random queries on real fields always answer 200', async () => {
    const headers = await t.as('admin@example.com');
    const valueFor = (type: string, format?: string) => {
      if (type === 'integer') return fc.integer({ min: -5, max: 500 }).map(String);
      if (type === 'number') return fc.double({ min: -1e6, max: 1e6, noNaN: true }).map(String);
      if (type === 'boolean') return fc.constantFrom('true', 'false', '1', '0');
      if (format === 'date-time')
        return fc
          .date({ min: new Date('2000-01-01'), max: new Date('2100-01-01'), noInvalidDate: true })
          .map((d) => d.toISOString());
      if (format === 'date')
        return fc
          .date({ min: new Date('2000-01-01'), max: new Date('2100-01-01'), noInvalidDate: true })
          .map((d) => d.toISOString().slice(0, 10));
      return fc.string({ maxLength: 10 });
    };
    const wellFormed = fc.constantFrom(...resources).chain((r) => {
      const filterable = Object.values(r.fields).filter(
        (f) => f.filter && f.type !== 'object' && f.type !== 'array',
      );
      const sortable = Object.values(r.fields).filter((f) => f.sort);
      const conditions = filterable.length
        ? fc.array(
            fc.constantFrom(...filterable).chain((f) =>
              fc.oneof(
                fc
                  .tuple(
                    fc.constantFrom(
                      ...(f.type === 'string' && !f.format
                        ? ['=', '!=', '<', '>', 'like']
                        : ['=', '!=', '<', '<=', '>', '>=']),
                    ),
                    valueFor(f.type, f.format),
                  )
                  .map(([o, v]) => ({ where: [f.name, o, v] })),
                fc
                  .array(valueFor(f.type, f.format), { minLength: 1, maxLength: 3 })
                  .map((vs) => ({ whereIn: [f.name, vs] })),
                fc.constant({ whereNull: f.name }),
                fc.constant({ whereNotNull: f.name }),
                fc
                  .tuple(valueFor(f.type, f.format), valueFor(f.type, f.format))
                  .map((b) => ({ whereBetween: [f.name, b] })),
              ),
            ),
            { maxLength: 4 },
          )
        : fc.constant([]);
      const sort = sortable.length
        ? fc.array(
            fc
              .tuple(fc.constantFrom(...sortable.map((f) => f.name)), fc.constantFrom('asc', 'desc'))
              .map((o) => ({ orderBy: o })),
            { maxLength: 2 },
          )
        : fc.constant([]);
      const relations = Object.keys(r.relations);
      // At most one to-many relation: two on a page of 100 can bring 20,000 rows, past WITH_LIMITS.
      const loadable = (names: string[]) =>
        names.filter((n) => toManyKinds.has(r.relations[n]!.kind)).length <= 1;
      return fc.record({
        resource: fc.constant(r.name),
        builder: fc
          .tuple(
            conditions,
            sort,
            fc.integer({ min: 1, max: 100 }),
            r.search.length ? fc.option(fc.string({ maxLength: 8 })) : fc.constant(null),
          )
          .map(([c, o, n, s]) => [...c, ...o, { paginate: n }, ...(s === null ? [] : [{ s }])]),
        with: relations.length
          ? fc.subarray(relations, { maxLength: Math.min(3, relations.length) }).filter(loadable)
          : fc.constant([]),
        page: fc.integer({ min: 1, max: 3 }),
      });
    });
    await fc.assert(
      fc.asyncProperty(wellFormed, async ({ resource, ...q }) => {
        const url = `/api/${resource}?${qs.stringify(q)}`;
        const res = await t.app.inject({ method: 'GET', url, headers });
        expect(res.statusCode, `${url} ${res.body.slice(0, 200)}`).toBe(200);
      }),
      { numRuns: 400 },
    );
  });

  it('nested whereHas, with and withCount: inside the budget and row limit they answer, past them 422 with their figure', async () => {
    const headers = await t.as('admin@example.com');
    let refused = 0;
    let tooManyRows = 0;
    await fc.assert(
      fc.asyncProperty(costedQuery, async ({ resource, query, cost, rows }) => {
        const url = `/api/${resource}?${qs.stringify(query)}`;
        const res = await t.app.inject({ method: 'GET', url, headers });
        const why = `${url} costs ${cost}, loads ${rows} rows: ${res.body.slice(0, 200)}`;
        if (cost > QUERY_COST.budget) {
          refused++;
          expect(res.statusCode, why).toBe(422);
          expect(res.json().message, url).toMatch(TOO_EXPENSIVE);
          expect(Number(TOO_EXPENSIVE.exec(res.json().message)![1]), url).toBe(cost);
        } else if (rows > WITH_LIMITS.rows) {
          tooManyRows++;
          expect(res.statusCode, why).toBe(422);
          expect(Object.keys(res.json().errors), url).toEqual(['with']);
          expect(Number(TOO_MANY_ROWS.exec(res.json().message)?.[1]), url).toBe(rows);
        } else {
          expect(res.statusCode, why).toBe(200);
        }
      }),
      { numRuns: 200 },
    );
    // The generator reaches past both limits, not only below them.
    expect(refused + tooManyRows).toBeGreaterThan(20);
    expect(refused).toBeGreaterThan(0);
    expect(tooManyRows).toBeGreaterThan(0);
  });

  it('preset counts: inside the budget they answer, past it 422 with their cost', async () => {
    const headers = await t.as('admin@example.com');
    let refused = 0;
    await fc.assert(
      fc.asyncProperty(costedPresets, async ({ resource, builders, cost }) => {
        const url = `/api/presets-result-count/${resource}?${qs.stringify({ builders })}`;
        const res = await t.app.inject({ method: 'GET', url, headers });
        if (cost > QUERY_COST.budget) {
          refused++;
          expect(res.statusCode, `${url} costs ${cost}: ${res.body.slice(0, 200)}`).toBe(422);
          expect(Number(TOO_EXPENSIVE.exec(res.json().message)?.[1]), url).toBe(cost);
        } else {
          expect(res.statusCode, `${url} costs ${cost}: ${res.body.slice(0, 200)}`).toBe(200);
          expect(res.json()).toHaveLength(builders.length);
        }
      }),
      { numRuns: 100 },
    );
    expect(refused).toBeGreaterThan(10);
  });
});
