/**
 * Failed mail is visible to operators (issue 15, item 4): the tenant's outgoing mail that was not sent
 * (GET /api/mail-outbox, schemas/mail-outbox.json) with recipient, subject, attempts, last error and
 * times, never the body; "try again" (POST /api/mail-outbox/{id}/retry) queues it again with its
 * attempts reset and tries it at once; only operators holding the permissions, never clients, never
 * another tenant's mail. Every outbox row belongs to a tenant: the export notice too, and migration 0016
 * gives the old rows without one a tenant or removes them.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as migration0016 from '../../server/db/migrations/0016_mail_outbox_tenants.ts';
import { enqueueMail } from '../../server/mail/enqueue.ts';
import { MAIL_GIVEN_UP, MAIL_GIVEN_UP_NOW } from '../../server/resources/messages/actions.ts';
import { QUOTE_MAIL_GIVEN_UP } from '../../server/resources/quotes/send.ts';
import { RETRY_FAILED, RETRY_NO_BODY, RETRY_SENDING } from '../../server/resources/mail-outbox/actions.ts';
import { backOffice, type BackOffice } from './back-office.ts';
import { buildTestApp, firstClientTicketId, targets, type TestApp } from './harness.ts';
import { waitFor } from './processes.ts';
import { recipients, startSmtp, type LoopbackSmtp } from './smtp.ts';
import { bySchema } from '../../server/db/schema-tables.ts';

/** What the list shows of a mail: no body, no context, no source. */
const FIELDS = [
  'id',
  'recipients',
  'subject',
  'status',
  'attempts',
  'last_error',
  'created_at',
  'last_attempt_at',
  'next_attempt_at',
  'failed_at',
].sort();

describe.each(targets)('failed mail for operators on $name', (target) => {
  let t: TestApp;
  let smtp: LoopbackSmtp;
  let b: BackOffice;
  let ticketId: number;

  beforeAll(async () => {
    smtp = await startSmtp();
    // A mail is given up after its second attempt, a tenth of a second after the first.
    t = await buildTestApp(target, {
      config: { smtpUrl: smtp.url, mailRetryBaseMs: 100, mailRetryMaxMs: 200, mailMaxAttempts: 2 },
    });
    b = await backOffice(t, ['tenant.mail-outbox.retry']);
    const ticket = await t.db
      .selectFrom('tickets as t')
      .innerJoin('users as u', 'u.id', 't.client_id')
      .select('t.id')
      .where('u.email', '=', 'client@example.com')
      .where('t.is_template', '=', false)
      .orderBy('t.id')
      .executeTakeFirstOrThrow();
    ticketId = Number(ticket.id);
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  const call = (method: 'GET' | 'POST', url: string, headers: Record<string, string>) =>
    t.app.inject({ method, url, headers, ...(method === 'POST' && { payload: {} }) });

  /** An operator's message to the client whose mail the refusing server makes the outbox give up. */
  async function givenUpMessage(text: string): Promise<{ messageId: number; outboxId: number }> {
    smtp.refusing = true;
    try {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/messages',
        headers: b.admin,
        payload: {
          message: `<p>${text}</p>`,
          morphable_type: 'ticket',
          morphable_id: ticketId,
          send_to_client: true,
        },
      });
      expect(res.statusCode, res.body).toBe(201);
      const messageId = Number(res.json().id);
      const row = await waitFor('the mail given up', async () => {
        const r = await t.db
          .selectFrom('mail_outbox')
          .select(['id', 'status'])
          .where('source', '=', 'messages')
          .where('source_id', '=', messageId)
          .executeTakeFirstOrThrow();
        return r.status === 'failed' && r;
      });
      return { messageId, outboxId: Number(row.id) };
    } finally {
      smtp.refusing = false;
    }
  }

  const messageOf = async (id: number) =>
    (await call('GET', `/api/messages/${id}`, b.admin)).json() as {
      mail_error: string | null;
      recipients: unknown;
    };

  it('lists the tenant mail that was given up, with what an operator needs and without its body', async () => {
    const { outboxId } = await givenUpMessage('Lijst van mislukte mail');
    const list = await call('GET', '/api/mail-outbox', b.admin);
    expect(list.statusCode, list.body).toBe(200);
    const rows = list.json().data as Record<string, unknown>[];
    const row = rows.find((r) => r.id === outboxId);
    expect(row).toBeDefined();
    expect(Object.keys(row!).sort()).toEqual(FIELDS);
    expect(row).toMatchObject({ recipients: 'client@example.com', status: 'failed', attempts: 2 });
    expect(String(row!.subject)).not.toBe('');
    expect(row!.last_error).toContain('Mailbox unavailable');
    for (const field of ['created_at', 'last_attempt_at', 'failed_at'])
      expect(Date.now() - new Date(String(row![field])).getTime(), field).toBeLessThan(60_000);
    // Newest first, and nothing that was sent.
    const ids = rows.map((r) => Number(r.id));
    expect(ids).toEqual([...ids].sort((x, y) => y - x));
    expect(rows.every((r) => r.status !== 'sent')).toBe(true);
    // The body (it may hold a sign-in or quote link) is in neither the list nor the record.
    const shown = await call('GET', `/api/mail-outbox/${outboxId}`, b.admin);
    expect(shown.statusCode).toBe(200);
    expect(Object.keys(shown.json()).sort()).toEqual(FIELDS);
    expect(shown.body).not.toContain('Lijst van mislukte mail');
    // Filtering by status works as on any list.
    const failed = await call(
      'GET',
      '/api/mail-outbox?builder[0][where][0]=status&builder[0][where][1]=failed',
      b.admin,
    );
    expect(failed.json().data.map((r: { id: number }) => r.id)).toContain(outboxId);
  });

  it('hides sent mail and the mail of other tenants', async () => {
    const sentId = await enqueueMail(
      t.db,
      { to: 'sent@example.com', subject: `Verstuurd ${Date.now()}`, text: 'Hallo' },
      { tenantId: b.tenantId },
    );
    expect(await t.app.outbox.sendNow(sentId)).toBe('sent');
    const otherId = await enqueueMail(
      t.db,
      { to: 'elders@example.com', subject: 'Van een andere tenant', text: 'Hallo' },
      { tenantId: b.otherTenantId },
    );
    await t.db
      .updateTable('mail_outbox')
      .set({ status: 'failed', attempts: 2 })
      .where('id', '=', otherId)
      .execute();
    const ids = (await call('GET', '/api/mail-outbox', b.admin)).json().data.map((r: { id: number }) => r.id);
    expect(ids).not.toContain(sentId);
    expect(ids).not.toContain(otherId);
    for (const id of [sentId, otherId]) {
      expect((await call('GET', `/api/mail-outbox/${id}`, b.admin)).statusCode, `show ${id}`).toBe(404);
      expect((await call('POST', `/api/mail-outbox/${id}/retry`, b.admin)).statusCode, `retry ${id}`).toBe(
        404,
      );
    }
    // The other tenant's mail stays given up.
    const other = await t.db
      .selectFrom('mail_outbox')
      .select(['status', 'attempts'])
      .where('id', '=', otherId)
      .executeTakeFirstOrThrow();
    expect(other).toEqual({ status: 'failed', attempts: 2 });
  });

  it('is for operators with the permissions: clients get 403 on the list and on try again', async () => {
    const { outboxId } = await givenUpMessage('Alleen voor operators');
    expect((await call('GET', '/api/mail-outbox', b.client)).statusCode).toBe(403);
    expect((await call('GET', `/api/mail-outbox/${outboxId}`, b.client)).statusCode).toBe(403);
    expect((await call('POST', `/api/mail-outbox/${outboxId}/retry`, b.client)).statusCode).toBe(403);
    // An operator whose role lacks tenant.mail-outbox.retry reads the list but cannot try again.
    expect((await call('GET', '/api/mail-outbox', b.limited)).statusCode).toBe(200);
    expect((await call('POST', `/api/mail-outbox/${outboxId}/retry`, b.limited)).statusCode).toBe(403);
    const row = await t.db
      .selectFrom('mail_outbox')
      .select(['status', 'attempts'])
      .where('id', '=', outboxId)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ status: 'failed', attempts: 2 });
  });

  it('tries a given-up mail again: sent once, the message loses its warning and records its recipients', async () => {
    const { messageId, outboxId } = await givenUpMessage('Alsnog bezorgd');
    expect((await messageOf(messageId)).mail_error).toContain(MAIL_GIVEN_UP);
    const before = smtp.received.length;
    const res = await call('POST', `/api/mail-outbox/${outboxId}/retry`, b.admin);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ id: outboxId, status: 'sent', message: 'The mail has been sent.' });
    const mail = await smtp.next(before);
    expect(recipients(mail)).toContain('client@example.com');
    expect(mail.html || mail.text).toContain('Alsnog bezorgd');
    const message = await messageOf(messageId);
    expect(message.mail_error).toBeNull();
    expect(JSON.stringify(message.recipients)).toContain('client@example.com');
    const row = await t.db
      .selectFrom('mail_outbox')
      .select(['status', 'attempts', 'mail'])
      .where('id', '=', outboxId)
      .executeTakeFirstOrThrow();
    // Counted from zero again: the one attempt of the retry.
    expect(row).toEqual({ status: 'sent', attempts: 1, mail: null });
    // Sent now: no longer in the list, nothing to try again, and it is not sent a second time.
    expect((await call('GET', `/api/mail-outbox/${outboxId}`, b.admin)).statusCode).toBe(404);
    expect((await call('POST', `/api/mail-outbox/${outboxId}/retry`, b.admin)).statusCode).toBe(404);
    await new Promise((r) => setTimeout(r, 300));
    expect(smtp.received.length).toBe(before + 1);
  });

  it('says so when the mail is refused again, and the outbox goes on trying until it gives up', async () => {
    const { messageId, outboxId } = await givenUpMessage('Weer geweigerd');
    smtp.refusing = true;
    try {
      const res = await call('POST', `/api/mail-outbox/${outboxId}/retry`, b.admin);
      expect(res.statusCode, res.body).toBe(200);
      // The first of its two new attempts failed: queued for the second.
      expect(res.json()).toEqual({
        id: outboxId,
        status: 'queued',
        message: 'The mail could not be sent yet. It is tried again automatically.',
        mail_error: RETRY_FAILED,
      });
      // Queued again, the message no longer says its mail was given up…
      expect((await messageOf(messageId)).mail_error).toBeNull();
      // …until the outbox gives it up again after its second attempt.
      await waitFor('given up again', async () => (await messageOf(messageId)).mail_error !== null);
    } finally {
      smtp.refusing = false;
    }
    const row = await t.db
      .selectFrom('mail_outbox')
      .select(['status', 'attempts'])
      .where('id', '=', outboxId)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ status: 'failed', attempts: 2 });
    expect((await messageOf(messageId)).mail_error).toContain('(2 attempts)');
  });

  it('refuses with 422 a mail being sent, or one given up before bodies were kept, and bad ids', async () => {
    const held = await enqueueMail(
      t.db,
      { to: 'bezig@example.com', subject: `Bezig ${Date.now()}`, text: 'Hallo' },
      { tenantId: b.tenantId },
    );
    // As a sender of another instance holds it, under a lease that has not run out.
    await t.db
      .updateTable('mail_outbox')
      .set({ status: 'sending', attempts: 1, locked_until: sql`now() + interval '10 minutes'` })
      .where('id', '=', held)
      .execute();
    const sending = await call('POST', `/api/mail-outbox/${held}/retry`, b.admin);
    expect(sending.statusCode).toBe(422);
    expect(sending.json()).toEqual({ message: RETRY_SENDING, errors: { status: [RETRY_SENDING] } });

    const old = await enqueueMail(
      t.db,
      { to: 'oud@example.com', subject: `Oud ${Date.now()}`, text: 'Hallo' },
      { tenantId: b.tenantId },
    );
    // As migration 0014's outbox left a mail it gave up: without its body.
    await t.db
      .updateTable('mail_outbox')
      .set({ status: 'failed', attempts: 8, mail: null, next_attempt_at: sql`now() + interval '1 day'` })
      .where('id', '=', old)
      .execute();
    const bodiless = await call('POST', `/api/mail-outbox/${old}/retry`, b.admin);
    expect(bodiless.statusCode).toBe(422);
    expect(bodiless.json().message).toBe(RETRY_NO_BODY);
    const kept = await t.db
      .selectFrom('mail_outbox')
      .select(['status', 'attempts'])
      .where('id', 'in', [held, old])
      .orderBy('id')
      .execute();
    expect(kept).toEqual([
      { status: 'sending', attempts: 1 },
      { status: 'failed', attempts: 8 },
    ]);
    await t.db.deleteFrom('mail_outbox').where('id', 'in', [held, old]).execute();

    expect((await call('POST', '/api/mail-outbox/abc/retry', b.admin)).statusCode).toBe(422);
    expect((await call('POST', '/api/mail-outbox/2000000000/retry', b.admin)).statusCode).toBe(404);
  });

  it('drops the body of a mail given up longer ago than MAIL_KEEP_GIVEN_UP_DAYS, and then refuses to try it again', async () => {
    const { outboxId: young } = await givenUpMessage('Net opgegeven');
    const { outboxId: old } = await givenUpMessage('Lang geleden opgegeven');
    // Given up 31 days ago: one day past the default of 30.
    await t.db
      .updateTable('mail_outbox')
      .set({ failed_at: sql`now() - interval '31 days'` })
      .where('id', '=', old)
      .execute();
    expect(await t.app.outbox.forgetOldBodies()).toBe(1);
    const rows = await t.db
      .selectFrom('mail_outbox')
      .select(['id', 'status'])
      .select(sql<boolean>`mail is null`.as('forgotten'))
      .where('id', 'in', [young, old])
      .orderBy('id')
      .execute();
    expect(rows.map((r) => [Number(r.id), r.status, r.forgotten])).toEqual([
      [young, 'failed', false],
      [old, 'failed', true],
    ]);
    const refused = await call('POST', `/api/mail-outbox/${old}/retry`, b.admin);
    expect(refused.statusCode).toBe(422);
    expect(refused.json().message).toBe(RETRY_NO_BODY);
    // The young one can still be tried again, so its body stays.
    expect(await t.app.outbox.forgetOldBodies()).toBe(0);
    await t.db.deleteFrom('mail_outbox').where('id', 'in', [young, old]).execute();
  });

  it("queues the export notice in the exporting user's tenant", async () => {
    const admin = await t.db
      .selectFrom('users')
      .select(['id', 'tenant_id'])
      .where('email', '=', 'admin@example.com')
      .executeTakeFirstOrThrow();
    const before = smtp.received.length;
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/exports',
      headers: b.admin,
      payload: { userId: Number(admin.id), model: 'countries', filter: [] },
    });
    expect(res.statusCode, res.body).toBe(200);
    const mail = await smtp.next(before);
    expect(recipients(mail)).toContain('admin@example.com');
    const row = await t.db
      .selectFrom('mail_outbox')
      .select('tenant_id')
      .where('subject', '=', mail.subject!)
      .where('recipients', '=', 'admin@example.com')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(Number(row.tenant_id)).toBe(Number(admin.tenant_id));
  });

  it('migration 0016 gives a row without a tenant the tenant of its recipient, or removes it', async () => {
    const done = new Error('rolled back: the test leaves the schema as it was');
    await expect(
      t.db.transaction().execute(async (trx) => {
        await migration0016.down(trx);
        const insert = (recipient: string) =>
          // The table as migration 0015 left it (tenant_id nullable), not as tables.ts describes it now.
          bySchema(trx)
            .insertInto('mail_outbox')
            .values({ tenant_id: null, recipients: recipient, subject: 'Export klaar', status: 'failed' })
            .returning('id')
            .$castTo<{ id: number }>()
            .executeTakeFirstOrThrow();
        const known = await insert('Admin@Example.com');
        const unknown = await insert('nobody@example.com');
        await migration0016.up(trx);
        const rows = await trx
          .selectFrom('mail_outbox')
          .select(['id', 'tenant_id'])
          .where('id', 'in', [known.id, unknown.id])
          .execute();
        expect(rows).toEqual([{ id: known.id, tenant_id: b.tenantId }]);
        const { rows: nullable } = await sql<{ is_nullable: string }>`
          select is_nullable from information_schema.columns
          where table_name = 'mail_outbox' and column_name = 'tenant_id'
            and table_schema = current_schema()`.execute(trx);
        expect(nullable).toEqual([{ is_nullable: 'NO' }]);
        throw done;
      }),
    ).rejects.toBe(done);
  });
});

describe.each(targets)('a mail given up at its first attempt (MAIL_MAX_ATTEMPTS=1) on $name', (target) => {
  let t: TestApp;
  let smtp: LoopbackSmtp;
  let b: BackOffice;

  beforeAll(async () => {
    smtp = await startSmtp();
    smtp.refusing = true;
    t = await buildTestApp(target, { config: { smtpUrl: smtp.url, mailMaxAttempts: 1 } });
    b = await backOffice(t, ['tenant.mail-outbox.retry']);
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  const outbox = (source: string | null, subject?: string) =>
    t.db
      .selectFrom('mail_outbox')
      .select(['status', 'attempts'])
      .$if(source !== null, (q) => q.where('source', '=', source))
      .$if(subject !== undefined, (q) => q.where('subject', '=', subject!))
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();

  it('a sent quote says its mail was given up, not that it is tried again', async () => {
    const quote = await t.db
      .selectFrom('quotes as q')
      .innerJoin('companies as c', 'c.id', 'q.company_id')
      .select(['q.id', 'q.name'])
      .where('c.name', '=', 'Jansen BV')
      .where('q.status_id', '=', 1)
      .orderBy('q.id')
      .executeTakeFirstOrThrow();
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/quotes/${quote.id}/send`,
      headers: b.admin,
      payload: {},
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().mail_error).toBe(QUOTE_MAIL_GIVEN_UP);
    expect(await outbox(null, `Offerte "${quote.name}" van Acme IT`)).toEqual({
      status: 'failed',
      attempts: 1,
    });
  });

  it('a message says its mail was given up, and keeps the given-up warning operators see', async () => {
    const ticketId = await firstClientTicketId(t.db);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/messages',
      headers: b.admin,
      payload: {
        message: '<p>Meteen opgegeven</p>',
        morphable_type: 'ticket',
        morphable_id: ticketId,
        send_to_client: true,
      },
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().mail_error).toBe(MAIL_GIVEN_UP_NOW);
    expect(await outbox('messages')).toEqual({ status: 'failed', attempts: 1 });
    const stored = await t.app.inject({
      method: 'GET',
      url: `/api/messages/${res.json().id}`,
      headers: b.admin,
    });
    expect(stored.json().mail_error).toContain(MAIL_GIVEN_UP);
  });
});
