/**
 * Incoming e-mail and replies that thread (issue 19, items 1 and 2), end to end against a real Dovecot
 * started by the test and a real SMTP server on loopback (tests/api/mail-in-world.ts): mailboxes by
 * schema with their password encrypted and never answered; a reply lands in its ticket's thread; a
 * known client's new mail opens a ticket; an unknown sender's goes to the 'unknown sender' queue; an
 * auto-reply is recorded and answered by nothing; a 10 MB attachment arrives whole; one mail fetched by
 * two fetchers at once is kept once; outgoing mail carries the Message-ID we record, the reference,
 * Reply-To and In-Reply-To/References. A failing mailbox and hostile mail:
 * tests/api/mail-in-fetcher.test.ts.
 */
import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSecondInstance, targets } from './harness.ts';
import { hasDovecot, rawMail } from './dovecot.ts';
import type { ParsedMail } from './smtp.ts';
import { UNKNOWN_SENDER_GROUP } from '../../server/mail/inbound/unknown-sender.ts';
import { REPLY_TO, startMailInDesk, type MailInDesk } from './mail-in-world.ts';

describe.skipIf(!hasDovecot()).each(targets)('incoming mail on $name', (target) => {
  let { t, dovecot, smtp, admin, mailboxId, client, ticket, signed, fetchNow, fetcherOf, messagesOf, close } =
    {} as MailInDesk;

  const outboxCount = async () =>
    Number(
      (
        await t.db
          .selectFrom('mail_outbox')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  beforeAll(async () => {
    ({ t, dovecot, smtp, admin, mailboxId, client, ticket, signed, fetchNow, fetcherOf, messagesOf, close } =
      await startMailInDesk(target));
  }, 120_000);
  afterAll(() => close?.());

  it('keeps the password encrypted and never answers it; only admins manage mailboxes', async () => {
    const shown = await t.app.inject({ method: 'GET', url: `/api/mailboxes/${mailboxId}`, headers: admin });
    expect(shown.statusCode).toBe(200);
    expect(shown.json()).not.toHaveProperty('password');
    expect(shown.json()).not.toHaveProperty('password_encrypted');
    expect(shown.body).not.toContain(dovecot.password);
    const stored = await t.db
      .selectFrom('mailboxes')
      .select('password_encrypted')
      .where('id', '=', mailboxId)
      .executeTakeFirstOrThrow();
    expect(stored.password_encrypted).toMatch(/^v1\./);
    expect(stored.password_encrypted).not.toContain(dovecot.password);

    const operator = await t.as('operator@example.com');
    const list = await t.app.inject({ method: 'GET', url: '/api/mailboxes', headers: operator });
    expect(list.statusCode).toBe(200);
    expect(list.json().data.map((m: { status: string }) => m.status)).toContain('ok');
    const refused = await t.app.inject({
      method: 'PUT',
      url: `/api/mailboxes/${mailboxId}`,
      headers: operator,
      payload: { name: 'Mine' },
    });
    expect(refused.statusCode).toBe(403);
    const clientCall = await t.app.inject({
      method: 'GET',
      url: '/api/mailboxes',
      headers: await t.as('client@example.com'),
    });
    expect(clientCall.statusCode).toBe(403);
  });

  it("sends an operator's message with our recorded Message-ID, the reference, Reply-To and the thread's ids", async () => {
    const post = (text: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/messages',
        headers: admin,
        payload: {
          morphable_type: 'ticket',
          morphable_id: ticket.id,
          message: `<p>${text}</p>`,
          visible_to_client: true,
          send_to_client: true,
        },
      });
    const before = smtp.received.length;
    const first = await post('First answer');
    expect(first.statusCode, first.body).toBe(201);
    const firstMail: ParsedMail = await smtp.next(before);
    const second = await post('Second answer');
    expect(second.statusCode, second.body).toBe(201);
    const secondMail: ParsedMail = await smtp.next(before + 1);

    const recorded = await t.db
      .selectFrom('messages')
      .select(['id', 'mail_message_id'])
      .where('id', 'in', [first.json().id, second.json().id])
      .orderBy('id')
      .execute();
    expect(firstMail.messageId).toBe(recorded[0]!.mail_message_id);
    expect(secondMail.messageId).toBe(recorded[1]!.mail_message_id);
    // The ticket's signed reply token (issue 31, tests/api/mail-trust.test.ts).
    expect(firstMail.messageId).toMatch(new RegExp(`^<t\\.${ticket.id}\\.[0-9a-f.]+@desk\\.example>$`));
    expect(secondMail.subject).toContain(`[${ticket.reference}]`);
    expect(secondMail.replyTo?.value[0]?.address).toBe(REPLY_TO);
    expect(secondMail.inReplyTo).toBe(firstMail.messageId);
    expect([secondMail.references].flat()).toContain(firstMail.messageId);
    const outbox = await t.db
      .selectFrom('mail_outbox')
      .select('message_id')
      .where('source', '=', 'messages')
      .where('source_id', '=', second.json().id)
      .executeTakeFirstOrThrow();
    expect(outbox.message_id).toBe(secondMail.messageId);
  });

  it("puts a client's reply to a ticket mail into that ticket's thread, the quoted mail folded", async () => {
    const sent = await t.db
      .selectFrom('messages')
      .select('mail_message_id')
      .where('morphable_id', '=', ticket.id)
      .where('mail_message_id', 'is not', null)
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    const mail = rawMail({
      from: `Client <${client.email.toUpperCase()}>`,
      subject: 'Re: your answer',
      text: 'Thanks, that solved it.\n\nOn Tue, 24 Nov 2026 at 10:00, Desk <support@desk.example> wrote:\n> First answer\n',
      headers: { 'In-Reply-To': String(sent.mail_message_id), References: String(sent.mail_message_id) },
    });
    await dovecot.deliver(await signed(mail.raw));
    const result = await fetchNow();
    expect(result.outcomes.map((o) => o.kind)).toEqual(['message']);
    const last = (await messagesOf(ticket.id)).at(-1)!;
    expect(last.message).toContain('Thanks, that solved it.');
    expect(last.message).toMatch(/<details><summary>…<\/summary>.*First answer.*<\/details>/s);
    expect(last.is_from_client).toBe(true);
    expect(last.visible_to_client).toBe(true);
    expect(Number(last.actor_id)).toBe(client.id);
    expect(last.original_email_from).toBe(client.email.toLowerCase());
    expect(last.mail_message_id).toBe(mail.messageId);
    const incoming = await t.db
      .selectFrom('mail_incoming')
      .select(['status', 'ticket_id', 'message_id', 'auto_reply'])
      .where('mailbox_id', '=', mailboxId)
      .where('message_key', '=', mail.messageId)
      .executeTakeFirstOrThrow();
    expect(incoming).toEqual({
      status: 'done',
      ticket_id: ticket.id,
      message_id: last.id,
      auto_reply: false,
    });
    // The client sees it in the portal thread.
    const portal = await t.app.inject({
      method: 'GET',
      url:
        `/api/messages?builder[0][where][0]=morphable_type&builder[0][where][1]=ticket` +
        `&builder[1][where][0]=morphable_id&builder[1][where][1]=${ticket.id}&builder[2][paginate]=100`,
      headers: await t.as('client@example.com'),
    });
    expect(portal.statusCode, portal.body).toBe(200);
    expect(portal.json().data.map((m: { id: number }) => Number(m.id))).toContain(Number(last.id));
  });

  it("matches a verified client's mail by the reference in its subject (an outsider's: tests/api/mail-trust.test.ts)", async () => {
    await dovecot.deliver(
      await signed(
        rawMail({ from: client.email, subject: `Fwd: [${ticket.reference}] the printer`, text: 'Same here.' })
          .raw,
      ),
    );
    const result = await fetchNow();
    expect(result.outcomes).toEqual([
      { kind: 'message', ticketId: ticket.id, messageId: expect.any(Number) },
    ]);
    const last = (await messagesOf(ticket.id)).at(-1)!;
    expect(last.original_email_from).toBe(client.email);
    expect(Number(last.actor_id)).toBe(client.id);
  });

  it('opens a ticket for a known client who writes a new mail', async () => {
    const subject = `New laptop please ${randomBytes(3).toString('hex')}`;
    await dovecot.deliver(
      await signed(
        rawMail({ from: client.email, subject, html: '<p>Hi, <b>new</b> laptop<script>x()</script></p>' })
          .raw,
      ),
    );
    const [outcome] = (await fetchNow()).outcomes;
    expect(outcome?.kind).toBe('ticket');
    const opened = await t.db
      .selectFrom('tickets')
      .selectAll()
      .where('id', '=', (outcome as { ticketId: number }).ticketId)
      .executeTakeFirstOrThrow();
    expect(opened.description).toBe(subject);
    expect(Number(opened.client_id)).toBe(client.id);
    expect(opened.company_id).not.toBeNull();
    expect(opened.reference).toMatch(/^T-\d{4}-\d{5}$/);
    const [first] = await messagesOf(Number(opened.id));
    expect(first!.message).toBe('<p>Hi, <b>new</b> laptop</p>');
    expect(first!.original_email_from).toBe(client.email);
    expect(Number(first!.actor_id)).toBe(client.id);
    const incoming = await t.db
      .selectFrom('mail_incoming')
      .select(['status', 'ticket_id', 'message_id'])
      .where('mailbox_id', '=', mailboxId)
      .where('subject', '=', subject)
      .executeTakeFirstOrThrow();
    expect(incoming).toEqual({ status: 'done', ticket_id: opened.id, message_id: first!.id });
  });

  it("puts an unknown sender's mail in the 'unknown sender' queue with the address kept", async () => {
    await dovecot.deliver(
      rawMail({ from: 'Stranger <stranger@nowhere.example>', subject: 'Who are you?' }).raw,
    );
    const [outcome] = (await fetchNow()).outcomes;
    expect(outcome?.kind).toBe('ticket');
    const opened = await t.db
      .selectFrom('tickets')
      .selectAll()
      .where('id', '=', (outcome as { ticketId: number }).ticketId)
      .executeTakeFirstOrThrow();
    expect(opened.client_id).toBeNull();
    const setting = await t.db
      .selectFrom('tenant_configs')
      .select('value')
      .where('tenant_id', '=', opened.tenant_id)
      .where('name', '=', UNKNOWN_SENDER_GROUP)
      .executeTakeFirstOrThrow();
    expect(Number(opened.ticket_group_id)).toBe(Number(setting.value));
    const [first] = await messagesOf(Number(opened.id));
    expect(first!.original_email_from).toBe('stranger@nowhere.example');
    // A second one goes to the same queue.
    await dovecot.deliver(rawMail({ from: 'other.stranger@nowhere.example', subject: 'Me too' }).raw);
    const [again] = (await fetchNow()).outcomes;
    const second = await t.db
      .selectFrom('tickets')
      .select('ticket_group_id')
      .where('id', '=', (again as { ticketId: number }).ticketId)
      .executeTakeFirstOrThrow();
    expect(Number(second.ticket_group_id)).toBe(Number(setting.value));
  });

  it('records an auto-reply but answers it with nothing', async () => {
    const queued = await outboxCount();
    await dovecot.deliver(
      await signed(
        rawMail({
          from: client.email,
          subject: `Automatic reply: [${ticket.reference}] out of office`,
          headers: { 'Auto-Submitted': 'auto-replied' },
          text: 'I am away until Monday.',
        }).raw,
      ),
    );
    await dovecot.deliver(
      rawMail({ from: 'list@lists.example', subject: 'Newsletter', headers: { Precedence: 'bulk' } }).raw,
    );
    const tickets = await t.db
      .selectFrom('tickets')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    const { outcomes } = await fetchNow();
    expect(outcomes.map((o) => o.kind)).toEqual(['message', 'recorded']);
    const after = await t.db
      .selectFrom('tickets')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(tickets.n));
    const rows = await t.db
      .selectFrom('mail_incoming')
      .select(['auto_reply', 'subject'])
      .where('mailbox_id', '=', mailboxId)
      .orderBy('id', 'desc')
      .limit(2)
      .execute();
    expect(rows.map((r) => r.auto_reply)).toEqual([true, true]);
    expect(await outboxCount()).toBe(queued);
  });

  it('takes a 10 MB attachment whole', async () => {
    const pdf = Buffer.concat([Buffer.from('%PDF-1.4\n'), randomBytes(10 * 1024 * 1024)]);
    await dovecot.deliver(
      await signed(
        rawMail({
          from: client.email,
          subject: `[${ticket.reference}] the scan`,
          text: 'See the scan.',
          attachment: { name: 'scan.pdf', type: 'application/pdf', content: pdf },
        }).raw,
      ),
    );
    const [outcome] = (await fetchNow()).outcomes;
    expect(outcome?.kind).toBe('message');
    const file = await t.db
      .selectFrom('attachments')
      .selectAll()
      .where('message_id', '=', (outcome as { messageId: number }).messageId)
      .executeTakeFirstOrThrow();
    expect(file.name).toBe('scan.pdf');
    expect(Number(file.size)).toBe(pdf.length);
    const download = await t.app.inject({
      method: 'GET',
      url: `/api/attachments/${file.id}/file`,
      headers: admin,
    });
    expect(download.statusCode).toBe(200);
    const digest = (b: Buffer) => createHash('sha256').update(b).digest('hex');
    expect(digest(download.rawPayload)).toBe(digest(pdf));
  }, 120_000);

  it('keeps a mail that two fetchers take at the same moment once', async () => {
    const subject = `Twice fetched ${randomBytes(3).toString('hex')}`;
    await dovecot.deliver(rawMail({ from: client.email, subject }).raw);
    // On PostgreSQL a second app instance on the same database; on PGlite a second fetcher in this one.
    const second = t.connection ? await buildSecondInstance(t, { config: { mailFetchMs: 0 } }) : undefined;
    const other = second?.app.mailFetcher ?? fetcherOf();
    try {
      const results = await Promise.all([fetchNow(), other.fetchMailbox(mailboxId)]);
      const kinds = results.flatMap((r) => r.outcomes.map((o) => o.kind)).sort();
      expect(kinds).toEqual(['duplicate', 'ticket']);
    } finally {
      await second?.close();
    }
    const made = await t.db.selectFrom('tickets').select('id').where('description', '=', subject).execute();
    expect(made).toHaveLength(1);
    expect(await messagesOf(Number(made[0]!.id))).toHaveLength(1);
    // Fetched again later: nothing new.
    expect((await fetchNow()).outcomes).toEqual([]);
  }, 120_000);
});
