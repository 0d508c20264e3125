/** An accepted quote is what the client signed: neither it nor its lines change afterwards. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, targets, type TestApp } from './harness.ts';

// 1×1 transparent PNG.
const SIGNATURE =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

describe.each(targets)('accepted quotes on $name', (target) => {
  let t: TestApp;
  let accepted: number;
  let concept: number;

  beforeAll(async () => {
    t = await buildTestApp(target);
    const jansen = await t.db
      .selectFrom('companies')
      .select('id')
      .where('name', '=', 'Jansen BV')
      .executeTakeFirstOrThrow();
    const sent = await t.db
      .selectFrom('quotes')
      .select('id')
      .where('company_id', '=', jansen.id)
      .where('status_id', '=', 2)
      .executeTakeFirstOrThrow();
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/quotes/${sent.id}/accept`,
      headers: await t.as('client@example.com'),
      payload: { name: 'Pieter Jansen', signature: SIGNATURE },
    });
    expect(res.statusCode, res.body).toBe(200);
    accepted = sent.id;
    concept = (
      await t.db.selectFrom('quotes').select('id').where('status_id', '=', 1).executeTakeFirstOrThrow()
    ).id;
  });
  afterAll(() => t?.close());

  async function call(method: 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) {
    return t.app.inject({ method, url, headers: await t.as('admin@example.com'), payload });
  }

  it('refuses changes to the quote and its lines', async () => {
    const edit = await call('PUT', `/api/quotes/${accepted}`, { name: 'Changed afterwards' });
    expect(edit.statusCode).toBe(422);
    expect(edit.json().message).toBe('An accepted quote can no longer be changed.');
    const line = await t.db
      .selectFrom('quote_lines')
      .select('id')
      .where('quote_id', '=', accepted)
      .executeTakeFirstOrThrow();
    expect((await call('PUT', `/api/quote-lines/${line.id}`, { price: 1 })).statusCode).toBe(422);
    expect((await call('DELETE', `/api/quote-lines/${line.id}`)).statusCode).toBe(422);
    const added = await call('POST', '/api/quote-lines', {
      quote_id: accepted,
      description: 'Extra',
      quantity: 1,
      price: 10,
    });
    expect(added.statusCode).toBe(422);
    expect((await call('DELETE', `/api/quotes/${accepted}`)).statusCode).toBe(422);
  });

  it('a concept quote and its lines still change', async () => {
    expect((await call('PUT', `/api/quotes/${concept}`, { name: 'Nieuwe naam' })).statusCode).toBe(200);
    const added = await call('POST', '/api/quote-lines', {
      quote_id: concept,
      description: 'Extra',
      quantity: 1,
      price: 10,
    });
    expect(added.statusCode, added.body).toBe(201);
    expect((await call('DELETE', `/api/quote-lines/${added.json().id}`)).statusCode).toBe(200);
  });
});
