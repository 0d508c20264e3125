/**
 * Invoice PDFs: POST /api/invoices/{id}/download and GET /api/invoicing/{id} ({Base64, Filename}) for a
 * client of the invoice's company; other clients and drafts (no external_id) do not exist for a client.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { formatMoney } from '../../common/format.ts';
import { buildTestApp, targets, type TestApp } from './harness.ts';

async function pdfText(pdf: Buffer | Uint8Array): Promise<string> {
  const doc = await getDocument({ data: new Uint8Array(pdf), verbosity: 0, isEvalSupported: false }).promise;
  const pages: string[] = [];
  for (let n = 1; n <= doc.numPages; n++) {
    const content = await (await doc.getPage(n)).getTextContent();
    pages.push(content.items.map((item) => ('str' in item ? item.str : '')).join(' '));
  }
  await doc.destroy();
  return pages.join('\n');
}

describe.each(targets)('invoice PDFs on $name', (target) => {
  let t: TestApp;
  let client: Record<string, string>;
  let otherClient: Record<string, string>;
  let operator: Record<string, string>;
  let invoice: { id: number; code: string; amount_incl: number; company: string };
  let draftId: number;
  let lineDescription: string;

  beforeAll(async () => {
    t = await buildTestApp(target);
    const invoices = await t.db
      .selectFrom('invoices as i')
      .innerJoin('companies as c', 'c.id', 'i.company_id')
      .innerJoin('company_user as cu', 'cu.company_id', 'c.id')
      .innerJoin('users as u', 'u.id', 'cu.user_id')
      .select(['i.id', 'i.code', 'i.external_id', 'i.amount_incl', 'c.name as company'])
      .where('u.email', '=', 'client@example.com')
      .orderBy('i.id')
      .execute();
    const invoiced = invoices.find((i) => i.external_id !== null)!;
    invoice = {
      id: Number(invoiced.id),
      code: invoiced.code!,
      amount_incl: Number(invoiced.amount_incl),
      company: invoiced.company,
    };
    draftId = Number(invoices.find((i) => i.external_id === null)!.id);
    lineDescription = (
      await t.db
        .selectFrom('invoice_lines')
        .select('description')
        .where('invoice_id', '=', invoice.id)
        .orderBy('order')
        .executeTakeFirstOrThrow()
    ).description;
    client = await t.as('client@example.com');
    otherClient = await t.as('other@example.com');
    operator = await t.as('admin@example.com');
  });
  afterAll(() => t?.close());

  const download = (id: number, headers: Record<string, string>) =>
    t.app.inject({ method: 'POST', url: `/api/invoices/${id}/download`, headers });
  const base64 = (id: number, headers: Record<string, string>) =>
    t.app.inject({ method: 'GET', url: `/api/invoicing/${id}`, headers });

  it('a client of the company downloads the PDF: tenant, company, code, a line and the amount in euros', async () => {
    const res = await download(invoice.id, client);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toBe(`attachment; filename="${invoice.code}.pdf"`);
    expect(res.rawPayload.subarray(0, 4).toString()).toBe('%PDF');
    const text = await pdfText(res.rawPayload);
    expect(text).toContain('Acme IT');
    expect(text).toContain(invoice.company);
    expect(text).toContain(invoice.code);
    expect(text).toContain(lineDescription);
    // pdf.js reads the no-break space after '€' back as a plain space.
    expect(text).toContain(formatMoney(invoice.amount_incl, 'nl').replace(/\u00a0/g, ' '));
  });

  it('the Base64 variant answers the same file with its name', async () => {
    const res = await base64(invoice.id, client);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.Filename).toBe(`${invoice.code}.pdf`);
    expect(body.id).toBe(invoice.id);
    const pdf = Buffer.from(body.Base64, 'base64');
    expect(pdf.subarray(0, 4).toString()).toBe('%PDF');
    expect(await pdfText(pdf)).toContain(invoice.code);
  });

  it("another company's client gets 404 for both", async () => {
    expect((await download(invoice.id, otherClient)).statusCode).toBe(404);
    expect((await base64(invoice.id, otherClient)).statusCode).toBe(404);
  });

  it('a draft invoice (no external_id) does not exist for a client, but an operator may download it', async () => {
    expect((await download(draftId, client)).statusCode).toBe(404);
    expect((await base64(draftId, client)).statusCode).toBe(404);
    const res = await download(draftId, operator);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.rawPayload.subarray(0, 4).toString()).toBe('%PDF');
  });

  it('no login is 401, a malformed id 422, an unknown one 404', async () => {
    expect((await download(invoice.id, {})).statusCode).toBe(401);
    expect((await base64(0, client)).statusCode).toBe(422);
    expect((await download(999999, client)).statusCode).toBe(404);
  });
});
