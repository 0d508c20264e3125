/**
 * The test servers' check of every answer against what its response schema writes
 * (server/http/serialization-check.ts): a schema that would change an answer fails the call with the
 * route, the place and both values, instead of quietly changing what the apps read.
 */
import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import {
  lazySerializers,
  checkedSerializers,
  firstDifference,
  serializationCheckEnabled,
} from '../../server/http/serialization-check.ts';
import { installErrorHandler } from '../../server/http/error-handler.ts';

describe('firstDifference', () => {
  it('names the first path where two JSON values differ, with both values', () => {
    expect(firstDifference({ a: [1, { b: null }] }, { a: [1, { b: '' }] })).toEqual({
      path: '$.a[1].b',
      expected: null,
      actual: '',
    });
  });

  it('names a key that only one side has', () => {
    expect(firstDifference({ id: 1, replica: 'ok' }, { id: 1 })).toEqual({
      path: '$.replica',
      expected: 'ok',
      actual: undefined,
    });
  });

  it('finds nothing in equal values', () => {
    expect(firstDifference({ a: [1, 'x', null, { b: true }] }, { a: [1, 'x', null, { b: true }] })).toBe(
      undefined,
    );
  });
});

describe('the serialisation check', () => {
  let app: FastifyInstance | undefined;
  afterEach(async () => {
    await app?.close();
    app = undefined;
  });

  async function appAnswering(data: unknown, schema: Record<string, unknown>) {
    app = Fastify({ schemaController: { compilersFactory: { buildSerializer: checkedSerializers() } } });
    installErrorHandler(app);
    app.addSchema({ $id: 'Thing', type: 'object', properties: { id: { type: 'integer' } } });
    app.get('/thing', { schema: { response: { 200: schema } } }, async () => data);
    return app.inject({ method: 'GET', url: '/thing' });
  }

  it('is on in this test run (the vitest config sets it)', () => {
    expect(serializationCheckEnabled(process.env)).toBe(true);
    expect(serializationCheckEnabled({ SERIALIZATION_CHECK: '1' })).toBe(false);
  });

  it('passes an answer that its schema writes unchanged, shared schemas included', async () => {
    const response = await appAnswering(
      { things: [{ id: 1 }], note: null },
      {
        type: 'object',
        properties: {
          things: { type: 'array', items: { $ref: 'Thing#' } },
          note: { type: ['string', 'null'] },
        },
      },
    );
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ things: [{ id: 1 }], note: null });
  });

  it('fails a null that a string schema would write as an empty string', async () => {
    const response = await appAnswering(
      { mail_error: null },
      { type: 'object', properties: { mail_error: { type: 'string' } } },
    );
    expect(response.statusCode).toBe(500);
    expect(response.json().message).toBe(
      'GET /thing (200): the response schema changes the answer at $.mail_error: the handler gave null, ' +
        'the schema wrote ""',
    );
  });

  it('fails a field that the schema would drop', async () => {
    const response = await appAnswering({ id: 1, replica: 'ok' }, { $ref: 'Thing#' });
    expect(response.statusCode).toBe(500);
    expect(response.json().message).toBe(
      'GET /thing (200): the response schema changes the answer at $.replica: the handler gave "ok", ' +
        'the schema wrote (nothing)',
    );
  });

  it('fails an answer that lacks a field the schema requires', async () => {
    const response = await appAnswering(
      {},
      { type: 'object', required: ['message'], properties: { message: { type: 'string' } } },
    );
    expect(response.statusCode).toBe(500);
    expect(response.json().message).toMatch(
      /^GET \/thing \(200\): the response schema cannot write this answer: .*message.*required/,
    );
  });
});

describe('lazySerializers', () => {
  it("makes a route's writer at its first answer, once, and never for a route that does not answer", () => {
    const made: string[] = [];
    const factory = lazySerializers(() => (route) => {
      made.push(route.url);
      return (data: unknown) => `<${JSON.stringify(data)}>`;
    });
    const compile = factory({}, {});
    const route = (url: string) => ({ schema: {}, method: 'GET', url, httpStatus: '200' }) as never;
    const answering = compile(route('/answers'));
    compile(route('/silent'));
    expect(made).toEqual([]);
    expect(answering({ a: 1 })).toBe('<{"a":1}>');
    expect(answering({ a: 2 })).toBe('<{"a":2}>');
    expect(made).toEqual(['/answers']);
  });
});
