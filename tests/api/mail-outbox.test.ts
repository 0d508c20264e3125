/**
 * The mail outbox (issue 15, item 4) against a real SMTP server on loopback: a refused mail is tried
 * again and sent once; a mail given up for good tells the operator on its message; a rolled-back
 * transaction leaves no mail; a mail whose instance died mid-send is taken again after its lease; and
 * two instances on one PostgreSQL database send each of 20 mails exactly once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { enqueueMail } from '../../server/mail/enqueue.ts';
import { MAIL_GIVEN_UP, MAIL_RETRYING } from '../../server/resources/messages/actions.ts';
import { buildSecondInstance, buildTestApp, targets, type TestApp } from './harness.ts';
import { waitFor } from './processes.ts';
import { startSmtp, type LoopbackSmtp } from './smtp.ts';

const subjects = (smtp: LoopbackSmtp, prefix: string) =>
  smtp.received.map((m) => m.subject ?? '').filter((s) => s.startsWith(prefix));

async function outboxRow(t: TestApp, subject: string) {
  return t.db
    .selectFrom('mail_outbox')
    .select(['status', 'attempts', 'mail', 'last_error', 'recipients'])
    .where('subject', '=', subject)
    .executeTakeFirstOrThrow();
}

/** The demo tenant (every outbox row belongs to a tenant). */
async function firstTenant(t: TestApp): Promise<{ tenantId: number }> {
  const row = await t.db.selectFrom('tenants').select('id').orderBy('id').executeTakeFirstOrThrow();
  return { tenantId: Number(row.id) };
}

describe.each(targets)('mail outbox on $name', (target) => {
  let t: TestApp;
  let smtp: LoopbackSmtp;

  beforeAll(async () => {
    smtp = await startSmtp();
    // Short retries, and a mail is given up after its third attempt.
    t = await buildTestApp(target, {
      config: { smtpUrl: smtp.url, mailRetryBaseMs: 100, mailRetryMaxMs: 300, mailMaxAttempts: 3 },
    });
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  it('tries a mail the server refuses (451) again and sends it once the server accepts', async () => {
    smtp.refusalCode = 451;
    smtp.refuseNext = 2;
    const subject = `Try again ${Date.now()}`;
    try {
      await enqueueMail(t.db, { to: 'someone@example.com', subject, text: 'Hello' }, await firstTenant(t));
      t.app.outbox.wake();
      await waitFor('the mail sent', async () => (await outboxRow(t, subject)).status === 'sent');
    } finally {
      smtp.refuseNext = 0;
      smtp.refusalCode = 550;
    }
    // Refused twice, sent by the third attempt, received once.
    expect(subjects(smtp, subject)).toEqual([subject]);
    const row = await outboxRow(t, subject);
    expect(row.attempts).toBe(3);
    expect(row.mail).toBeNull();
    expect(row.last_error).toBeNull();
  });

  it('gives a mail up after its last attempt and sets the mail_error operators see on the message', async () => {
    const admin = await t.as('admin@example.com');
    const client = await t.as('client@example.com');
    const ticket = await t.db
      .selectFrom('tickets as t')
      .innerJoin('users as u', 'u.id', 't.client_id')
      .select('t.id')
      .where('u.email', '=', 'client@example.com')
      .where('t.is_template', '=', false)
      .orderBy('t.id')
      .executeTakeFirstOrThrow();
    smtp.refusing = true;
    let id: number;
    try {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/messages',
        headers: admin,
        payload: {
          message: '<p>Nooit bezorgd</p>',
          morphable_type: 'ticket',
          morphable_id: Number(ticket.id),
          send_to_client: true,
        },
      });
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json().mail_error).toBe(MAIL_RETRYING);
      id = res.json().id;
      const given = await waitFor('the mail given up', async () => {
        const row = await t.db
          .selectFrom('mail_outbox')
          .select(['status', 'attempts', 'mail'])
          .where('source', '=', 'messages')
          .where('source_id', '=', id)
          .executeTakeFirstOrThrow();
        return row.status === 'failed' && row;
      });
      expect(given.attempts).toBe(3);
      // Kept, so that an operator can queue it again (mail-failures-retry.test.ts).
      expect(given.mail).not.toBeNull();
    } finally {
      smtp.refusing = false;
    }
    const asOperator = await t.app.inject({ method: 'GET', url: `/api/messages/${id}`, headers: admin });
    expect(asOperator.statusCode).toBe(200);
    expect(asOperator.json().mail_error).toContain(MAIL_GIVEN_UP);
    expect(asOperator.json().mail_error).toContain('3 attempts');
    expect(asOperator.json().recipients).toEqual([]);
    const asClient = await t.app.inject({ method: 'GET', url: `/api/messages/${id}`, headers: client });
    expect(asClient.statusCode).toBe(200);
    expect(asClient.json()).not.toHaveProperty('mail_error');
  });

  it('leaves no mail behind a transaction that rolls back', async () => {
    const subject = `Rolled back ${Date.now()}`;
    // Read before the transaction: on PGlite it holds the one connection.
    const tenant = await firstTenant(t);
    await expect(
      t.db.transaction().execute(async (trx) => {
        await enqueueMail(trx, { to: 'someone@example.com', subject, text: 'Never' }, tenant);
        throw new Error('the cause of the mail failed');
      }),
    ).rejects.toThrow('the cause of the mail failed');
    const rows = await t.db.selectFrom('mail_outbox').select('id').where('subject', '=', subject).execute();
    expect(rows).toEqual([]);
  });

  it('takes again a mail whose instance died while sending it, once its lease ran out', async () => {
    const subject = `Orphaned ${Date.now()}`;
    const id = await enqueueMail(
      t.db,
      { to: 'someone@example.com', subject, text: 'Hello again' },
      await firstTenant(t),
    );
    // As an instance that claimed it and died would leave it.
    await t.db
      .updateTable('mail_outbox')
      .set({ status: 'sending', attempts: 1, locked_until: sql`now() - interval '1 second'` })
      .where('id', '=', id)
      .execute();
    t.app.outbox.wake();
    await waitFor('the orphaned mail sent', async () => (await outboxRow(t, subject)).status === 'sent');
    expect(subjects(smtp, subject)).toEqual([subject]);
    expect((await outboxRow(t, subject)).attempts).toBe(2);
  });
});

describe.each(targets.filter((target) => target.name === 'postgres'))(
  'mail outbox, two instances on one $name database',
  (target) => {
    let first: TestApp;
    let second: TestApp;
    let smtp: LoopbackSmtp;

    beforeAll(async () => {
      smtp = await startSmtp();
      first = await buildTestApp(target, { seed: 'none', config: { smtpUrl: smtp.url } });
      second = await buildSecondInstance(first);
      // Every mail belongs to a tenant; an empty database has none.
      await first.db.insertInto('tenants').values({ slug: 'outbox-once', name: 'Outbox once' }).execute();
    });
    afterAll(async () => {
      await second?.close();
      await first?.close();
      await smtp?.close();
    });

    it('sends each of 20 mails exactly once', async () => {
      // A slow server: both senders are at work at the same moment.
      smtp.holdMs = 50;
      const prefix = `Once ${Date.now()}`;
      const all = Array.from({ length: 20 }, (_, i) => `${prefix} #${i}`);
      try {
        const about = await firstTenant(first);
        for (const [i, subject] of all.entries())
          await enqueueMail(
            i % 2 ? first.db : second.db,
            { to: `r${i}@example.com`, subject, text: 'Hi' },
            about,
          );
        first.app.outbox.wake();
        second.app.outbox.wake();
        await waitFor('every mail marked sent', async () => {
          const { count } = await first.db
            .selectFrom('mail_outbox')
            .select((eb) => eb.fn.countAll<string>().as('count'))
            .where('subject', 'like', `${prefix} #%`)
            .where('status', '=', 'sent')
            .executeTakeFirstOrThrow();
          return Number(count) === all.length;
        });
      } finally {
        smtp.holdMs = 0;
      }
      // Every row is sent, so no further send can come: what arrived is all there will be.
      expect(subjects(smtp, prefix).sort()).toEqual([...all].sort());
      const attempts = await first.db
        .selectFrom('mail_outbox')
        .select('attempts')
        .where('subject', 'like', `${prefix} #%`)
        .execute();
      expect(attempts.map((r) => Number(r.attempts))).toEqual(all.map(() => 1));
    });
  },
);
