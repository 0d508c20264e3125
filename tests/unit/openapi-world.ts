import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020.js';
import Fastify from 'fastify';
import { docsPlugin } from '../../server/docs/plugin.ts';
import { resourceRoutes } from '../../server/resources/plugin.ts';
import type { Db } from '../../server/db/database.ts';
import { Registry, registry, toResource } from '../../server/schema/registry.ts';
import type { Resource } from '../../common/schema/types.ts';

/**
 * What the OpenAPI document's test files share (openapi-structure, openapi-real-schemas and
 * openapi-fixture): the two documents they read, built from the generic resource routes' schemas, and
 * the ways to walk, resolve and validate them.
 */

export type Doc = Record<string, any>;

export const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/** A small world of its own for the behaviour that the real schemas may not happen to show. */
export function fixtureRegistry(): Registry {
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

/** Built once per worker: several suites and files read the same document, and none of them changes it. */
export function once<T>(build: () => T): () => T {
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

/** Each document is built once per worker, on first use: a file that reads only one does not build both. */
export const realDocument = once(() => documentOf(registry()));
export const fixtureDocument = once(() => documentOf(fixtureRegistry()));

export function pointer(doc: Doc, ref: string): unknown {
  if (!ref.startsWith('#/')) return undefined;
  let node: any = doc;
  for (const raw of ref.slice(2).split('/')) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (node === null || typeof node !== 'object' || !(key in node)) return undefined;
    node = node[key];
  }
  return node;
}

export const resolve = (doc: Doc, node: any) =>
  node && typeof node.$ref === 'string' ? pointer(doc, node.$ref) : node;

/** Every [path of the parent, key, value] of the document, depth first. */
export function* walk(node: unknown, path: string[] = []): Generator<[string[], string, unknown]> {
  if (Array.isArray(node)) {
    for (const [i, v] of node.entries()) yield* walk(v, [...path, String(i)]);
  } else if (node !== null && typeof node === 'object') {
    for (const [k, v] of Object.entries(node)) {
      yield [path, k, v];
      yield* walk(v, [...path, k]);
    }
  }
}

export function operations(doc: Doc): { path: string; method: string; op: Doc }[] {
  return Object.entries<Doc>(doc.paths).flatMap(([path, item]) =>
    METHODS.filter((m) => item[m]).map((method) => ({ path, method, op: item[method] })),
  );
}

export function newAjv(options: { strictRequired?: boolean } = {}) {
  // Strict: an unknown keyword (a leftover `x-` one) is an error. Formats are annotations here.
  return new Ajv2020.default({
    strict: true,
    allowUnionTypes: true,
    validateFormats: false,
    allErrors: true,
    ...options,
  });
}

const validatorsOf = new WeakMap<Doc, (name: string) => ValidateFunction>();

/**
 * Every component schema compiled by ajv, `#/components/schemas/X` refs pointing at each other. One
 * ajv per document, so a component is compiled once however many tests use it: compiling is most of
 * these files' time.
 */
export function componentValidators(doc: Doc): (name: string) => ValidateFunction {
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

/** The four component names of a resource, found through its paths so the test does not guess them. */
export function componentsOf(doc: Doc, r: Resource) {
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
