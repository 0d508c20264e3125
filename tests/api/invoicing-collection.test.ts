/**
 * SPEC 7's collection `invoicing/invoices` (issue 14, item 20): GET /api/invoicing/invoices lists the
 * invoices in the invoicing shape of SPEC 3 (InvoiceCode, ReferenceNumber, AmountIncl, Date, Status,
 * ViewURL) with the generic list's query, paging and scope; ViewURL opens the file under /invoicing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, targets, type TestApp } from './harness.ts';

const V2_KEYS = ['AmountIncl', 'Date', 'InvoiceCode', 'ReferenceNumber', 'Status', 'ViewURL'];

describe.each(targets)('invoicing/invoices on $name', (target) => {
  let t: TestApp;
  const get = async (url: string, email = 'admin@example.com') =>
    t.app.inject({ method: 'GET', url, headers: await t.as(email) });

  beforeAll(async () => {
    t = await buildTestApp(target);
  });
  afterAll(() => t?.close());

  it('answers a page of every invoice in the invoicing shape, as the invoices list does', async () => {
    const res = await get('/api/invoicing/invoices');
    expect(res.statusCode, res.body).toBe(200);
    const page = res.json();
    const records = (await get('/api/invoices')).json();
    expect(page.total).toBeGreaterThan(0);
    expect(page).toMatchObject({
      total: records.total,
      from: 1,
      to: Math.min(15, records.total),
      per_page: 15,
      current_page: 1,
      last_page: records.last_page,
    });
    expect(page.data).toHaveLength(records.data.length);
    expect(page.data).toEqual(
      records.data.map((r: any) => ({
        InvoiceCode: r.code,
        ReferenceNumber: r.reference,
        AmountIncl: r.amount_incl,
        Date: r.date,
        Status: r.status_id,
        ViewURL: `/${r.id}`,
      })),
    );
    for (const row of page.data) expect(Object.keys(row).sort()).toEqual(V2_KEYS);
  });

  it('takes the builder query: filter, order and page size', async () => {
    const res = await get(
      '/api/invoicing/invoices?builder[0][where][0]=status_id&builder[0][where][1]==&builder[0][where][2]=4' +
        '&builder[1][orderBy][0]=code&builder[1][orderBy][1]=asc&builder[2][paginate]=2',
    );
    expect(res.statusCode, res.body).toBe(200);
    const page = res.json();
    expect(page.per_page).toBe(2);
    expect(page.data.length).toBeGreaterThan(0);
    expect(page.data.length).toBeLessThanOrEqual(2);
    expect(page.data.every((row: any) => row.Status === 4)).toBe(true);
    const codes = page.data.map((row: any) => row.InvoiceCode);
    expect(codes).toEqual([...codes].sort());
  });

  it('shows a client only the invoiced invoices of its own companies', async () => {
    const mine = await get('/api/invoicing/invoices?builder[0][paginate]=100', 'client@example.com');
    expect(mine.statusCode, mine.body).toBe(200);
    const theirs = await get('/api/invoicing/invoices?builder[0][paginate]=100', 'other@example.com');
    const own = (await get('/api/invoices?builder[0][paginate]=100&version=2', 'client@example.com')).json();
    const all = (await get('/api/invoicing/invoices?builder[0][paginate]=100')).json();
    expect(mine.json().data.length).toBeGreaterThan(0);
    expect(mine.json().data).toEqual(own.data);
    expect(mine.json().total).toBeLessThan(all.total);
    const urls = new Set(mine.json().data.map((row: any) => row.ViewURL));
    expect(theirs.json().data.some((row: any) => urls.has(row.ViewURL))).toBe(false);
    // The ViewURL of a listed invoice opens its file for the same client.
    const file = await get(`/api/invoicing${mine.json().data[0].ViewURL}`, 'client@example.com');
    expect(file.statusCode).toBe(200);
    expect(file.json().Filename).toBe(`${mine.json().data[0].InvoiceCode}.pdf`);
    expect(Buffer.from(file.json().Base64, 'base64').subarray(0, 4).toString('latin1')).toBe('%PDF');
  });

  it('answers the invoice records with version 1, and refuses a version it does not have', async () => {
    const v1 = await get('/api/invoicing/invoices?version=1');
    expect(v1.statusCode).toBe(200);
    expect(v1.json()).toEqual((await get('/api/invoices')).json());
    const v3 = await get('/api/invoicing/invoices?version=3');
    expect(v3.statusCode).toBe(422);
    expect(v3.json().errors.version).toEqual(['The list of invoices has no version 3.']);
  });

  it('says what is wrong with a bad query, and needs a signed-in caller', async () => {
    const bad = await get('/api/invoicing/invoices?builder[0][where][0]=nope&builder[0][where][1]=1');
    expect(bad.statusCode).toBe(422);
    expect(JSON.stringify(bad.json().errors)).toContain('nope');
    const anonymous = await t.app.inject({ method: 'GET', url: '/api/invoicing/invoices' });
    expect(anonymous.statusCode).toBe(401);
  });
});
