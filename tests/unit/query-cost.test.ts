/**
 * The cost budget of a request (issue 12, finding 2): what each parsed tree costs, the budget itself
 * accepted, one unit over refused with a 422 that says what to reduce.
 */
import { describe, expect, it } from 'vitest';
import qs from 'qs';
import { Registry, toResource } from '../../server/schema/registry.ts';
import { parseBuilderConditions, parseListQuery, parseShowQuery } from '../../server/query/parse.ts';
import { checkBudget, conditionsCost, presetsCost, withCost } from '../../server/query/cost.ts';
import { QUERY_COST, QUERY_LIMITS } from '../../server/query/limits.ts';
import type { AuthContext } from '../../server/auth/context.ts';
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

const operator: AuthContext = {
  kind: 'operator',
  userId: 7,
  tenantId: 1,
  isOperator: 2,
  permissions: new Set(),
  companyIds: [],
  categoryIds: [],
};

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

  it('with: every row loaded through every level', () => {
    const tree = list({ with: ['owner', 'parts', 'owner.widgets.parts'] }).with;
    // owner 1, parts 10, owner.widgets 1 × 10, owner.widgets.parts 1 × 10 × 10
    expect(withCost(registry, widgets, tree)).toBe(121);
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

  it('counts with and withCount in the same budget', () => {
    // statement 1 + owner.widgets.parts 111 + withCount parts 10 + 28 conditions = 150
    expect(() =>
      list({ builder: where(28), with: ['owner.widgets.parts'], withCount: ['parts'] }),
    ).not.toThrow();
    const errors = refusal(() =>
      list({ builder: where(29), with: ['owner.widgets.parts'], withCount: ['parts'] }),
    );
    expect(errors).toEqual({ builder: [tooExpensive(151)] });
  });

  it('refuses the chain owner -> widgets -> parts with a search', () => {
    const errors = refusal(() =>
      list({ builder: [has('owner', [has('widgets', [has('parts', [{ s: 'nut' }])])])] }),
    );
    expect(errors).toEqual({ builder: [tooExpensive(312)] });
  });
});

describe('the budget of a record', () => {
  const show = (query: object) =>
    parseShowQuery({ registry, auth: operator }, owners, qs.parse(qs.stringify(query)));

  it('counts with, withCount and withSum together', () => {
    // statement 1 + widgets 10 + widgets.parts 100 + widgets.owner 10 + withCount 10 + withSum 10 = 141
    const query = {
      with: ['widgets.parts', 'widgets.owner'],
      withCount: ['widgets'],
      withSum: ['widgets.owner_id'],
    };
    expect(show(query).withSum).toHaveLength(1);
    // one more sum over the widgets: 151
    const errors = refusal(() => show({ ...query, withSum: ['widgets.owner_id', 'widgets.id'] }));
    expect(errors).toEqual({ with: [tooExpensive(151)] });
  });
});

describe('checkBudget', () => {
  it('passes the budget itself and refuses one more under the given key', () => {
    expect(() => checkBudget(150, 'builders')).not.toThrow();
    expect(refusal(() => checkBudget(151, 'builders'))).toEqual({ builders: [tooExpensive(151)] });
  });
});
