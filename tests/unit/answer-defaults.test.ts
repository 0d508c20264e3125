/**
 * Issue 34: an answer never holds a value the server did not write. A JSON Schema `default` is for a
 * new record's input; fast-json-stringify, writing an answer by a schema with a `default`, fills the
 * default in for a field the row lacks (a client's view of a record with the field hidden in the
 * portal), so the client read another value than the one stored. Over every resource: the answers'
 * schemas carry no `default`, and an answer that lacks a field that has a default in the schema lacks it
 * when written.
 */
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { answerSerializers } from '../../server/http/answer-serializers.ts';
import { componentSchemas, namesOf } from '../../server/docs/components.ts';
import { schemaRef } from '../../server/docs/refs.ts';
import { loadRegistry, registry, SCHEMA_DIR } from '../../server/schema/registry.ts';
import type { Resource } from '../../common/schema/types.ts';

/** The paths inside a schema where a `default` keyword is (not a property named `default`). */
function defaultsIn(value: unknown, path = '$'): string[] {
  if (Array.isArray(value)) return value.flatMap((v, i) => defaultsIn(v, `${path}[${i}]`));
  if (typeof value !== 'object' || value === null) return [];
  const found: string[] = [];
  for (const [key, v] of Object.entries(value)) {
    if (key === 'default') found.push(path);
    else if (['enum', 'const', 'examples', 'example'].includes(key)) continue;
    else if (key === 'properties' && typeof v === 'object' && v !== null) {
      for (const [name, s] of Object.entries(v)) found.push(...defaultsIn(s, `${path}.${name}`));
    } else found.push(...defaultsIn(v, `${path}.${key}`));
  }
  return found;
}

/** The fields of a resource whose schema names a default. */
const defaulted = (r: Resource) => Object.values(r.fields).filter((f) => defaultsIn(f.schema).length > 0);

/** What the app writes for `row` by the record schema of `resource` (its show answer). */
async function written(resource: Resource, row: Record<string, unknown>): Promise<Record<string, unknown>> {
  const app = Fastify({ schemaController: answerSerializers(false) });
  for (const schema of componentSchemas(registry())) app.addSchema(schema);
  app.get(
    '/record',
    { schema: { response: { 200: schemaRef(namesOf(registry(), resource).record) } } },
    () => row,
  );
  try {
    return (await app.inject({ method: 'GET', url: '/record' })).json();
  } finally {
    await app.close();
  }
}

describe('answers and the schemas’ defaults', () => {
  const resources = [...registry().resources.values()];

  it('knows resources with a default (else this test tests nothing)', () => {
    expect(resources.filter((r) => defaulted(r).length > 0).map((r) => r.name)).toContain('mailboxes');
  });

  it('has no default in the schema of any record as the API returns it', () => {
    const records = new Set(resources.map((r) => namesOf(registry(), r).record));
    const found = componentSchemas(registry())
      .filter((s) => records.has(String(s.$id)))
      .flatMap((s) => defaultsIn(s).map((path) => `${String(s.$id)} ${path}`));
    expect(found).toEqual([]);
  });

  it('keeps the defaults of the create bodies (they are for input)', () => {
    const create = componentSchemas(registry()).find(
      (s) => s.$id === namesOf(registry(), registry().require('mailboxes')).create,
    );
    expect(defaultsIn(create)).not.toEqual([]);
  });

  it.each(resources.filter((r) => defaulted(r).length > 0).map((r) => [r.name, r] as const))(
    'writes no value of its own for a field %s’s answer lacks',
    async (_name, resource) => {
      const answer = await written(resource, { id: 1 });
      for (const field of defaulted(resource)) expect(answer, field.name).not.toHaveProperty(field.name);
    },
  );

  it('writes no default even when the answer’s own schema has one', async () => {
    const app = Fastify({ schemaController: answerSerializers(false) });
    const schema = {
      type: 'object',
      properties: { id: { type: 'integer' }, published: { type: 'boolean', default: false } },
    };
    app.get('/record', { schema: { response: { 200: schema } } }, () => ({ id: 1 }));
    expect((await app.inject({ method: 'GET', url: '/record' })).json()).toEqual({ id: 1 });
    await app.close();
  });

  it('does so for a resource that is only a schema', async () => {
    const articles = {
      $id: 'demo-articles',
      title: 'Demo article',
      type: 'object',
      'x-default-sort': ['id', 'asc'],
      'x-label': 'title',
      properties: {
        id: { type: 'integer', readOnly: true, 'x-filter': true, 'x-sort': true },
        title: { type: 'string', 'x-filter': true, 'x-sort': true },
        published: { type: 'boolean', default: false },
      },
    };
    const withArticles = loadRegistry(SCHEMA_DIR, [articles]);
    const app = Fastify({ schemaController: answerSerializers(false) });
    for (const schema of componentSchemas(withArticles)) app.addSchema(schema);
    const name = namesOf(withArticles, withArticles.require('demo-articles')).record;
    app.get('/record', { schema: { response: { 200: schemaRef(name) } } }, () => ({ id: 1, title: 'T' }));
    expect((await app.inject({ method: 'GET', url: '/record' })).json()).toEqual({ id: 1, title: 'T' });
    await app.close();
  });
});
