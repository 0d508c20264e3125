import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import Fastify from 'fastify';
import { docsPlugin } from '../../server/docs/plugin.ts';
import { resourceRoutes } from '../../server/resources/plugin.ts';
import type { Db } from '../../server/db/database.ts';
import { Registry, registry, toResource } from '../../server/schema/registry.ts';
import type { Resource } from '../../common/schema/types.ts';
import { writableFieldsFor } from '../../common/schema/fields.ts';

/**
 * The document is what @fastify/swagger builds from the generic resource routes' schemas (the whole
 * app's, with every other route, is checked in tests/api/openapi-routes.test.ts). It is checked in three ways: its structure as OpenAPI 3.1 requires it (a compact
 * meta-schema of the parts that matter, plus the rules a JSON Schema cannot say: $refs resolve, path
 * templates are declared), every component schema compiled by ajv in strict mode (so a leftover `x-`
 * keyword fails), and its content against the registry it was generated from.
 */

type Doc = Record<string, any>;

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/** A small world of its own for the behaviour that the real schemas may not happen to show. */
function fixtureRegistry(): Registry {
  const accounts = toResource({
    $id: 'accounts',
    title: 'Account',
    'x-actions': ['index', 'show', 'store', 'update', 'destroy', 'update-order', 'archive'],
    'x-default-sort': ['name', 'asc'],
    'x-search': ['name', 'email'],
    'x-relations': { notes: { kind: 'hasMany', resource: 'notes', foreignKey: 'account_id' } },
    'x-portal': { actions: ['index'], scope: { user: 'id' }, fields: ['id', 'name'] },
    properties: {
      id: { type: 'integer', readOnly: true, 'x-filter': true, 'x-sort': true },
      name: { type: 'string', maxLength: 100, 'x-filter': true, 'x-sort': true, 'x-list': true },
      email: { type: ['string', 'null'], format: 'email', 'x-filter': true, 'x-me': 'id' },
      password: { type: 'string', minLength: 8, writeOnly: true, 'x-column': 'password_hash' },
      kind: { type: 'integer', 'x-enum': 'accountKinds', 'x-filter': true },
      order: { type: 'integer' },
      settings: {
        type: 'object',
        'x-list': true,
        properties: { 'x-theme': { type: 'string', 'x-filter': true } },
      },
      created_at: { type: 'string', format: 'date-time', readOnly: true, 'x-sort': true },
    },
    required: ['name', 'password', 'created_at'],
  });
  const notes = toResource({
    $id: 'notes',
    // The same title as another resource: the component names must still be distinct.
    title: 'Account',
    'x-actions': ['index'],
    'x-label': 'id',
    properties: {
      id: { type: 'integer', readOnly: true },
      account_id: { type: 'integer', 'x-filter': true },
    },
  });
  return new Registry([accounts, notes], {
    accountKinds: {
      values: [
        { id: 1, name: 'Customer' },
        { id: 2, name: 'Supplier' },
      ],
    },
  });
}

/** Built once per file: several suites read the same document, and none of them changes it. */
function once<T>(build: () => T): () => T {
  let value: T | undefined;
  return () => (value ??= build());
}

/** The document of an app with only the docs and the generic routes: no database is touched to build it. */
async function documentOf(reg: Registry): Promise<Doc> {
  const app = Fastify();
  await app.register(docsPlugin, { registry: reg });
  await app.register(resourceRoutes, { db: {} as Db, registry: reg });
  await app.ready();
  const doc = (await app.inject({ method: 'GET', url: '/api/docs/openapi.json' })).json() as Doc;
  await app.close();
  return doc;
}

const realDoc = await documentOf(registry());
const fixtureDoc = await documentOf(fixtureRegistry());
const real = () => realDoc;
const fixture = () => fixtureDoc;

function pointer(doc: Doc, ref: string): unknown {
  if (!ref.startsWith('#/')) return undefined;
  let node: any = doc;
  for (const raw of ref.slice(2).split('/')) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (node === null || typeof node !== 'object' || !(key in node)) return undefined;
    node = node[key];
  }
  return node;
}

const resolve = (doc: Doc, node: any) =>
  node && typeof node.$ref === 'string' ? pointer(doc, node.$ref) : node;

/** Every [path of the parent, key, value] of the document, depth first. */
function* walk(node: unknown, path: string[] = []): Generator<[string[], string, unknown]> {
  if (Array.isArray(node)) {
    for (const [i, v] of node.entries()) yield* walk(v, [...path, String(i)]);
  } else if (node !== null && typeof node === 'object') {
    for (const [k, v] of Object.entries(node)) {
      yield [path, k, v];
      yield* walk(v, [...path, k]);
    }
  }
}

function operations(doc: Doc): { path: string; method: string; op: Doc }[] {
  return Object.entries<Doc>(doc.paths).flatMap(([path, item]) =>
    METHODS.filter((m) => item[m]).map((method) => ({ path, method, op: item[method] })),
  );
}

/** The parts of the OpenAPI 3.1 meta-schema that a generator gets wrong, in JSON Schema 2020-12. */
const OAS_31_SUBSET = {
  type: 'object',
  required: ['openapi', 'info', 'paths', 'components'],
  properties: {
    openapi: { type: 'string', pattern: '^3\\.1\\.\\d+$' },
    info: {
      type: 'object',
      required: ['title', 'version'],
      properties: { title: { type: 'string' }, version: { type: 'string' } },
    },
    servers: { type: 'array', items: { type: 'object', required: ['url'] } },
    security: { type: 'array', items: { $ref: '#/$defs/securityRequirement' } },
    tags: { type: 'array', items: { type: 'object', required: ['name'] } },
    paths: {
      type: 'object',
      propertyNames: { pattern: '^/' },
      additionalProperties: {
        type: 'object',
        propertyNames: { enum: [...METHODS, 'parameters', 'summary', 'description', 'servers'] },
        properties: Object.fromEntries(METHODS.map((m) => [m, { $ref: '#/$defs/operation' }])),
      },
    },
    components: {
      type: 'object',
      properties: {
        schemas: { type: 'object', propertyNames: { pattern: '^[a-zA-Z0-9._-]+$' } },
        parameters: { type: 'object', additionalProperties: { $ref: '#/$defs/parameter' } },
        responses: { type: 'object', additionalProperties: { $ref: '#/$defs/response' } },
        securitySchemes: {
          type: 'object',
          additionalProperties: {
            type: 'object',
            required: ['type'],
            properties: { type: { enum: ['apiKey', 'http', 'mutualTLS', 'oauth2', 'openIdConnect'] } },
            if: { properties: { type: { const: 'apiKey' } } },
            then: { required: ['name', 'in'], properties: { in: { enum: ['query', 'header', 'cookie'] } } },
            else: { if: { properties: { type: { const: 'http' } } }, then: { required: ['scheme'] } },
          },
        },
      },
    },
  },
  $defs: {
    securityRequirement: {
      type: 'object',
      additionalProperties: { type: 'array', items: { type: 'string' } },
    },
    reference: { type: 'object', required: ['$ref'], properties: { $ref: { type: 'string' } } },
    operation: {
      type: 'object',
      required: ['responses'],
      properties: {
        operationId: { type: 'string' },
        tags: { type: 'array', items: { type: 'string' } },
        parameters: {
          type: 'array',
          items: { anyOf: [{ $ref: '#/$defs/reference' }, { $ref: '#/$defs/parameter' }] },
        },
        requestBody: {
          anyOf: [
            { $ref: '#/$defs/reference' },
            { type: 'object', required: ['content'], properties: { content: { $ref: '#/$defs/content' } } },
          ],
        },
        responses: {
          type: 'object',
          minProperties: 1,
          propertyNames: { pattern: '^([1-5][0-9X]{2}|default)$' },
          additionalProperties: { anyOf: [{ $ref: '#/$defs/reference' }, { $ref: '#/$defs/response' }] },
        },
        security: { type: 'array', items: { $ref: '#/$defs/securityRequirement' } },
      },
    },
    parameter: {
      type: 'object',
      required: ['name', 'in'],
      // A schema, or a content map of exactly one media type (a JSON-encoded parameter), never both.
      oneOf: [{ required: ['schema'] }, { required: ['content'] }],
      properties: {
        name: { type: 'string' },
        in: { enum: ['query', 'header', 'path', 'cookie'] },
        style: {
          enum: ['matrix', 'label', 'form', 'simple', 'spaceDelimited', 'pipeDelimited', 'deepObject'],
        },
        required: { type: 'boolean' },
        schema: { type: 'object' },
        content: { type: 'object', minProperties: 1, maxProperties: 1 },
      },
      if: { properties: { in: { const: 'path' } } },
      then: { required: ['required'], properties: { required: { const: true } } },
    },
    response: {
      type: 'object',
      required: ['description'],
      properties: {
        description: { type: 'string' },
        content: { $ref: '#/$defs/content' },
        headers: { type: 'object' },
      },
    },
    content: {
      type: 'object',
      additionalProperties: {
        type: 'object',
        required: ['schema'],
        properties: { schema: { type: 'object' } },
      },
    },
  },
};

function newAjv(options: { strictRequired?: boolean } = {}) {
  // Strict: an unknown keyword (a leftover `x-` one) is an error. Formats are annotations here.
  return new Ajv2020.default({
    strict: true,
    allowUnionTypes: true,
    validateFormats: false,
    allErrors: true,
    ...options,
  });
}

// The subset requires properties it does not describe further (`url`, `name`), which strict mode flags.
const oasSubset = once(() => newAjv({ strictRequired: false }).compile(OAS_31_SUBSET));

const validatorsOf = new WeakMap<Doc, (name: string) => ValidateFunction>();

/**
 * Every component schema compiled by ajv, `#/components/schemas/X` refs pointing at each other. One
 * ajv per document, so a component is compiled once however many tests use it: compiling is most of
 * this file's time.
 */
function componentValidators(doc: Doc): (name: string) => ValidateFunction {
  const known = validatorsOf.get(doc);
  if (known) return known;
  const base = 'https://docs.test/components.json';
  const text = JSON.stringify(doc.components.schemas).replaceAll(
    '"#/components/schemas/',
    `"${base}#/$defs/`,
  );
  const ajv = newAjv();
  ajv.addSchema({ $id: base, $defs: JSON.parse(text) });
  const validator = (name: string) => {
    const validate = ajv.getSchema(`${base}#/$defs/${name}`);
    if (!validate) throw new Error(`no component schema ${name}`);
    return validate;
  };
  validatorsOf.set(doc, validator);
  return validator;
}

describe.each([
  ['the real schemas', real],
  ['a fixture registry', fixture],
])('the OpenAPI document of %s', (_label, build) => {
  const doc = build();

  it('is OpenAPI 3.1 in its structure', () => {
    expect(doc.openapi).toMatch(/^3\.1\./);
    const validate = oasSubset();
    expect(validate(doc), JSON.stringify(validate.errors?.slice(0, 3))).toBe(true);
    expect(doc.info.title).toBe('Service desk API');
    expect(doc.servers).toEqual([{ url: '/api' }]);
  });

  it('has responses with a description on every operation', () => {
    for (const { path, method, op } of operations(doc)) {
      expect(Object.keys(op.responses).length, `${method} ${path}`).toBeGreaterThan(0);
      for (const [status, response] of Object.entries(op.responses)) {
        expect((resolve(doc, response) as Doc)?.description, `${method} ${path} ${status}`).toBeTypeOf(
          'string',
        );
      }
    }
  });

  it('resolves every $ref to a defined component', () => {
    const refs = [...walk(doc)].filter(([, key]) => key === '$ref').map(([, , value]) => value as string);
    expect(refs.length).toBeGreaterThan(0);
    for (const ref of new Set(refs)) {
      expect(ref, ref).toMatch(/^#\/components\/(schemas|parameters|responses)\/[^/]+$/);
      expect(pointer(doc, ref), ref).toBeDefined();
    }
  });

  it('declares every path template parameter, and only those', () => {
    for (const { path, method, op } of operations(doc)) {
      const inPath = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]).sort();
      const declared = (op.parameters ?? [])
        .map((p: Doc) => resolve(doc, p) as Doc)
        .filter((p: Doc) => p.in === 'path')
        .map((p: Doc) => p.name)
        .sort();
      expect(declared, `${method} ${path}`).toEqual(inPath);
    }
  });

  it('has unique operation ids and declares every tag it uses', () => {
    const ops = operations(doc);
    const ids = ops.map(({ op }) => op.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    const tags = new Set(doc.tags.map((t: Doc) => t.name));
    for (const { path, op } of ops)
      for (const tag of op.tags) expect(tags.has(tag), `${path}: ${tag}`).toBe(true);
  });

  it('security names only the declared schemes', () => {
    expect(doc.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
    // API tokens (issue 38): a bearer scheme of their own, taken wherever the access token is.
    expect(doc.components.securitySchemes.apiToken).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(doc.security).toContainEqual({ apiToken: [] });
    expect(doc.components.securitySchemes.quoteToken).toMatchObject({
      type: 'apiKey',
      in: 'header',
      name: 'X-Quote-Token',
    });
    const used = [...walk(doc)]
      .filter(([path, key]) => key === 'security' && path.at(-1) !== 'properties')
      .flatMap(([, , value]) => (value as Doc[]).flatMap((requirement) => Object.keys(requirement)));
    expect(Object.keys(doc.components.securitySchemes).sort()).toEqual([
      'apiToken',
      'bearerAuth',
      'metricsToken',
      'quoteToken',
    ]);
    for (const name of used) expect(['apiToken', 'bearerAuth', 'metricsToken', 'quoteToken']).toContain(name);
  });

  it('carries none of the x- vocabulary, $id or $schema', () => {
    for (const [path, key] of walk(doc)) {
      const isName = ['properties', 'patternProperties', '$defs'].includes(path.at(-1) ?? '');
      if (isName) continue;
      expect(key.startsWith('x-') || key === '$id' || key === '$schema', `${path.join('.')}.${key}`).toBe(
        false,
      );
    }
  });

  it('has component schemas that ajv compiles in strict mode', () => {
    const validator = componentValidators(doc);
    for (const name of Object.keys(doc.components.schemas)) expect(() => validator(name), name).not.toThrow();
  });
});

/** The four component names of a resource, found through its paths so the test does not guess them. */
function componentsOf(doc: Doc, r: Resource) {
  const name = (ref: string | undefined) => ref?.split('/').at(-1);
  const collection = doc.paths[`/${r.name}`] ?? {};
  const page = name(collection.get?.responses['200'].content['application/json'].schema.$ref);
  return {
    page,
    record: name(doc.components.schemas[page ?? '']?.properties.data.items.$ref),
    create: name(collection.post?.requestBody.content['application/json']?.schema.$ref),
    update: name(doc.paths[`/${r.name}/{id}`]?.put?.requestBody.content['application/json'].schema.$ref),
  };
}

describe('the OpenAPI document of the real schemas', () => {
  const reg = registry();
  const doc = real();
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

describe('the OpenAPI document of a fixture registry', () => {
  const doc = fixture();
  const schemas = doc.components.schemas;

  it('names the components after the title, and tells two resources of one title apart', () => {
    expect(Object.keys(schemas)).toEqual(
      expect.arrayContaining([
        'Account',
        'AccountCreate',
        'AccountUpdate',
        'PaginatedAccount',
        'Notes',
        'PaginatedNotes',
      ]),
    );
    expect(schemas.Error).toMatchObject({ required: ['message'] });
    expect(schemas.ValidationError.properties.errors.additionalProperties).toEqual({
      type: 'array',
      items: { type: 'string' },
    });
  });

  it('keeps the write-only password and the read-only fields where they belong', () => {
    expect(schemas.Account.properties.password).toBeUndefined();
    expect(schemas.Account.properties.created_at).toMatchObject({ readOnly: true });
    expect(schemas.AccountCreate.properties.password).toEqual({
      type: 'string',
      minLength: 8,
      writeOnly: true,
    });
    // created_at is read-only: refused by name, so it cannot be required on create.
    expect(schemas.AccountCreate.properties.created_at).toEqual({ readOnly: true, not: {} });
    expect(schemas.AccountCreate.required).toEqual(['name', 'password']);
    expect(schemas.AccountUpdate.required).toBeUndefined();
    expect(schemas.PaginatedAccount.required).toEqual([
      'data',
      'total',
      'from',
      'to',
      'per_page',
      'current_page',
      'last_page',
    ]);
  });

  it('strips the vocabulary deep inside a field, but not a property that happens to be named x-', () => {
    // Open in the record (its answers are serialised with it and keep the keys it does not list).
    expect(schemas.Account.properties.settings).toEqual({
      type: 'object',
      properties: { 'x-theme': { type: 'string' } },
      additionalProperties: true,
    });
    expect(schemas.AccountCreate.properties.settings).toEqual({
      type: 'object',
      properties: { 'x-theme': { type: 'string' } },
    });
  });

  it('names the values of an enumeration', () => {
    expect(schemas.Account.properties.kind.description).toContain('`1` Customer, `2` Supplier');
  });

  it('offers update-order only where x-actions has it, and nothing that is not in x-actions', () => {
    expect(
      doc.paths['/accounts/{id}/update-order'].put.requestBody.content['application/json'].schema,
    ).toMatchObject({
      required: ['order'],
      properties: { order: { type: 'integer' } },
    });
    expect(Object.keys(doc.paths['/notes'])).toEqual(['get']);
    expect(doc.paths['/notes/{id}']).toBeUndefined();
    expect(doc.paths['/notes/{id}/update-order']).toBeUndefined();
  });

  it('answers 401, 403, 404 and 422 on every resource operation', () => {
    for (const { path, op } of operations(doc).filter(({ path }) => /^\/(accounts|notes)/.test(path))) {
      expect(Object.keys(op.responses), path).toEqual(expect.arrayContaining(['401', '403', '404', '422']));
      expect(op.responses['422'], path).toEqual({ $ref: '#/components/responses/Unprocessable' });
      expect(
        Object.keys(op.responses).some((s) => s === '200' || s === '201'),
        path,
      ).toBe(true);
    }
    expect(doc.paths['/accounts'].post.responses['201']).toBeDefined();
  });

  it('lists relations, me, portal rules and further actions in the descriptions', () => {
    const index = doc.paths['/accounts'].get;
    expect(index.description).toContain('`notes` (hasMany notes)');
    expect(index.description).toContain('`email` (the caller');
    expect(index.description).toContain('`portal.accounts.index`');
    expect(index.description).toContain('They receive only `id`, `name`');
    expect(doc.paths['/accounts'].post.description).toContain('Clients (portal) cannot call this');
    // A relation list names its relations; a path (`notes.account`) is a name too, so no enum.
    const withParameter = index.parameters.find((p: Doc) => p.name === 'with[]');
    expect(withParameter).toMatchObject({
      style: 'form',
      explode: true,
      schema: { items: { type: 'string' } },
    });
    expect(withParameter.description).toContain('Relations: `notes`.');
    expect(doc.tags.find((t: Doc) => t.name === 'accounts').description).toContain('`archive`');
  });
});
