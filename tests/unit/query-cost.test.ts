/**
 * The cost budget of a request (issue 12, finding 2): what each parsed tree costs, the budget itself
 * accepted, one unit over refused with a 422 that says what to reduce.
 */
import { describe, expect, it } from 'vitest';
import qs from 'qs';
import { Registry, toResource } from '../../server/schema/registry.ts';
import { parseBuilderConditions, parseListQuery, parseShowQuery } from '../../server/query/parse.ts';
import {
  checkBudget,
  checkWithRows,
  conditionsCost,
  presetsCost,
  withRows,
} from '../../server/query/cost.ts';
import { QUERY_COST, QUERY_LIMITS, WITH_LIMITS } from '../../server/query/limits.ts';
import { operatorAuth } from '../callers.ts';
import { ValidationError } from '../../server/http/errors.ts';

/** A world of its own: an owner has many widgets, a widget many parts; the cost follows the kinds. */
const owners = toResource({
  $id: 'owners',
  'x-default-sort': ['name', 'asc'],
  'x-relations': { widgets: { kind: 'hasMany', resource: 'widgets', foreignKey: 'owner_id' } },
  properties: {
    id: { type: 'integer', readOnly: true, 'x-filter': true, 'x-sort': true },
    name: { type: 'string', 'x-filter': true, 'x-sort': true },
  },
});
const widgets = toResource({
  $id: 'widgets',
  'x-default-sort': ['name', 'asc'],
  'x-search': ['name', 'code'],
  'x-morph-type': 'widget',
  'x-relations': {
    owner: { kind: 'belongsTo', resource: 'owners', key: 'owner_id' },
    parts: { kind: 'hasMany', resource: 'parts', foreignKey: 'widget_id' },
  },
  properties: {
    id: { type: 'integer', readOnly: true, 'x-filter': true, 'x-sort': true },
    name: { type: 'string', 'x-filter': true, 'x-sort': true },
    code: { type: ['string', 'null'] },
    owner_id: { type: ['integer', 'null'], 'x-filter': true },
  },
});
const parts = toResource({
  $id: 'parts',
  'x-search': ['name'],
  'x-relations': { widget: { kind: 'belongsTo', resource: 'widgets', key: 'widget_id' } },
  properties: {
    id: { type: 'integer', readOnly: true, 'x-filter': true, 'x-sort': true },
    name: { type: 'string', 'x-filter': true },
    weight: { type: 'number', 'x-filter': true },
    widget_id: { type: 'integer', 'x-filter': true },
  },
});
const registry = new Registry([owners, widgets, parts], {});

const operator = operatorAuth({ userId: 7 });

const list = (query: object) =>
  parseListQuery(
    { registry, auth: operator },
    widgets,
    qs.parse(qs.stringify(query), { depth: QUERY_LIMITS.qsDepth }),
  );
const conditions = (builder: object[]) =>
  parseBuilderConditions({ registry, auth: operator }, widgets, builder, 'builder');

const where = (n: number) => Array.from({ length: n }, (_, i) => ({ where: ['id', '>', i] }));
const has = (relation: string, inner: object[] = []) => ({ whereHas: [relation, inner] });

function refusal(fn: () => unknown): Record<string, string[]> {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).statusCode).toBe(422);
    return (error as ValidationError).errors!;
  }
  throw new Error('expected the budget to refuse');
}

const tooExpensive = (cost: number) =>
  `The query is too expensive: it costs ${cost} where at most 150 is allowed (conditions through ` +
  'relations, searches, loaded relations and presets add up). Use fewer nested conditions or presets.';

describe('the units', () => {
  it('are the documented ones', () => {
    expect(QUERY_COST).toEqual({ budget: 150, toMany: 10, statement: 1, condition: 1, searchColumn: 2 });
  });
});

describe('what a tree costs', () => {
  it('a condition on the row itself: 1; a search: 2 per searched column', () => {
    expect(conditionsCost(conditions([{ where: ['name', '=', 'x'] }]))).toBe(1);
    expect(conditionsCost(conditions([{ whereIn: ['id', [1, 2, 3]] }, { whereNull: 'owner_id' }]))).toBe(2);
    expect(conditionsCost(conditions([{ s: 'bolt' }]))).toBe(4);
  });

  it('through a to-one relation: the related row and its conditions, once', () => {
    expect(conditionsCost(conditions([has('owner', [{ where: ['name', '=', 'x'] }])]))).toBe(2);
  });

  it('through a to-many relation: ten related rows, each with its conditions', () => {
    expect(conditionsCost(conditions([has('parts', [{ where: ['name', '=', 'x'] }])]))).toBe(20);
    expect(conditionsCost(conditions([has('parts', [{ s: 'nut' }])]))).toBe(30);
    expect(conditionsCost(conditions([{ doesntHave: 'parts' }]))).toBe(10);
  });

  it('nesting multiplies: owner -> widgets -> parts with a search costs 1 × (1 + 10 × (1 + 10 × 3))', () => {
    const chain = [has('owner', [has('widgets', [has('parts', [{ s: 'nut' }])])])];
    expect(conditionsCost(conditions(chain))).toBe(311);
  });

  it('with: the rows it can load, each level its rows times its fan-out (to-one 1, to-many 100)', () => {
    const tree = list({ builder: [{ paginate: 1 }], with: ['owner', 'parts', 'owner.widgets.parts'] }).with;
    // owner 1, parts 100, owner.widgets 1 × 100, owner.widgets.parts 1 × 100 × 100
    expect(withRows(registry, widgets, tree)).toBe(10_201);
    // on a page of 15 records: 15 times that
    expect(withRows(registry, widgets, tree, 15)).toBe(153_015);
  });

  it('presets: one statement each, with its conditions', () => {
    expect(presetsCost([conditions([]), conditions([{ s: 'x' }]), conditions([has('parts')])])).toBe(
      1 + (1 + 4) + (1 + 10),
    );
  });
});

describe('the budget of a list', () => {
  it('accepts a list that costs exactly the budget', () => {
    // statement 1 + whereHas parts (10 × (1 + 13)) + 9 conditions = 150
    const query = list({ builder: [has('parts', where(13)), ...where(9)] });
    expect(query.conditions).toHaveLength(10);
  });

  it('refuses one unit more, naming what to reduce', () => {
    const errors = refusal(() => list({ builder: [has('parts', where(13)), ...where(10)] }));
    expect(errors).toEqual({ builder: [tooExpensive(151)] });
  });

  it('counts withCount in the budget, and with by its rows instead', () => {
    // statement 1 + whereHas parts (10 × (1 + 12)) + 9 conditions + withCount parts 10 = 150; the
    // 10,100 rows of owner.widgets on a page of 100 are counted against WITH_LIMITS, not here
    const builder = [has('parts', where(12)), ...where(9), { paginate: 100 }];
    expect(list({ builder, withCount: ['parts'], with: ['owner.widgets'] }).conditions).toHaveLength(10);
    const errors = refusal(() => list({ builder: [...builder, ...where(1)], withCount: ['parts'] }));
    expect(errors).toEqual({ builder: [tooExpensive(151)] });
  });

  it('refuses the chain owner -> widgets -> parts with a search', () => {
    const errors = refusal(() =>
      list({ builder: [has('owner', [has('widgets', [has('parts', [{ s: 'nut' }])])])] }),
    );
    expect(errors).toEqual({ builder: [tooExpensive(312)] });
  });
});

/** The refusal of `with` (issue 31, item 5), as the server words it. */
const tooManyRows = (paths: string, rows: number) =>
  `The relations to load (${paths}) can bring up to ${rows} rows, where at most 12000 are allowed (a ` +
  'to-many relation counts 100 rows for each record it hangs from, on every record of the page). Load ' +
  'fewer or less deeply nested relations, or fewer records per page.';

describe('the rows `with` may load', () => {
  it('are the documented ones', () => {
    expect(WITH_LIMITS).toEqual({ perRecord: 100, rows: 12_000 });
  });

  it('a to-many inside a to-many on a page of 100 is refused, naming the relations and the limit', () => {
    // the attack of issue 31: 100 owners, 10,000 widgets, 1,000,000 parts
    const errors = refusal(() => list({ builder: [{ paginate: 100 }], with: ['owner.widgets.parts'] }));
    expect(errors).toEqual({ with: [tooManyRows('owner.widgets.parts', 1_010_100)] });
  });

  it('the same on the default page of 15, and beside other relations: every path is named', () => {
    const errors = refusal(() => list({ with: ['owner', 'owner.widgets.parts', 'parts'] }));
    expect(errors).toEqual({ with: [tooManyRows('owner.widgets.parts, parts', 15 * 10_201)] });
  });

  it('one to-many level on a page of 100 (the message thread with its attachments) is answered', () => {
    expect(list({ builder: [{ paginate: 100 }], with: ['parts', 'owner'] }).with).toEqual({
      parts: {},
      owner: {},
    });
  });

  it('the limit itself passes, one row more is refused', () => {
    expect(() => checkWithRows(registry, widgets, { parts: {} }, 120)).not.toThrow();
    expect(() => checkWithRows(registry, widgets, { parts: {} }, 120.01)).toThrow(ValidationError);
    const errors = refusal(() => checkWithRows(registry, widgets, { owner: {}, parts: {} }, 119));
    expect(errors).toEqual({ with: [tooManyRows('owner, parts', 119 * 101)] });
  });
});

describe('the budget of a record', () => {
  const show = (query: object) =>
    parseShowQuery({ registry, auth: operator }, owners, qs.parse(qs.stringify(query)));

  it('counts withCount and withSum together', () => {
    // statement 1 + 14 withCounts 140 + withSum 10 = 151
    const query = { withCount: Array(14).fill('widgets'), withSum: ['widgets.owner_id'] };
    expect(refusal(() => show(query))).toEqual({ with: [tooExpensive(151)] });
    expect(show({ ...query, withSum: [] }).withCount).toHaveLength(14);
  });

  it('loads `with` for one record: two to-many levels are answered, three relations that deep are not', () => {
    // widgets 100, widgets.parts 10,000, widgets.owner 100
    expect(show({ with: ['widgets.parts', 'widgets.owner'] }).with).toEqual({
      widgets: { parts: {}, owner: {} },
    });
    const errors = refusal(() => show({ with: ['widgets.parts', 'widgets.owner.widgets'] }));
    expect(errors).toEqual({ with: [tooManyRows('widgets.parts, widgets.owner.widgets', 20_200)] });
  });
});

describe('checkBudget', () => {
  it('passes the budget itself and refuses one more under the given key', () => {
    expect(() => checkBudget(150, 'builders')).not.toThrow();
    expect(refusal(() => checkBudget(151, 'builders'))).toEqual({ builders: [tooExpensive(151)] });
  });
});
