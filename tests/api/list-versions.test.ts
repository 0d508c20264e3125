/**
 * SPEC 3: the invoices' version-2 listing (InvoiceCode, ReferenceNumber, AmountIncl, Date, Status,
 * ViewURL) is the same rows, scope and paging as version 1 under other names; GET /invoicing{ViewURL}
 * answers the file.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, targets, type TestApp } from './harness.ts';

describe.each(targets)('list versions on $name', (target) => {
  let t: TestApp;
  const get = async (url: string, email = 'client@example.com') =>
    t.app.inject({ method: 'GET', url, headers: await t.as(email) });

  beforeAll(async () => {
    t = await buildTestApp(target);
  });
  afterAll(() => t?.close());

  it('answers the version-2 invoice rows for exactly the version-1 rows', async () => {
    const v1 = await get('/api/invoices?builder[0][orderBy][0]=date&builder[0][orderBy][1]=desc');
    const v2 = await get('/api/invoices?builder[0][orderBy][0]=date&builder[0][orderBy][1]=desc&version=2');
    expect(v2.statusCode, v2.body).toBe(200);
    const rows = v1.json().data;
    expect(rows.length).toBeGreaterThan(0);
    expect(v2.json().total).toBe(v1.json().total);
    expect(v2.json().data).toEqual(
      rows.map((r: any) => ({
        InvoiceCode: r.code,
        ReferenceNumber: r.reference,
        AmountIncl: r.amount_incl,
        Date: r.date,
        Status: r.status_id,
        ViewURL: `/${r.id}`,
      })),
    );
    const file = await get(`/api/invoicing${v2.json().data[0].ViewURL}`);
    expect(file.statusCode).toBe(200);
    expect(file.json().Filename).toBe(`${rows[0].code}.pdf`);
    expect(Buffer.from(file.json().Base64, 'base64').subarray(0, 4).toString('latin1')).toBe('%PDF');
  });

  it('refuses a version a list does not have', async () => {
    const res = await get('/api/invoices?version=3');
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.version).toEqual(['The list of invoices has no version 3.']);
    expect((await get('/api/tickets?version=2')).statusCode).toBe(422);
    expect((await get('/api/tickets?version=1')).statusCode).toBe(200);
  });
});
