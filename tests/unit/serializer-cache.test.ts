/**
 * Response serialisers shared by the apps of one process (server/http/serializer-cache.ts): the same
 * schema against the same shared schemas is compiled once, and anything that changes what a serialiser
 * writes (the route's schema, the shared schemas, the options) gets one of its own.
 */
import Fastify, { type FastifyInstance } from 'fastify';
import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';
import { afterEach, describe, expect, it } from 'vitest';
import { sharedSerializers } from '../../server/http/serializer-cache.ts';

type Route = Parameters<ReturnType<ReturnType<typeof SerializerSelector>>>[0];
const route = (url: string, schema: Record<string, unknown>) =>
  ({ schema, method: 'GET', url, httpStatus: '200' }) as Route;
const THING = { $id: 'Thing', type: 'object', properties: { id: { type: 'integer' } } };

describe('sharedSerializers', () => {
  it('compiles a schema once for apps with the same shared schemas, and again for anything different', () => {
    const compiled: string[] = [];
    const counting = sharedSerializers((external, options) => {
      const compile = SerializerSelector()(external, options);
      return (r) => {
        compiled.push(r.url);
        return compile(r);
      };
    });
    const one = { type: 'object', properties: { name: { type: 'string' } } };
    const other = { type: 'object', properties: { title: { type: 'string' } } };
    // Two apps, each with its own (equal) copy of the shared schemas, as each buildApp makes them.
    const first = counting({ Thing: structuredClone(THING) }, {})(route('/a', one));
    const second = counting({ Thing: structuredClone(THING) }, {})(route('/b', structuredClone(one)));
    expect(second).toBe(first);
    expect(compiled).toEqual(['/a']);

    const otherSchema = counting({ Thing: THING }, {})(route('/a', other));
    const otherShared = counting(
      { Thing: { ...THING, properties: { id: { type: 'string' } } } },
      {},
    )(route('/a', one));
    expect(compiled).toEqual(['/a', '/a', '/a']);
    expect(otherSchema({ title: 'x', name: 'y' })).toBe('{"title":"x"}');
    expect(otherShared({ name: 'y' })).toBe('{"name":"y"}');
  });

  describe('in Fastify apps', () => {
    const apps: FastifyInstance[] = [];
    afterEach(async () => {
      await Promise.all(apps.splice(0).map((app) => app.close()));
    });

    const shared = sharedSerializers(SerializerSelector());
    async function answer(schema: Record<string, unknown>, data: unknown): Promise<string> {
      const app = Fastify({ schemaController: { compilersFactory: { buildSerializer: shared } } });
      apps.push(app);
      app.addSchema(THING);
      app.get('/thing', { schema: { response: { 200: schema } } }, async () => data);
      return (await app.inject({ method: 'GET', url: '/thing' })).body;
    }

    it("writes each app's answer by that app's own schema, on the same address", async () => {
      const data = { thing: { id: 7, secret: 's' }, note: 'n', extra: 'e' };
      const withNote = {
        type: 'object',
        properties: { thing: { $ref: 'Thing#' }, note: { type: 'string' } },
      };
      const withoutNote = { type: 'object', properties: { thing: { $ref: 'Thing#' } } };
      expect(await answer(withNote, data)).toBe('{"thing":{"id":7},"note":"n"}');
      expect(await answer(structuredClone(withNote), data)).toBe('{"thing":{"id":7},"note":"n"}');
      expect(await answer(withoutNote, data)).toBe('{"thing":{"id":7}}');
    });
  });
});
