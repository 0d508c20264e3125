/**
 * POST quotes/{id}/duplicate (SPEC 7, issue 6): a new concept quote with the original's fields, lines and
 * custom values, in one transaction; operators with the permission only; another tenant's quote is 404.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, targets, type TestApp } from './harness.ts';
import { backOffice, type BackOffice } from './back-office.ts';

describe.each(targets)('quote duplicate on $name', (target) => {
  let t: TestApp;
  let b: BackOffice;

  const post = (url: string, headers: Record<string, string>) =>
    t.app.inject({ method: 'POST', url, headers });

  beforeAll(async () => {
    t = await buildTestApp(target);
    b = await backOffice(t, ['tenant.quotes.duplicate']);
  }, 120_000);

  afterAll(async () => {
    await t?.close();
  });

  async function acceptedQuote(): Promise<number> {
    const quote = await t.db
      .insertInto('quotes')
      .values({
        tenant_id: b.tenantId,
        company_id: b.ownCompanyId,
        name: 'Nieuwe laptops',
        description: 'Drie laptops',
        status_id: 3,
        total: 2550,
        signed_name: 'Piet',
        signature: 'data:image/png;base64,AAAA',
        accepted_at: new Date(),
        sent_at: new Date(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await t.db
      .insertInto('quote_lines')
      .values([
        {
          tenant_id: b.tenantId,
          quote_id: quote.id,
          description: 'Laptop',
          quantity: 3,
          price: 800,
          total: 2400,
          order: 1,
        },
        {
          tenant_id: b.tenantId,
          quote_id: quote.id,
          description: 'Installatie',
          quantity: 1,
          price: 150,
          total: 150,
          order: 2,
        },
      ])
      .execute();
    return Number(quote.id);
  }

  it('copies the quote with its lines as a new concept quote', async () => {
    const id = await acceptedQuote();
    const res = await post(`/api/quotes/${id}/duplicate`, b.admin);
    expect(res.statusCode, res.body).toBe(201);
    const copy = res.json();
    expect(copy.id).not.toBe(id);
    expect(copy).toMatchObject({
      name: 'Nieuwe laptops',
      description: 'Drie laptops',
      company_id: b.ownCompanyId,
      status_id: 1,
      total: 2550,
    });
    const row = await t.db
      .selectFrom('quotes')
      .selectAll()
      .where('id', '=', copy.id)
      .executeTakeFirstOrThrow();
    expect([row.signature, row.signed_name, row.accepted_at, row.sent_at]).toEqual([null, null, null, null]);
    const lines = await t.db
      .selectFrom('quote_lines')
      .select(['description', 'quantity', 'price', 'total'])
      .where('quote_id', '=', copy.id)
      .orderBy('order')
      .execute();
    expect(lines.map((l) => [l.description, Number(l.quantity), Number(l.price), Number(l.total)])).toEqual([
      ['Laptop', 3, 800, 2400],
      ['Installatie', 1, 150, 150],
    ]);
    // The original is untouched.
    const original = await t.db.selectFrom('quote_lines').select('id').where('quote_id', '=', id).execute();
    expect(original).toHaveLength(2);
  });

  it('is 403 without the permission and for clients, 404 for another tenant or no quote', async () => {
    const id = await acceptedQuote();
    expect((await post(`/api/quotes/${id}/duplicate`, b.limited)).statusCode).toBe(403);
    expect((await post(`/api/quotes/${id}/duplicate`, b.client)).statusCode).toBe(403);
    const foreign = await t.db
      .insertInto('quotes')
      .values({ tenant_id: b.otherTenantId, name: 'Elders', status_id: 1 })
      .returning('id')
      .executeTakeFirstOrThrow();
    expect((await post(`/api/quotes/${foreign.id}/duplicate`, b.admin)).statusCode).toBe(404);
    expect((await post('/api/quotes/999999/duplicate', b.admin)).statusCode).toBe(404);
    const count = await t.db
      .selectFrom('quotes')
      .select(t.db.fn.countAll().as('n'))
      .where('name', '=', 'Elders')
      .executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(1);
  });
});
