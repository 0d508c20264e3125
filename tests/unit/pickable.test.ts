/**
 * x-pickable (schemas/README.md): the records a selector offers as a new value. Operators offer no
 * archived operator; the filter the selectors send is the builder's whereNull; the registry refuses a
 * condition on an unknown field or on a field the API cannot filter on.
 */
import { describe, expect, it } from 'vitest';
import { registry, Registry, toResource } from '../../server/schema/registry.ts';
import { pickableFilter } from '../../src/custom/forms/pickable.ts';
import { filterToBuilder } from '../../src/dataProvider/builder.ts';

const reg = registry();

describe('x-pickable', () => {
  it('offers operators that are not archived and no service account, sent as whereNull archived_at', () => {
    const operators = reg.require('operators');
    expect(operators.pickable).toEqual([
      ['archived_at', '=', null],
      ['service_account', '=', false],
    ]);
    expect(pickableFilter(operators)).toEqual({ archived_at: null, service_account: false });
    expect(filterToBuilder(pickableFilter(operators))).toEqual([
      { whereNull: 'archived_at' },
      { where: ['service_account', '=', false] },
    ]);
  });

  it('narrows nothing for a resource without it', () => {
    expect(reg.require('priorities').pickable).toEqual([]);
    expect(pickableFilter(reg.require('priorities'))).toEqual({});
    expect(pickableFilter(undefined)).toEqual({});
  });

  it('writes the other operators in the filter convention', () => {
    const target = { ...reg.require('operators'), pickable: [] as never[] };
    expect(
      pickableFilter({
        ...target,
        pickable: [
          ['archived_at', '!=', null],
          ['is_staff', '=', true],
          ['id', '>', 3],
        ],
      }),
    ).toEqual({ 'archived_at@notnull': true, is_staff: true, 'id@>': 3 });
  });

  it('is refused on an unknown field or a field without x-filter', () => {
    const resources = [...reg.resources.values()];
    const broken = (pickable: unknown, filter: boolean) => () =>
      new Registry(
        [
          ...resources,
          toResource({
            $id: 'broken',
            properties: {
              id: { type: 'integer' },
              name: { type: 'string', 'x-sort': true, ...(filter ? { 'x-filter': true } : {}) },
            },
            'x-default-sort': ['name', 'asc'],
            'x-pickable': pickable,
          }),
        ],
        reg.enums,
      );
    expect(broken([['name', '=', null]], true)).not.toThrow();
    expect(broken([['missing', '=', null]], true)).toThrow(/x-pickable names unknown field missing/);
    expect(broken([['name', '=', null]], false)).toThrow(/x-pickable names name, which has no x-filter/);
    expect(broken([['name', 'like', 'x']], true)).toThrow(/x-pickable has unknown operator like/);
  });
});
