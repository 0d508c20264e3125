/**
 * A quote past its validity date (issue 31; common/quote-validity.ts): nobody can accept it, not a client
 * of its company, not the holder of the link its e-mail carried, not an operator; it cannot be sent; it
 * is valid through the whole of its last day; an operator extends it by changing `valid_until`, and then
 * it can be sent and accepted again. Its PDF says 'Verlopen'. Declining it is still allowed.
 */
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validityToday } from '../../common/quote-validity.ts';
import { QUOTE_EXPIRED, QUOTE_EXPIRED_NOT_SENDABLE } from '../../server/resources/quotes/decision.ts';
import { buildTestApp, targets, type TestApp } from './harness.ts';
import { startSmtp, type LoopbackSmtp } from './smtp.ts';

/** A 1×1 PNG, as a signature pad would send it (only bigger). */
const SIGNATURE =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';
const ACCEPTANCE = { name: 'Pieter Jansen', signature: SIGNATURE };
const DAY = 86_400_000;

/** The day `days` days from today in Amsterdam, as the validity date is written: 'YYYY-MM-DD'. */
const dayFromToday = (days: number) => {
  const [y, m, d] = validityToday().split('-').map(Number);
  return new Date(Date.UTC(y!, m! - 1, d! + days)).toISOString().slice(0, 10);
};

async function pdfText(pdf: Buffer): Promise<string> {
  const doc = await getDocument({ data: new Uint8Array(pdf), verbosity: 0, isEvalSupported: false }).promise;
  const content = await (await doc.getPage(1)).getTextContent();
  const text = content.items.map((item) => ('str' in item ? item.str : '')).join(' ');
  await doc.destroy();
  return text;
}

describe.each(targets)('a quote past its validity date on $name', (target) => {
  let t: TestApp;
  let smtp: LoopbackSmtp;
  let tenantId: number;
  let companyId: number;
  let clientId: number;
  let admin: Record<string, string>;
  let client: Record<string, string>;

  beforeAll(async () => {
    smtp = await startSmtp();
    t = await buildTestApp(target, { config: { smtpUrl: smtp.url } });
    const own = await t.db
      .selectFrom('users as u')
      .innerJoin('company_user as cu', 'cu.user_id', 'u.id')
      .innerJoin('companies as c', 'c.id', 'cu.company_id')
      .select(['u.id as userId', 'c.id as companyId', 'c.tenant_id'])
      .where('u.email', '=', 'client@example.com')
      .executeTakeFirstOrThrow();
    tenantId = Number(own.tenant_id);
    companyId = Number(own.companyId);
    clientId = Number(own.userId);
    admin = await t.as('admin@example.com');
    client = await t.as('client@example.com');
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  async function makeQuote(status: number, validUntil: string | null): Promise<number> {
    const row = await t.db
      .insertInto('quotes')
      .values({
        tenant_id: tenantId,
        company_id: companyId,
        client_id: clientId,
        name: `Verloopt ${validUntil}`,
        status_id: status,
        total: 100,
        valid_until: validUntil,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return Number(row.id);
  }
  const post = (id: number, action: string, headers: Record<string, string>, payload?: object) =>
    t.app.inject({ method: 'POST', url: `/api/quotes/${id}/${action}`, headers, payload });
  const extend = (id: number, headers: Record<string, string>, validUntil: string) =>
    t.app.inject({ method: 'PUT', url: `/api/quotes/${id}`, headers, payload: { valid_until: validUntil } });
  const stored = (id: number) =>
    t.db
      .selectFrom('quotes')
      .select(['status_id', 'accepted_at'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
  const acceptances = async (id: number) =>
    (await t.db.selectFrom('quote_acceptances').select('id').where('quote_id', '=', id).execute()).length;

  /** The 422 of an expired quote: the rule's text, on the validity date. */
  function expectExpired(res: { statusCode: number; body: string; json(): any }, message = QUOTE_EXPIRED) {
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json()).toEqual({ message, errors: { valid_until: [message] } });
  }

  it('nobody accepts a sent quote whose last valid day was yesterday, and nothing is stored', async () => {
    const id = await makeQuote(2, dayFromToday(-1));
    expectExpired(await post(id, 'accept', client, ACCEPTANCE));
    expectExpired(await post(id, 'accept', admin, ACCEPTANCE));
    expect(await stored(id)).toEqual({ status_id: 2, accepted_at: null });
    expect(await acceptances(id)).toBe(0);
  });

  it('a quote is valid through its last day: valid until today is accepted', async () => {
    const id = await makeQuote(2, dayFromToday(0));
    const res = await post(id, 'accept', client, ACCEPTANCE);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().status_id).toBe(3);
  });

  it('the e-mailed link cannot accept it either; once an operator extends it, the same link can', async () => {
    const id = await makeQuote(1, dayFromToday(-3));
    // Sending an expired quote would mail a link to a quote nobody can accept: refused, nothing mailed.
    const mailsBefore = smtp.received.length;
    expectExpired(await post(id, 'send', admin), QUOTE_EXPIRED_NOT_SENDABLE);
    expect((await stored(id)).status_id).toBe(1);
    expect(await t.db.selectFrom('record_tokens').select('id').where('record_id', '=', id).execute()).toEqual(
      [],
    );

    // A client cannot extend it; an operator who may edit quotes can.
    expect((await extend(id, client, dayFromToday(10))).statusCode).toBe(403);
    const extended = await extend(id, admin, dayFromToday(10));
    expect(extended.statusCode, extended.body).toBe(200);
    expect(extended.json().valid_until).toBe(dayFromToday(10));
    const sent = await post(id, 'send', admin);
    expect(sent.statusCode, sent.body).toBe(200);
    const mail = await smtp.next(mailsBefore);
    const token = /\/app\/quotes\/\d+\?token=([A-Za-z0-9_-]+)/.exec(mail.text ?? '')?.[1];
    expect(token, mail.text).toBeTruthy();
    const link = { 'x-quote-token': token! };

    // Its validity date passes (set back here) before the client signs: the link cannot accept it.
    expect((await extend(id, admin, dayFromToday(-1))).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: `/api/quotes/${id}`, headers: link })).statusCode).toBe(
      200,
    );
    // The link opens it, and cannot change its date.
    expect((await extend(id, link, dayFromToday(10))).statusCode).toBe(403);
    expectExpired(await post(id, 'accept', link, ACCEPTANCE));
    expect(await acceptances(id)).toBe(0);

    expect((await extend(id, admin, dayFromToday(1))).statusCode).toBe(200);
    const accepted = await post(id, 'accept', link, ACCEPTANCE);
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(accepted.json().status_id).toBe(3);
    expect(await acceptances(id)).toBe(1);
  });

  it('its PDF says Verlopen beside the validity date; a client may still be told no (decline)', async () => {
    const validUntil = dayFromToday(-2);
    const id = await makeQuote(2, validUntil);
    const pdf = await post(id, 'download', client);
    expect(pdf.statusCode).toBe(200);
    const text = await pdfText(pdf.rawPayload);
    expect(text).toMatch(/Status\s+Verlopen/);
    expect(text).not.toContain('Verzonden');
    const declined = await post(id, 'decline', admin);
    expect(declined.statusCode, declined.body).toBe(200);
    expect(declined.json().status_id).toBe(4);
    // A decided quote no longer expires: its PDF says what became of it.
    expect(await pdfText((await post(id, 'download', client)).rawPayload)).toMatch(/Status\s+Afgewezen/);
  });

  it('a quote without a validity date does not expire', async () => {
    const id = await makeQuote(2, null);
    const res = await post(id, 'accept', client, ACCEPTANCE);
    expect(res.statusCode, res.body).toBe(200);
    expect(Date.now() - new Date(res.json().accepted_at).getTime()).toBeLessThan(DAY);
  });
});
