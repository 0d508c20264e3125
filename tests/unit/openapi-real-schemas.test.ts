import { describe, expect, it } from 'vitest';
import { registry } from '../../server/schema/registry.ts';
import type { Resource } from '../../common/schema/types.ts';
import { writableFieldsFor } from '../../common/schema/fields.ts';
import {
  componentsOf,
  componentValidators,
  operations,
  realDocument,
  resolve,
  type Doc,
} from './openapi-world.ts';

/**
 * The OpenAPI document of the real schemas, checked against the registry it was generated from: a path
 * per action of x-actions, the list descriptions, each record and body with exactly its fields, no
 * write-only field in an answer, and real data and builder queries through its component schemas. Its
 * structure as OpenAPI 3.1: openapi-structure.test.ts.
 */

const realDoc = await realDocument();

describe('the OpenAPI document of the real schemas', () => {
  const reg = registry();
  const doc = realDoc;
  const resources = [...reg.resources.values()];
  const text = JSON.stringify(doc);

  it('has the list path of every resource that has a list, with the builder query', () => {
    const listed = resources.filter((r) => r.actions.includes('index'));
    expect(listed.length).toBeGreaterThan(5);
    for (const r of listed) {
      const index = doc.paths[`/${r.name}`]?.get;
      expect(index, r.name).toBeDefined();
      const params = index.parameters.map((p: Doc) => (resolve(doc, p) as Doc).name);
      expect(params, r.name).toEqual(
        expect.arrayContaining(['builder', 'page', 'with[]', 'withCount[]', 'version']),
      );
      expect(index.tags).toEqual([r.name]);
    }
  });

  it('offers exactly the actions of x-actions', () => {
    const expected = (r: Resource) =>
      [
        ['index', `/${r.name}`, 'get'],
        ['store', `/${r.name}`, 'post'],
        ['show', `/${r.name}/{id}`, 'get'],
        ['update', `/${r.name}/{id}`, 'put'],
        ['destroy', `/${r.name}/{id}`, 'delete'],
        ['update-order', `/${r.name}/{id}/update-order`, 'put'],
      ] as const;
    for (const r of resources) {
      for (const [action, path, method] of expected(r)) {
        expect(Boolean(doc.paths[path]?.[method]), `${r.name} ${action}`).toBe(r.actions.includes(action));
      }
    }
  });

  it('lists what may be filtered, sorted, searched and loaded in each list operation', () => {
    for (const r of resources.filter((x) => x.actions.includes('index'))) {
      const description: string = doc.paths[`/${r.name}`].get.description;
      const line = (label: string) => description.split('\n').find((l) => l.includes(`**${label}**`)) ?? '';
      const fields = Object.values(r.fields);
      for (const f of fields) {
        expect(line('Filterable').includes(`\`${f.name}\``), `${r.name}.${f.name} filter`).toBe(f.filter);
        expect(line('Sortable').includes(`\`${f.name}\``), `${r.name}.${f.name} sort`).toBe(f.sort);
      }
      for (const s of r.search) expect(line('Searchable'), r.name).toContain(`\`${s}\``);
      for (const rel of Object.keys(r.relations)) expect(line('Relations'), r.name).toContain(`\`${rel}\``);
      expect(line('Default sort'), r.name).toContain(`\`${r.defaultSort[0]}\` ${r.defaultSort[1]}`);
    }
  });

  it('shows a column that the schemas leave out nowhere', () => {
    expect(text).not.toContain('password_hash');
    expect(text).not.toContain('tenant_id');
  });

  it('describes each record with exactly its readable fields, and each body with its writable ones', () => {
    for (const r of resources) {
      const c = componentsOf(doc, r);
      const schemas = doc.components.schemas;
      const fields = Object.values(r.fields);
      if (c.record) {
        const readable = fields.filter((f) => !f.writeOnly).map((f) => f.name);
        expect(Object.keys(schemas[c.record].properties), r.name).toEqual(readable);
      }
      // A body is the record body as it is checked (server/schema/record-body.ts): an operator's writable
      // fields, each read-only field by name (refused), then what is taken out before the check.
      const writable = writableFieldsFor(r, false).map((f) => f.name);
      const refused = fields.filter((f) => f.readOnly).map((f) => f.name);
      const custom = r.morphType ? ['custom_fields'] : [];
      if (c.create) {
        expect(Object.keys(schemas[c.create].properties), r.name).toEqual([
          ...writable,
          ...refused,
          ...custom,
        ]);
        expect(schemas[c.create].additionalProperties, r.name).toBe(false);
        expect(schemas[c.create].required ?? [], r.name).toEqual(
          r.required.filter((f) => writable.includes(f) && f !== r.owner),
        );
      }
      if (c.update) {
        // An update also takes the resource's flags (x-flags: no field, a word to its hooks).
        expect(Object.keys(schemas[c.update].properties), r.name).toEqual([
          ...writable,
          ...refused,
          ...custom,
          ...Object.keys(r.flags),
        ]);
        expect(schemas[c.update].required, r.name).toBeUndefined();
      }
    }
  });

  it("never returns a write-only field (a user's password) but accepts it on create", () => {
    const writeOnly = resources.flatMap((r) =>
      Object.values(r.fields)
        .filter((f) => f.writeOnly)
        .map((f) => [r, f.name] as const),
    );
    expect(writeOnly.map(([r, f]) => `${r.name}.${f}`)).toEqual(expect.arrayContaining(['clients.password']));
    for (const [r, field] of writeOnly) {
      const c = componentsOf(doc, r);
      const schemas = doc.components.schemas;
      expect(c.record && schemas[c.record].properties[field], `${r.name}.${field} in record`).toBeFalsy();
      expect(schemas[c.page ?? ''].properties.data.items.$ref).toBe(`#/components/schemas/${c.record}`);
      if (c.create)
        expect(schemas[c.create].properties[field], `${r.name}.${field} in create`).toMatchObject({
          writeOnly: true,
        });
    }
    // Nor in any response of any operation, however it is reached.
    for (const { path, method, op } of operations(doc)) {
      for (const response of Object.values(op.responses)) {
        const body = JSON.stringify(resolve(doc, response));
        const refs = [...body.matchAll(/#\/components\/schemas\/([^"]+)/g)].map((m) => m[1] as string);
        for (const name of refs) {
          const schema = doc.components.schemas[name];
          const nested = name.startsWith('Paginated')
            ? doc.components.schemas[name.slice('Paginated'.length)]
            : schema;
          expect(Object.keys(nested?.properties ?? {}), `${method} ${path}`).not.toContain('password');
        }
      }
    }
  });

  it('validates real data with its component schemas', () => {
    const validator = componentValidators(doc);
    const tickets = componentsOf(doc, reg.require('tickets'));
    const page = {
      data: [{ id: 1, reference: 'T-1', description: 'Printer', status_id: 1, company_id: null }],
      total: 1,
      from: 1,
      to: 1,
      per_page: 15,
      current_page: 1,
      last_page: 1,
    };
    expect(validator(tickets.page as string)(page)).toBe(true);
    expect(validator(tickets.page as string)({ ...page, per_page: 101 })).toBe(false);
    expect(validator(tickets.create as string)({ description: 'Printer', status_id: 1 })).toBe(true);
    // A new ticket without a status starts in the tenant's default one.
    expect(validator(tickets.create as string)({ description: 'Printer' })).toBe(true);
    expect(validator(tickets.create as string)({ status_id: 1 })).toBe(false);
    expect(validator('ValidationError')({ message: 'Bad.', errors: { status_id: ['Bad.'] } })).toBe(true);
    expect(validator('ValidationError')({ message: 'Bad.', errors: { status_id: 'Bad.' } })).toBe(false);
  });

  it('describes the builder items the server parses', () => {
    const builder = componentValidators(doc)('Builder');
    // DESIGN.md's example query, as qs parses it.
    const example = [
      { orderBy: ['updated_at', 'desc'] },
      { where: ['status_id', '=', '3'] },
      { paginate: 15 },
      { where: ['client_id', 'me'] },
      { whereIn: ['status_id', ['1', '2']] },
      { whereNull: 'deadline' },
      { whereNotNull: 'operator_id' },
      { whereHas: ['company', [{ where: ['name', 'like', '%bv%'] }]] },
      { doesntHave: 'messages' },
      { whereBetween: ['created_at', ['2024-01-01', '2024-12-31']] },
      { customField: ['Location', '!=', 'Utrecht'] },
      { s: 'printer' },
    ];
    expect(builder(example), JSON.stringify(builder.errors?.slice(0, 2))).toBe(true);
    for (const bad of [
      [{ orderBy: ['id', 'up'] }],
      [{ paginate: 101 }],
      [{ where: ['id', '~', 1] }],
      [{ where: ['id', 1], s: 'two keys' }],
      [{ groupBy: 'id' }],
    ]) {
      expect(builder(bad), JSON.stringify(bad)).toBe(false);
    }
    // The grammar is described once, on the Builder component, and every list refers to it.
    const description: string = doc.components.schemas.Builder.description;
    for (const key of [
      'orderBy',
      'paginate',
      'whereIn',
      'whereNotNull',
      'whereHas',
      'doesntHave',
      'whereBetween',
      'customField',
    ]) {
      expect(description).toContain(`\`${key}\``);
    }
    expect(description).toContain('builder[1][where][1]==&builder[1][where][2]=3');
    expect(description).toContain('`me`');
    const parameter = doc.paths['/tickets'].get.parameters.find((p: Doc) => p.name === 'builder');
    // OpenAPI's deepObject style cannot hold lists of objects: the JSON-encoded form is what it describes.
    expect(parameter).toMatchObject({
      in: 'query',
      content: { 'application/json': { schema: { $ref: '#/components/schemas/Builder' } } },
    });
    expect(parameter).not.toHaveProperty('style');
    expect(description).toContain('builder=[{"orderBy":["updated_at","desc"]}');
  });
});
