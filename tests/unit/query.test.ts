import { describe, expect, it } from 'vitest';
import qs from 'qs';
import { Registry, toResource } from '../../server/schema/registry.ts';
import { parseListQuery, parseBuilderConditions, QUERY_LIMITS } from '../../server/query/parse.ts';
import { sqlContext } from '../../server/query/sql.ts';
import { containsPattern } from '../../server/query/fragments.ts';
import { listStatements } from '../../server/query/select.ts';
import type { AuthContext } from '../../server/auth/context.ts';
import { ValidationError } from '../../server/http/errors.ts';
import { compiler } from '../../server/query/statement-cache.ts';
import { companyAdmin, operatorAuth } from '../callers.ts';

/** A small world of its own, so the expected SQL does not move when the real schemas grow. */
const owners = toResource({
  $id: 'owners',
  title: 'Owner',
  'x-default-sort': ['name', 'asc'],
  'x-portal': { actions: ['index'], scope: { company: 'id' } },
  properties: {
    id: { type: 'integer', readOnly: true, 'x-filter': true, 'x-sort': true },
    name: { type: 'string', 'x-filter': true, 'x-sort': true },
  },
});
const widgets = toResource({
  $id: 'widgets',
  title: 'Widget',
  'x-default-sort': ['updated_at', 'desc'],
  'x-search': ['name', 'code'],
  'x-morph-type': 'widget',
  'x-relations': {
    owner: { kind: 'belongsTo', resource: 'owners', key: 'owner_id' },
    parts: { kind: 'hasMany', resource: 'parts', foreignKey: 'widget_id' },
  },
  'x-portal': {
    actions: ['index'],
    scope: { company: 'owner_id' },
    fields: ['id', 'name', 'owner_id', 'updated_at'],
  },
  properties: {
    id: { type: 'integer', readOnly: true, 'x-filter': true, 'x-sort': true },
    name: { type: 'string', 'x-filter': true, 'x-sort': true },
    code: { type: ['string', 'null'], 'x-column': 'widget_code' },
    secret: { type: 'string' },
    owner_id: { type: ['integer', 'null'], 'x-filter': true, 'x-me': 'id' },
    weight: { type: 'number', 'x-filter': true },
    active: { type: 'boolean', 'x-filter': true },
    updated_at: { type: 'string', format: 'date-time', readOnly: true, 'x-filter': true, 'x-sort': true },
  },
});
const parts = toResource({
  $id: 'parts',
  title: 'Part',
  'x-relations': { widget: { kind: 'belongsTo', resource: 'widgets', key: 'widget_id' } },
  'x-portal': { actions: ['index'], scope: { relation: 'widget' }, where: [['visible', '=', true]] },
  properties: {
    id: { type: 'integer', readOnly: true, 'x-filter': true, 'x-sort': true },
    name: { type: 'string', 'x-filter': true },
    visible: { type: 'boolean', 'x-filter': true },
    widget_id: { type: 'integer', 'x-filter': true },
  },
});
const custom = [
  toResource({
    $id: 'custom-fields',
    properties: { id: { type: 'integer' }, name: { type: 'string' } },
  }),
  toResource({
    $id: 'custom-values',
    'x-label': 'value',
    properties: {
      id: { type: 'integer' },
      custom_field_id: { type: 'integer' },
      morphable_type: { type: 'string' },
      morphable_id: { type: 'integer' },
      value: { type: 'string' },
    },
  }),
];
const registry = new Registry([owners, widgets, parts, ...custom], {});

const operator = operatorAuth({ userId: 7, categoryIds: [3, 4] });
const client: AuthContext = {
  ...operator,
  kind: 'client',
  userId: 9,
  isOperator: 0,
  companyIds: [11, 12],
  // A company admin of both companies (issue 39's role that sees every portal resource company-wide).
  companyRoles: [companyAdmin(11), companyAdmin(12)],
};

function parse(query: string, auth = operator) {
  return parseListQuery({ registry, auth }, widgets, qs.parse(query, { depth: QUERY_LIMITS.qsDepth }) as any);
}

function compiled(query: string, auth = operator) {
  const statements = listStatements(sqlContext(registry, auth), widgets, parse(query, auth));
  return { rows: statements.rows.compile(compiler), count: statements.count.compile(compiler) };
}

function problems(fn: () => unknown): Record<string, string[]> {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationError);
    return (error as ValidationError).errors!;
  }
  throw new Error('expected a ValidationError');
}

describe('parseListQuery', () => {
  it('uses the default sort and page size when the query says nothing', () => {
    const q = parse('');
    expect(q.sort.map((s) => [s.field.name, s.direction])).toEqual([['updated_at', 'desc']]);
    expect(q.perPage).toBe(15);
    expect(q.page).toBe(1);
    expect(q.conditions).toEqual([]);
  });

  it('reads every builder item into the typed tree', () => {
    const q = parse(
      'builder[0][orderBy][0]=name&builder[0][orderBy][1]=asc&builder[1][where][0]=weight&builder[1][where][1]=>=&builder[1][where][2]=2.5' +
        '&builder[2][where][0]=name&builder[2][where][1]=Bolt&builder[3][whereIn][0]=id&builder[3][whereIn][1][0]=1&builder[3][whereIn][1][1]=2' +
        '&builder[4][whereNull]=owner_id&builder[5][whereNotNull]=name&builder[6][whereBetween][0]=updated_at&builder[6][whereBetween][1][0]=2026-01-01' +
        '&builder[6][whereBetween][1][1]=2026-02-01 10:00:00&builder[7][paginate]=25&builder[8][s]=bo&builder[9][doesntHave]=parts' +
        '&builder[10][whereHas][0]=parts&builder[10][whereHas][1][0][where][0]=name&builder[10][whereHas][1][0][where][1]=like&builder[10][whereHas][1][0][where][2]=x' +
        '&builder[11][customField][0]=colour&builder[11][customField][1]==&builder[11][customField][2]=red&page=3',
    );
    expect(q.perPage).toBe(25);
    expect(q.page).toBe(3);
    expect(q.sort.map((s) => [s.field.name, s.direction])).toEqual([['name', 'asc']]);
    expect(q.conditions.map((c) => c.type)).toEqual([
      'where',
      'where',
      'whereIn',
      'whereNull',
      'whereNotNull',
      'whereBetween',
      'search',
      'doesntHave',
      'whereHas',
      'customField',
    ]);
    expect(q.conditions[0]).toMatchObject({ op: '>=', value: 2.5 });
    expect(q.conditions[1]).toMatchObject({ op: '=', value: 'Bolt' });
    expect(q.conditions[2]).toMatchObject({ values: [1, 2] });
  });

  it("resolves 'me' as the field's x-me says", () => {
    const q = parse('builder[0][where][0]=owner_id&builder[0][where][1]==&builder[0][where][2]=me');
    expect(q.conditions[0]).toMatchObject({ type: 'where', value: 7 });
  });

  it('names each problem: unknown field, not whitelisted, operator, direction, page size, item', () => {
    const errors = problems(() =>
      parse(
        'builder[0][where][0]=password_hash&builder[0][where][1]=x&builder[1][where][0]=code&builder[1][where][1]=x' +
          '&builder[2][where][0]=name&builder[2][where][1]=;drop&builder[2][where][2]=x&builder[3][orderBy][0]=name&builder[3][orderBy][1]=desc;drop' +
          '&builder[4][paginate]=101&builder[5][groupBy]=x&builder[6][where][0]=weight&builder[6][where][1]=abc&page=-1',
      ),
    );
    expect(errors['builder.0']).toEqual(['Unknown field "password_hash" on widgets.']);
    expect(errors['builder.1']).toEqual(['The field code of widgets cannot be filtered.']);
    expect(errors['builder.2']![0]).toMatch(/^Unknown operator ";drop"/);
    expect(errors['builder.3']).toEqual(['The sort direction must be asc or desc.']);
    expect(errors['builder.4']).toEqual(['The page size must be a whole number from 1 to 100.']);
    // select is an item since issue 40 (the columns a screen shows): another name stands for an unknown one.
    expect(errors['builder.5']).toEqual(['Unknown builder item "groupBy".']);
    expect(errors['builder.6']).toEqual(['The value for weight must be a number.']);
    expect(errors.page).toEqual(['The page must be a whole number from 1 to 1000000.']);
  });

  it('refuses the NUL character, which PostgreSQL text cannot hold, in values and searches', () => {
    const errors = problems(() =>
      parse('builder[0][where][0]=name&builder[0][where][1]==&builder[0][where][2]=a%00b&builder[1][s]=%00'),
    );
    expect(errors['builder.0']).toEqual(['The value for name may not contain the NUL character.']);
    expect(errors['builder.1']).toEqual(['The search text may not contain the NUL character.']);
  });

  it('refuses more than 50 builder items and deep whereHas nesting', () => {
    const many = Array.from({ length: 51 }, (_, i) => `builder[${i}][whereNotNull]=name`).join('&');
    expect(problems(() => parse(many)).builder).toEqual(['A query may have at most 50 builder items.']);
    const deep =
      'builder[0][whereHas][0]=parts&builder[0][whereHas][1][0][whereHas][0]=widget&builder[0][whereHas][1][0][whereHas][1][0][whereHas][0]=parts&builder[0][whereHas][1][0][whereHas][1][0][whereHas][1][0][whereHas][0]=widget';
    const errors = problems(() => parse(deep));
    expect(Object.values(errors).flat()).toContain('whereHas may be nested at most 3 levels deep.');
  });

  it('keeps a client inside the portal fields', () => {
    expect(
      problems(() => parse('builder[0][where][0]=weight&builder[0][where][1]=1', client))['builder.0'],
    ).toEqual(['Unknown field "weight" on widgets.']);
  });

  it('a preset builder ignores its own sort and page size', () => {
    const raw = qs.parse('b[0][paginate]=5&b[1][where][0]=active&b[1][where][1]=true') as any;
    const conditions = parseBuilderConditions({ registry, auth: operator }, widgets, raw.b, 'b');
    expect(conditions).toHaveLength(1);
    expect(conditions[0]).toMatchObject({ type: 'where', value: true });
  });
});

describe('listStatements', () => {
  it('builds the default page as one statement plus one count, tenant-scoped and tie-broken on id', () => {
    const { rows, count } = compiled('');
    expect(rows.sql).toBe(
      'select "t0"."id" as "id", "t0"."name" as "name", "t0"."widget_code" as "code", "t0"."secret" as "secret", "t0"."owner_id" as "owner_id", "t0"."weight" as "weight", "t0"."active" as "active", "t0"."updated_at" as "updated_at" from "widgets" as "t0" where "t0"."tenant_id" = $1 order by "t0"."updated_at" desc, "t0"."id" desc limit $2 offset $3',
    );
    expect(rows.parameters).toEqual([1, 15, 0]);
    expect(count.sql).toBe(
      'select count(*)::int as total from "widgets" as "t0" where "t0"."tenant_id" = $1',
    );
  });

  it('makes every value a parameter and escapes LIKE wildcards', () => {
    const { rows } = compiled(
      "builder[0][where][0]=name&builder[0][where][1]=like&builder[0][where][2]=50%_off&builder[1][s]=o'; drop table x;--&page=2",
    );
    expect(rows.sql).toBe(
      'select "t0"."id" as "id", "t0"."name" as "name", "t0"."widget_code" as "code", "t0"."secret" as "secret", "t0"."owner_id" as "owner_id", "t0"."weight" as "weight", "t0"."active" as "active", "t0"."updated_at" as "updated_at" from "widgets" as "t0" where ("t0"."tenant_id" = $1 and "t0"."name" ilike $2 and ("t0"."name" ilike $3 or "t0"."widget_code" ilike $4)) order by "t0"."updated_at" desc, "t0"."id" desc limit $5 offset $6',
    );
    expect(rows.parameters).toEqual([
      1,
      '%50\\%\\_off%',
      "%o'; drop table x;--%",
      "%o'; drop table x;--%",
      15,
      15,
    ]);
    expect(containsPattern('a\\b')).toBe('%a\\\\b%');
  });

  it('scopes a client to its companies and its portal fields, through relations too', () => {
    const { rows, count } = compiled(
      'builder[0][whereHas][0]=parts&builder[0][whereHas][1][0][where][0]=name&builder[0][whereHas][1][0][where][1]=x',
      client,
    );
    expect(count.sql).toBe(
      'select count(*)::int as total from "widgets" as "t0" where ("t0"."tenant_id" = $1 and "t0"."owner_id" in ($2, $3) and exists (select 1 from "parts" as "t1" where ("t1"."widget_id" = "t0"."id" and "t1"."tenant_id" = $4 and "t1"."visible" = $5 and exists (select 1 from "widgets" as "t2" where ("t2"."id" = "t1"."widget_id" and "t2"."tenant_id" = $6 and "t2"."owner_id" in ($7, $8))) and "t1"."name" = $9)))',
    );
    expect(count.parameters).toEqual([1, 11, 12, 1, true, 1, 11, 12, 'x']);
    expect(
      rows.sql.startsWith(
        'select "t0"."id" as "id", "t0"."name" as "name", "t0"."owner_id" as "owner_id", "t0"."updated_at" as "updated_at" from',
      ),
    ).toBe(true);
  });

  it('a client without companies sees nothing', () => {
    const { count } = compiled('', { ...client, companyIds: [], companyRoles: [] });
    expect(count.sql).toBe(
      'select count(*)::int as total from "widgets" as "t0" where ("t0"."tenant_id" = $1 and false)',
    );
  });

  it('compiles whereIn, null checks, between, doesntHave and customField', () => {
    const { count } = compiled(
      'builder[0][whereIn][0]=id&builder[0][whereIn][1][0]=4&builder[1][whereNull]=owner_id&builder[2][whereBetween][0]=weight&builder[2][whereBetween][1][0]=1&builder[2][whereBetween][1][1]=2' +
        '&builder[3][doesntHave]=parts&builder[4][customField][0]=colour&builder[4][customField][1]=!=&builder[4][customField][2]=red',
    );
    expect(count.sql).toBe(
      'select count(*)::int as total from "widgets" as "t0" where ("t0"."tenant_id" = $1 and "t0"."id" in ($2) and "t0"."owner_id" is null and "t0"."weight" between $3 and $4 and not exists (select 1 from "parts" as "t1" where ("t1"."widget_id" = "t0"."id" and "t1"."tenant_id" = $5)) and exists (select 1 from "custom_values" as "t2" join "custom_fields" as "t3" on "t3"."id" = "t2"."custom_field_id"\n        where "t2"."tenant_id" = $6 and "t3"."name" = $7\n        and "t2"."morphable_type" = $8 and "t2"."morphable_id" = "t0"."id" and "t2"."value" <> $9))',
    );
    expect(count.parameters).toEqual([1, 4, 1, 2, 1, 1, 'colour', 'widget', 'red']);
  });
});
