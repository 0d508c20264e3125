/**
 * Quote acceptance, decline and the quote PDF (issue 4, server rules): only in status 2, only for whoever
 * may see the quote (a client of its company, the holder of its link), one transaction, one winner of a race.
 */
import { deflateSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { createRecordToken } from '../../server/auth/plugin.ts';
import { buildTestApp, targets, type TestApp } from './harness.ts';

/** A 1×1 PNG, as a signature pad would send it (only bigger). */
const SIGNATURE =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(bytes: Buffer): number {
  let c = 0xffffffff;
  for (const b of bytes) c = CRC_TABLE[(c ^ b) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}
/** An RGBA PNG as a canvas signature pad writes it: transparent with a black diagonal stroke. */
function signaturePng(width: number, height: number, idat?: Buffer): string {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 6, 0, 0, 0], 8);
  const raw = Buffer.alloc(height * (width * 4 + 1));
  for (let y = 0; y < height; y++) {
    const x = Math.floor((y / height) * width);
    raw[y * (width * 4 + 1) + 1 + x * 4 + 3] = 255;
  }
  const png = Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', idat ?? deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
  return `data:image/png;base64,${png.toString('base64')}`;
}

/** The text of every page of a PDF, pages joined by newlines. */
async function pdfText(pdf: Buffer): Promise<string> {
  const doc = await getDocument({ data: new Uint8Array(pdf), verbosity: 0, isEvalSupported: false }).promise;
  const pages: string[] = [];
  for (let n = 1; n <= doc.numPages; n++) {
    const content = await (await doc.getPage(n)).getTextContent();
    pages.push(content.items.map((item) => ('str' in item ? item.str : '')).join(' '));
  }
  await doc.destroy();
  return pages.join('\n');
}

describe.each(targets)('quote actions on $name', (target) => {
  let t: TestApp;
  let tenantId: number;
  let ownCompany: { id: number; name: string };
  let otherCompanyId: number;
  let client: Record<string, string>;
  let otherClient: Record<string, string>;
  let operator: Record<string, string>;

  /** A fresh quote of a company in the given status, with two lines. */
  async function makeQuote(companyId: number, status: number, name = `Testofferte ${status}`) {
    const quote = await t.db
      .insertInto('quotes')
      .values({ tenant_id: tenantId, company_id: companyId, name, status_id: status, total: 1234.5 })
      .returning('id')
      .executeTakeFirstOrThrow();
    await t.db
      .insertInto('quote_lines')
      .values([
        {
          tenant_id: tenantId,
          quote_id: quote.id,
          description: 'Laptop 14 inch',
          quantity: 1,
          price: 1000,
          total: 1000,
          order: 1,
        },
        {
          tenant_id: tenantId,
          quote_id: quote.id,
          description: 'Installatie',
          quantity: 3,
          price: 78.17,
          total: 234.5,
          order: 2,
        },
      ])
      .execute();
    return Number(quote.id);
  }

  const accept = (id: number, headers: Record<string, string>, payload: unknown) =>
    t.app.inject({ method: 'POST', url: `/api/quotes/${id}/accept`, headers, payload: payload as object });
  const valid = { name: 'Pieter Jansen', note: 'Graag snel leveren.', signature: SIGNATURE };

  beforeAll(async () => {
    t = await buildTestApp(target);
    const companyOf = (email: string) =>
      t.db
        .selectFrom('users as u')
        .innerJoin('company_user as cu', 'cu.user_id', 'u.id')
        .innerJoin('companies as c', 'c.id', 'cu.company_id')
        .select(['c.id', 'c.name', 'c.tenant_id'])
        .where('u.email', '=', email)
        .executeTakeFirstOrThrow();
    const own = await companyOf('client@example.com');
    ownCompany = { id: Number(own.id), name: own.name };
    tenantId = Number(own.tenant_id);
    otherCompanyId = Number((await companyOf('other@example.com')).id);
    client = await t.as('client@example.com');
    otherClient = await t.as('other@example.com');
    operator = await t.as('admin@example.com');
  });
  afterAll(() => t?.close());

  it('a client of the company accepts a sent quote: status 3, name, note, time and address stored', async () => {
    const id = await makeQuote(ownCompany.id, 2);
    const res = await accept(id, client, valid);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.id).toBe(id);
    expect(body.status_id).toBe(3);
    expect(body.signed_name).toBe('Pieter Jansen');
    expect(body.signed_note).toBe('Graag snel leveren.');
    expect(body.accepted_at).toBeTruthy();
    expect(body).not.toHaveProperty('signature');
    const row = await t.db
      .selectFrom('quote_acceptances')
      .selectAll()
      .where('quote_id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row.name).toBe('Pieter Jansen');
    expect(row.signature).toBe(SIGNATURE);
    expect(row.ip).toBeTruthy();
    expect(row.user_id).not.toBeNull();
    expect(row.via_token).toBe(false);
    const quote = await t.db
      .selectFrom('quotes')
      .select(['signature', 'status_id'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(quote.signature).toBe(SIGNATURE);
  });

  it("another company's client gets 404 and nothing changes", async () => {
    const id = await makeQuote(ownCompany.id, 2);
    const res = await accept(id, otherClient, valid);
    expect(res.statusCode, res.body).toBe(404);
    const quote = await t.db
      .selectFrom('quotes')
      .select('status_id')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(quote.status_id).toBe(2);
  });

  it('the holder of a quote link accepts its own quote, and no other', async () => {
    const id = await makeQuote(otherCompanyId, 2);
    const otherId = await makeQuote(otherCompanyId, 2);
    const headers = { 'x-quote-token': await createRecordToken(t.db, tenantId, 'quotes', id) };
    const other = await accept(otherId, headers, valid);
    expect(other.statusCode, other.body).toBe(404);
    const res = await accept(id, headers, { name: 'Kees de Vries', signature: SIGNATURE });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().status_id).toBe(3);
    expect(res.json().signed_note).toBeNull();
    const row = await t.db
      .selectFrom('quote_acceptances')
      .select(['via_token', 'user_id'])
      .where('quote_id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row.via_token).toBe(true);
    expect(row.user_id).toBeNull();
  });

  it.each([1, 3, 4])(
    'a quote in status %i cannot be accepted (422; status 1 is not even visible to a client)',
    async (status) => {
      const id = await makeQuote(ownCompany.id, status);
      const res = await accept(id, status === 1 ? operator : client, valid);
      expect(res.statusCode, res.body).toBe(422);
      expect(res.json().message).toBe('This quote can no longer be accepted.');
      if (status === 1) expect((await accept(id, client, valid)).statusCode).toBe(404);
    },
  );

  it.each([
    ['no signature', { name: 'Pieter Jansen' }, 'signature'],
    ['an empty signature', { name: 'Pieter Jansen', signature: '' }, 'signature'],
    ['a JPEG data URL', { name: 'Pieter Jansen', signature: 'data:image/jpeg;base64,/9j/4AAQ' }, 'signature'],
    [
      'base64 that is no PNG',
      { name: 'Pieter Jansen', signature: 'data:image/png;base64,aGVsbG8gd29ybGQ=' },
      'signature',
    ],
    [
      'an over-long signature',
      { name: 'Pieter Jansen', signature: SIGNATURE + 'A'.repeat(520 * 1024) },
      'signature',
    ],
    [
      'a PNG whose image data is corrupt',
      { name: 'Pieter Jansen', signature: signaturePng(40, 20, Buffer.from('not zlib at all')) },
      'signature',
    ],
    ['an empty name', { name: '  ', signature: SIGNATURE }, 'name'],
    ['a name over 255 characters', { name: 'x'.repeat(256), signature: SIGNATURE }, 'name'],
    ['a note over 2000 characters', { name: 'P', note: 'x'.repeat(2001), signature: SIGNATURE }, 'note'],
  ])('%s is a 422 naming the field, and the quote stays sent', async (_label, payload, field) => {
    const id = await makeQuote(ownCompany.id, 2);
    const res = await accept(id, client, payload);
    expect(res.statusCode, res.body).toBe(422);
    expect(Object.keys(res.json().errors)).toContain(field);
    const quote = await t.db
      .selectFrom('quotes')
      .select('status_id')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(quote.status_id).toBe(2);
  });

  it('an empty signature says the spec text', async () => {
    const id = await makeQuote(ownCompany.id, 2);
    const res = await accept(id, client, { name: 'Pieter Jansen', signature: '' });
    expect(res.json().errors.signature).toEqual(['No signature has been set.']);
  });

  it('two accepts racing: exactly one 200, one 422, one acceptance recorded', async () => {
    const id = await makeQuote(ownCompany.id, 2);
    const token = { 'x-quote-token': await createRecordToken(t.db, tenantId, 'quotes', id) };
    const results = await Promise.all([
      accept(id, client, valid),
      accept(id, token, { ...valid, name: 'Iemand anders' }),
    ]);
    const codes = results.map((r) => r.statusCode).sort();
    expect(codes, results.map((r) => r.body).join('\n')).toEqual([200, 422]);
    const rows = await t.db
      .selectFrom('quote_acceptances')
      .select('name')
      .where('quote_id', '=', id)
      .execute();
    expect(rows).toHaveLength(1);
    const winner = results.find((r) => r.statusCode === 200)!.json();
    expect(winner.signed_name).toBe(rows[0]!.name);
  });

  it('decline sets status 4, only from status 2; the portal may not decline', async () => {
    const id = await makeQuote(ownCompany.id, 2);
    expect(
      (await t.app.inject({ method: 'POST', url: `/api/quotes/${id}/decline`, headers: client })).statusCode,
    ).toBe(403);
    const res = await t.app.inject({ method: 'POST', url: `/api/quotes/${id}/decline`, headers: operator });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().status_id).toBe(4);
    expect(res.json().declined_at).toBeTruthy();
    const again = await t.app.inject({ method: 'POST', url: `/api/quotes/${id}/decline`, headers: operator });
    expect(again.statusCode).toBe(422);
    expect(again.json().message).toBe('This quote can no longer be declined.');
    expect((await accept(id, client, valid)).statusCode).toBe(422);
  });

  it('a malformed id is 422, an unknown one 404', async () => {
    expect((await accept(0, client, valid)).statusCode).toBe(422);
    expect((await accept(999999, client, valid)).statusCode).toBe(404);
  });

  it('the PDF of an accepted quote: %PDF, a file name, the company, lines in euros, the signer and the time', async () => {
    const id = await makeQuote(ownCompany.id, 2, 'Offerte "werkplekken" / 2026');
    expect((await accept(id, client, valid)).statusCode).toBe(200);
    const res = await t.app.inject({ method: 'POST', url: `/api/quotes/${id}/download`, headers: client });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toBe('attachment; filename="Offerte werkplekken - 2026.pdf"');
    expect(res.rawPayload.subarray(0, 4).toString()).toBe('%PDF');
    const text = await pdfText(res.rawPayload);
    expect(text).toContain('Acme IT');
    expect(text).toContain(ownCompany.name);
    expect(text).toContain('Pieter Jansen');
    expect(text).toContain('Laptop 14 inch');
    expect(text).toContain('€ 1.234,50');
    expect(text).toMatch(/Geaccepteerd door Pieter Jansen op \d{2}-\d{2}-\d{4} \d{2}:\d{2}/);
  });

  it('a canvas-sized signature is accepted and drawn; a corrupt stored one does not break the PDF', async () => {
    const id = await makeQuote(ownCompany.id, 2);
    const res = await accept(id, client, { name: 'Pieter Jansen', signature: signaturePng(600, 200) });
    expect(res.statusCode, res.body).toBe(200);
    const pdf = await t.app.inject({ method: 'POST', url: `/api/quotes/${id}/download`, headers: client });
    expect(pdf.statusCode).toBe(200);
    expect(pdf.rawPayload.includes('/Subtype /Image')).toBe(true);
    await t.db
      .updateTable('quotes')
      .set({ signature: signaturePng(40, 20, Buffer.from('not zlib at all')) })
      .where('id', '=', id)
      .execute();
    const broken = await t.app.inject({ method: 'POST', url: `/api/quotes/${id}/download`, headers: client });
    expect(broken.statusCode).toBe(200);
    const text = await pdfText(broken.rawPayload);
    expect(text).toContain('Geaccepteerd door Pieter Jansen');
    expect(text).toContain('(handtekening niet leesbaar)');
  });

  it('the PDF of a sent quote has no acceptance; the other client and other links get 404', async () => {
    const id = await makeQuote(ownCompany.id, 2, 'Offerte netwerk');
    const res = await t.app.inject({ method: 'POST', url: `/api/quotes/${id}/download`, headers: client });
    expect(res.statusCode).toBe(200);
    const text = await pdfText(res.rawPayload);
    expect(text).toContain('Offerte netwerk');
    expect(text).not.toContain('Geaccepteerd door');
    expect(
      (await t.app.inject({ method: 'POST', url: `/api/quotes/${id}/download`, headers: otherClient }))
        .statusCode,
    ).toBe(404);
    const otherToken = {
      'x-quote-token': await createRecordToken(t.db, tenantId, 'quotes', await makeQuote(ownCompany.id, 2)),
    };
    expect(
      (await t.app.inject({ method: 'POST', url: `/api/quotes/${id}/download`, headers: otherToken }))
        .statusCode,
    ).toBe(404);
    const ownToken = { 'x-quote-token': await createRecordToken(t.db, tenantId, 'quotes', id) };
    const viaToken = await t.app.inject({
      method: 'POST',
      url: `/api/quotes/${id}/download`,
      headers: ownToken,
    });
    expect(viaToken.statusCode).toBe(200);
  });
});
