/**
 * "Try again" on failed mail (issue 15, item 4; POST /api/mail-outbox/{id}/retry): it queues a given-up
 * mail again with its attempts reset and tries it at once, says so when it is refused again, refuses a
 * mail being sent or one without its body, whose body is dropped MAIL_KEEP_GIVEN_UP_DAYS after it was
 * given up; and what a quote or message says of a mail given up at its first attempt. The list operators
 * see: tests/api/mail-failures-list.test.ts.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enqueueMail } from '../../server/mail/enqueue.ts';
import { MAIL_GIVEN_UP, MAIL_GIVEN_UP_NOW } from '../../server/resources/messages/actions.ts';
import { QUOTE_MAIL_GIVEN_UP } from '../../server/resources/quotes/send.ts';
import { RETRY_FAILED, RETRY_NO_BODY, RETRY_SENDING } from '../../server/resources/mail-outbox/actions.ts';
import { backOffice, type BackOffice } from './back-office.ts';
import { buildTestApp, firstClientTicketId, targets, type TestApp } from './harness.ts';
import { failedMailWorld, type FailedMailWorld } from './mail-failures-world.ts';
import { waitFor } from './processes.ts';
import { recipients, startSmtp, type LoopbackSmtp } from './smtp.ts';

describe.each(targets)('failed mail for operators on $name', (target) => {
  let w: FailedMailWorld | undefined;
  let t: TestApp;
  let smtp: LoopbackSmtp;
  let b: BackOffice;
  let call: FailedMailWorld['call'];
  let givenUpMessage: FailedMailWorld['givenUpMessage'];
  let messageOf: FailedMailWorld['messageOf'];

  beforeAll(async () => {
    w = await failedMailWorld(target);
    ({ t, smtp, b, call, givenUpMessage, messageOf } = w);
  });
  afterAll(() => w?.close());

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
