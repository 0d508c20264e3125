/** A quote link (record token) opens exactly one quote through the generic API, and nothing else. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRecordToken } from '../../server/auth/plugin.ts';
import { buildTestApp, targets, type TestApp } from './harness.ts';

describe.each(targets)('quote token on $name', (target) => {
  let t: TestApp;
  let quote: { id: number; tenant_id: number; company_id: number };
  let otherQuote: { id: number };
  let headers: Record<string, string>;

  beforeAll(async () => {
    t = await buildTestApp(target);
    const quotes = await t.db
      .selectFrom('quotes')
      .select(['id', 'tenant_id', 'company_id'])
      .where('status_id', '=', 2)
      .orderBy('id')
      .execute();
    quote = quotes[0] as typeof quote;
    otherQuote = quotes.find((q) => q.id !== quote.id) as typeof otherQuote;
    headers = { 'x-quote-token': await createRecordToken(t.db, quote.tenant_id, 'quotes', quote.id) };
  });
  afterAll(() => t?.close());

  it('opens its quote, with the quote lines', async () => {
    const res = await t.app.inject({ method: 'GET', url: `/api/quotes/${quote.id}?with[]=lines`, headers });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().id).toBe(quote.id);
    expect(Array.isArray(res.json().lines)).toBe(true);
    expect(res.json().lines.length).toBeGreaterThan(0);
  });

  it('opens no other quote, lists nothing, and is no login', async () => {
    expect(
      (await t.app.inject({ method: 'GET', url: `/api/quotes/${otherQuote.id}`, headers })).statusCode,
    ).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: '/api/quotes', headers })).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: '/api/tickets', headers })).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: `/api/invoices/1`, headers })).statusCode).toBe(403);
    expect(
      (await t.app.inject({ method: 'PUT', url: `/api/quotes/${quote.id}`, headers, payload: {} }))
        .statusCode,
    ).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: '/api/auth/me', headers })).statusCode).toBe(401);
  });

  it('a wrong token is no token', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/quotes/${quote.id}`,
      headers: { 'x-quote-token': 'forged' },
    });
    expect(res.statusCode).toBe(401);
  });
});
