/**
 * POST /api/quotes/{id}/send (SPEC 7, issue 6): an operator sends a concept or sent quote; it becomes sent
 * and its client gets, through a real SMTP server on loopback, a Dutch e-mail with a link whose token
 * opens exactly that quote. Accepted and rejected quotes cannot be sent; clients and link holders may not
 * send.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QUOTE_LINK_DAYS, QUOTE_MAIL_RETRYING } from '../../server/resources/quotes/send.ts';
import { buildTestApp, targets, type TestApp } from './harness.ts';
import { waitFor } from './processes.ts';
import { recipients, startSmtp, type LoopbackSmtp, type ParsedMail } from './smtp.ts';

const PUBLIC_URL = 'https://desk.example.test';
const LINK = /(https?:\/\/[^\s"<>]+)\/app\/quotes\/(\d+)\?token=([A-Za-z0-9_-]+)/;

function linkOf(mail: ParsedMail): { origin: string; id: number; token: string } {
  const match = LINK.exec(mail.text ?? '');
  if (!match) throw new Error(`no quote link in mail: ${mail.text}`);
  return { origin: match[1]!, id: Number(match[2]), token: match[3]! };
}

interface QuoteRow {
  id: number;
  name: string;
  status_id: number;
  company: string;
}

describe.each(targets)('sending a quote on $name', (target) => {
  let t: TestApp;
  let smtp: LoopbackSmtp;
  let quotes: QuoteRow[];

  beforeAll(async () => {
    smtp = await startSmtp();
    // A refused mail is tried again a tenth of a second later.
    t = await buildTestApp(target, {
      config: { smtpUrl: smtp.url, publicUrl: PUBLIC_URL, mailRetryBaseMs: 100, mailRetryMaxMs: 200 },
    });
    quotes = (
      await t.db
        .selectFrom('quotes as q')
        .innerJoin('companies as c', 'c.id', 'q.company_id')
        .select(['q.id', 'q.name', 'q.status_id', 'c.name as company'])
        .orderBy('q.id')
        .execute()
    ).map((q) => ({ ...q, id: Number(q.id), status_id: Number(q.status_id) }));
  });

  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  const quoteOf = (company: string, status: number) => {
    const quote = quotes.find((q) => q.company === company && q.status_id === status);
    if (!quote) throw new Error(`no quote of ${company} in status ${status}`);
    return quote;
  };
  const send = async (id: number | string, headers?: Record<string, string>) =>
    t.app.inject({
      method: 'POST',
      url: `/api/quotes/${id}/send`,
      headers: headers ?? (await t.as('admin@example.com')),
    });
  const statusOf = async (id: number) =>
    Number(
      (await t.db.selectFrom('quotes').select('status_id').where('id', '=', id).executeTakeFirstOrThrow())
        .status_id,
    );

  it('sends a concept quote: status 2 and a Dutch mail whose link opens exactly that quote', async () => {
    const quote = quoteOf('Jansen BV', 1);
    const before = smtp.received.length;
    const res = await send(quote.id);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      message: 'The quote has been sent to client@example.com.',
      recipient: 'client@example.com',
    });

    const mail = await smtp.next(before);
    expect(recipients(mail)).toContain('client@example.com');
    expect(mail.subject).toBe(`Offerte "${quote.name}" van Acme IT`);
    expect(mail.text).toContain('Beste Pieter Jansen,');
    expect(mail.text).toContain(`Acme IT stuurt je de offerte "${quote.name}".`);
    expect(mail.text).toContain(`De link is ${QUOTE_LINK_DAYS} dagen geldig.`);
    const link = linkOf(mail);
    expect(link.origin).toBe(PUBLIC_URL);
    expect(link.id).toBe(quote.id);
    expect(mail.html).toContain(`${PUBLIC_URL}/app/quotes/${quote.id}?token=${link.token}`);

    const row = await t.db
      .selectFrom('quotes')
      .select(['status_id', 'sent_at'])
      .where('id', '=', quote.id)
      .executeTakeFirstOrThrow();
    expect(Number(row.status_id)).toBe(2);
    expect(Date.now() - new Date(row.sent_at!).getTime()).toBeLessThan(60_000);

    // Only the token's hash is stored, with the resource and record it opens, for 30 days.
    const tokens = await t.db
      .selectFrom('record_tokens')
      .selectAll()
      .where('resource', '=', 'quotes')
      .where('record_id', '=', quote.id)
      .execute();
    expect(tokens).toHaveLength(1);
    expect(tokens[0]!.token_hash).not.toContain(link.token);
    const days = (new Date(tokens[0]!.expires_at!).getTime() - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(QUOTE_LINK_DAYS - 0.01);
    expect(days).toBeLessThanOrEqual(QUOTE_LINK_DAYS);

    const headers = { 'x-quote-token': link.token };
    const shown = await t.app.inject({ method: 'GET', url: `/api/quotes/${quote.id}`, headers });
    expect(shown.statusCode, shown.body).toBe(200);
    expect(shown.json()).toMatchObject({ id: quote.id, name: quote.name, status_id: 2 });

    // Nothing else: not another quote (even one of the same company), no list, no other resource.
    for (const other of quotes.filter((q) => q.id !== quote.id)) {
      const res = await t.app.inject({ method: 'GET', url: `/api/quotes/${other.id}`, headers });
      expect(res.statusCode, `quote ${other.id}`).toBe(404);
    }
    expect((await t.app.inject({ method: 'GET', url: '/api/quotes', headers })).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: '/api/tickets', headers })).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: '/api/auth/me', headers })).statusCode).toBe(401);
    // The link holder cannot send (or resend) the quote either.
    expect((await send(quote.id, headers)).statusCode).toBe(403);
  });

  it('sends a sent quote again with a fresh link; the earlier link keeps working', async () => {
    const quote = quoteOf('Jansen BV', 2);
    let before = smtp.received.length;
    expect((await send(quote.id)).statusCode).toBe(200);
    const first = linkOf(await smtp.next(before));
    before = smtp.received.length;
    expect((await send(quote.id)).statusCode).toBe(200);
    const second = linkOf(await smtp.next(before));
    expect(second.token).not.toBe(first.token);
    expect(await statusOf(quote.id)).toBe(2);
    for (const token of [first.token, second.token]) {
      const res = await t.app.inject({
        method: 'GET',
        url: `/api/quotes/${quote.id}`,
        headers: { 'x-quote-token': token },
      });
      expect(res.statusCode).toBe(200);
    }
  });

  it('refuses an accepted or rejected quote with 422, changes nothing and mails nothing', async () => {
    const cases = [
      [quoteOf('Jansen BV', 3), 'This quote has been accepted and can no longer be sent.'],
      [quoteOf('Jansen BV', 4), 'This quote has been rejected and can no longer be sent.'],
    ] as const;
    const before = smtp.received.length;
    const tokensBefore = await t.db
      .selectFrom('record_tokens')
      .select(sql<number>`count(*)::int`.as('n'))
      .executeTakeFirstOrThrow();
    for (const [quote, message] of cases) {
      const res = await send(quote.id);
      expect(res.statusCode).toBe(422);
      expect(res.json()).toEqual({ message, errors: { status_id: [message] } });
      expect(await statusOf(quote.id)).toBe(quote.status_id);
    }
    const tokensAfter = await t.db
      .selectFrom('record_tokens')
      .select(sql<number>`count(*)::int`.as('n'))
      .executeTakeFirstOrThrow();
    expect(tokensAfter.n).toBe(tokensBefore.n);
    await new Promise((r) => setTimeout(r, 200));
    expect(smtp.received.length).toBe(before);
  });

  it('is for operators only: a client gets 403 and the quote stays a concept', async () => {
    const quote = quoteOf('De Vries Installaties', 1);
    const res = await send(quote.id, await t.as('client@example.com'));
    expect(res.statusCode).toBe(403);
    const own = await send(quote.id, await t.as('other@example.com'));
    expect(own.statusCode).toBe(403);
    expect(await statusOf(quote.id)).toBe(1);
    // A first-line operator holds tenant.quotes.send.
    const before = smtp.received.length;
    const operator = await send(quote.id, await t.as('operator@example.com'));
    expect(operator.statusCode, operator.body).toBe(200);
    expect(recipients(await smtp.next(before))).toContain('other@example.com');
  });

  it('mails the deal client when the quote names none, and refuses when nobody has an address', async () => {
    const quote = quoteOf('De Vries Installaties', 2);
    const { deal_id } = await t.db
      .selectFrom('quotes')
      .select('deal_id')
      .where('id', '=', quote.id)
      .executeTakeFirstOrThrow();
    expect(deal_id).not.toBeNull();
    await t.db.updateTable('quotes').set({ client_id: null }).where('id', '=', quote.id).execute();
    const before = smtp.received.length;
    expect((await send(quote.id)).statusCode).toBe(200);
    expect(recipients(await smtp.next(before))).toContain('other@example.com');

    await t.db.updateTable('deals').set({ client_id: null }).where('id', '=', deal_id).execute();
    const res = await send(quote.id);
    expect(res.statusCode).toBe(422);
    expect(res.json().message).toBe('This quote has no client with an e-mail address to send it to.');
  });

  it('answers 404 for an unknown quote and 422 for a malformed id', async () => {
    expect((await send(2_000_000_000)).statusCode).toBe(404);
    expect((await send('abc')).statusCode).toBe(422);
  });

  it('answers 200 with mail_error when the mail server refuses, keeps the quote sent, and mails it once later', async () => {
    const quote = quoteOf('Jansen BV', 1);
    const before = smtp.received.length;
    smtp.refuseNext = 1;
    try {
      const res = await send(quote.id);
      // The quote is sent: a success, which says the mail has not gone yet (do not send it again).
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual({
        message: 'The quote has been marked as sent to client@example.com.',
        recipient: 'client@example.com',
        mail_error: QUOTE_MAIL_RETRYING,
      });
    } finally {
      smtp.refuseNext = 0;
    }
    // The mail is in the tenant's outbox, which its operators see (mail-failures-list.test.ts).
    const row = await t.db
      .selectFrom('mail_outbox as m')
      .innerJoin('quotes as q', 'q.tenant_id', 'm.tenant_id')
      .select('m.id')
      .where('q.id', '=', quote.id)
      .where('m.subject', '=', `Offerte "${quote.name}" van Acme IT`)
      .executeTakeFirst();
    expect(row).toBeDefined();
    expect(await statusOf(quote.id)).toBe(2);
    // The outbox tries again: the mail arrives, with a link to this quote, and only once.
    expect(linkOf(await smtp.next(before)).id).toBe(quote.id);
    await waitFor('no mail left to send', async () => {
      const left = await t.db
        .selectFrom('mail_outbox')
        .select('id')
        .where('status', 'in', ['queued', 'sending'])
        .execute();
      return left.length === 0;
    });
    expect(smtp.received.length).toBe(before + 1);
  });
});
