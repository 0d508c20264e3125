/**
 * Incoming e-mail and replies that thread (issue 19, items 1 and 2), end to end against a real Dovecot
 * started by the test (tests/api/dovecot.ts) and a real SMTP server on loopback: mailboxes by schema
 * with their password encrypted and never answered; a reply lands in its ticket's thread; a known
 * client's new mail opens a ticket; an unknown sender's goes to the 'unknown sender' queue; an
 * auto-reply is recorded and answered by nothing; a 10 MB attachment arrives whole; one mail fetched by
 * two fetchers at once is kept once; a failing mailbox is shown so and retried later; outgoing mail
 * carries the Message-ID we record, the reference, Reply-To and In-Reply-To/References.
 *
 * Issue 31, item 1: a hostile mail is read in the reader's thread while the API's thread keeps turning;
 * a mail the reader cannot finish in time is recorded as rejected and never read again; at most
 * MAIL_MAX_ATTACHMENTS files of a mail are kept; a mail without a usable From opens no ticket.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { threadId } from 'node:worker_threads';
import { createHash, randomBytes } from 'node:crypto';
import { createServer, type AddressInfo, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { buildSecondInstance, buildTestApp, targets, type TestApp } from './harness.ts';
import { hasDovecot, rawMail, startDovecot, type Dovecot } from './dovecot.ts';
import { startSmtp, type LoopbackSmtp, type ParsedMail } from './smtp.ts';
import { freePort, waitFor } from './processes.ts';
import { MailFetcher } from '../../server/mail/inbound/fetcher.ts';
import { fileStoreFor } from '../../server/files/store.ts';
import { registry } from '../../server/schema/registry.ts';
import type { InboundDeps } from '../../server/mail/inbound/deps.ts';
import { UNKNOWN_SENDER_GROUP } from '../../server/mail/inbound/unknown-sender.ts';
import { readerThreadId } from '../../server/mail/inbound/parse-thread.ts';
import { dkimKey, signMail, startTestDns, type DkimKey, type TestDns } from './dkim.ts';

const REPLY_TO = 'support@desk.example';

describe.skipIf(!hasDovecot()).each(targets)('incoming mail on $name', (target) => {
  let t: TestApp;
  let dovecot: Dovecot;
  let smtp: LoopbackSmtp;
  let admin: Record<string, string>;
  let mailboxId: number;
  let client: { id: number; email: string };
  let ticket: { id: number; reference: string };
  // The demo clients' domain signs its mail (issue 31): a test DNS server publishes the key.
  let dns: TestDns;
  let clientKey: DkimKey;
  const signed = (raw: string) => signMail(raw, clientKey);

  const fetchNow = () => t.app.mailFetcher.fetchMailbox(mailboxId);
  /** Another fetcher in this process, as the app's own is made (plugin.ts), with `changes` over it. */
  const fetcherOf = (changes: Partial<InboundDeps> = {}, settings: Partial<typeof t.config> = {}) =>
    new MailFetcher(
      {
        db: t.db,
        registry: registry(),
        store: fileStoreFor(t.config, t.db),
        attachmentMaxBytes: t.config.attachmentMaxBytes,
        maxAttachments: t.config.mailMaxAttachments,
        log: t.app.log,
        ...changes,
      },
      { ...t.config, ...settings },
    );
  const ticketCount = async () =>
    Number(
      (
        await t.db
          .selectFrom('tickets')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  const messagesOf = (ticketId: number) =>
    t.db
      .selectFrom('messages')
      .selectAll()
      .where('morphable_type', '=', 'ticket')
      .where('morphable_id', '=', ticketId)
      .orderBy('id')
      .execute();
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
    dns = await startTestDns();
    clientKey = dkimKey('example.com');
    dns.publish(clientKey.record.name, clientKey.record.text);
    dovecot = await startDovecot();
    smtp = await startSmtp();
    t = await buildTestApp(target, {
      config: {
        smtpUrl: smtp.url,
        mailFetchMs: 0,
        mailFrom: 'Desk <desk@desk.example>',
        mailDnsServers: [dns.server],
      },
    });
    admin = await t.as('admin@example.com');
    const user = await t.db
      .selectFrom('users')
      .select(['id', 'email'])
      .where('email', '=', 'client@example.com')
      .executeTakeFirstOrThrow();
    client = { id: Number(user.id), email: String(user.email) };
    const row = await t.db
      .selectFrom('tickets')
      .select(['id', 'reference'])
      .where('client_id', '=', client.id)
      .where('is_template', '=', false)
      .orderBy('id')
      .executeTakeFirstOrThrow();
    ticket = { id: Number(row.id), reference: String(row.reference) };
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/mailboxes',
      headers: admin,
      payload: {
        name: 'Support',
        host: dovecot.host,
        port: dovecot.port,
        tls: false,
        username: dovecot.user,
        password: dovecot.password,
        active: true,
        reply_to: REPLY_TO,
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    mailboxId = created.json().id;
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await dovecot?.close();
    await smtp?.close();
    await dns?.close();
  });

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

  it('shows a failing mailbox as failing, tries it later, and recovers', async () => {
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/mailboxes',
      headers: admin,
      payload: {
        name: 'Wrong password',
        host: dovecot.host,
        port: dovecot.port,
        tls: false,
        username: dovecot.user,
        password: 'not-the-password',
        active: true,
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().id;
    expect((await t.app.mailFetcher.fetchMailbox(id)).outcomes).toEqual([]);
    const failing = await t.app.inject({ method: 'GET', url: `/api/mailboxes/${id}`, headers: admin });
    expect(failing.json().status).toBe('failing');
    expect(failing.json().failing_since).not.toBeNull();
    expect(failing.json().last_error).toBeTruthy();
    const later = await t.db
      .selectFrom('mailboxes')
      .select(sql<boolean>`next_fetch_at > now()`.as('later'))
      .select('failures')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(later.later).toBe(true);
    expect(Number(later.failures)).toBe(1);
    expect(t.app.mailFetcher.retryDelayMs(3)).toBeGreaterThan(t.app.mailFetcher.retryDelayMs(1));

    const fixed = await t.app.inject({
      method: 'PUT',
      url: `/api/mailboxes/${id}`,
      headers: admin,
      payload: { password: dovecot.password },
    });
    expect(fixed.statusCode, fixed.body).toBe(200);
    await t.app.mailFetcher.fetchMailbox(id);
    const working = await t.app.inject({ method: 'GET', url: `/api/mailboxes/${id}`, headers: admin });
    expect(working.json().status).toBe('ok');
    expect(working.json().last_error).toBeNull();
    expect(working.json().last_fetched_at).not.toBeNull();
    await t.app.inject({ method: 'DELETE', url: `/api/mailboxes/${id}`, headers: admin });
  });

  it('fetches by itself when a mailbox is due, as every instance does', async () => {
    const subject = `By itself ${randomBytes(3).toString('hex')}`;
    await dovecot.deliver(rawMail({ from: client.email, subject }).raw);
    await t.db
      .updateTable('mailboxes')
      .set({ next_fetch_at: sql`now()` })
      .where('id', '=', mailboxId)
      .execute();
    const running = fetcherOf({}, { mailFetchMs: 200 });
    running.start();
    try {
      await waitFor('the mail fetched by the running fetcher', async () => {
        const made = await t.db
          .selectFrom('tickets')
          .select('id')
          .where('description', '=', subject)
          .execute();
        return made.length === 1;
      });
    } finally {
      await running.stop();
    }
    const box = await t.db
      .selectFrom('mailboxes')
      .select(['status', 'last_fetched_at'])
      .where('id', '=', mailboxId)
      .executeTakeFirstOrThrow();
    expect(box.status).toBe('ok');
    expect(box.last_fetched_at).not.toBeNull();
  });

  it('counts a refused connection as the mailbox failing, not the database', async () => {
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/mailboxes',
      headers: admin,
      payload: {
        name: 'Nobody home',
        host: '127.0.0.1',
        port: await freePort(),
        tls: false,
        username: 'x',
        password: 'y',
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().id;
    await t.app.mailFetcher.fetchMailbox(id);
    const shown = await t.app.inject({ method: 'GET', url: `/api/mailboxes/${id}`, headers: admin });
    expect(shown.json().status).toBe('failing');
    expect(shown.json().last_error).toContain('ECONNREFUSED');
    await t.app.inject({ method: 'DELETE', url: `/api/mailboxes/${id}`, headers: admin });
  });

  it('keeps answering the API while a mail server stalls, and fails the mailbox when it hangs up', async () => {
    // A "mail server" that accepts and says nothing, until the test hangs up on the fetcher.
    const sockets: Socket[] = [];
    const server = createServer((socket) => {
      socket.on('error', () => undefined);
      sockets.push(socket);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/mailboxes',
      headers: admin,
      payload: { name: 'Stalling', host: '127.0.0.1', port, tls: false, username: 'x', password: 'y' },
    });
    const id = created.json().id;
    try {
      const fetching = t.app.mailFetcher.fetchMailbox(id);
      await waitFor('the fetcher connected', () => sockets.length > 0);
      // The fetcher holds no transaction while it talks IMAP: on PGlite's one connection too, a write and
      // a read of the API go through.
      const list = await t.app.inject({ method: 'GET', url: '/api/tickets', headers: admin });
      expect(list.statusCode).toBe(200);
      const renamed = await t.app.inject({
        method: 'PUT',
        url: `/api/mailboxes/${id}`,
        headers: admin,
        payload: { name: 'Stalling still' },
      });
      expect(renamed.statusCode).toBe(200);
      for (const socket of sockets) socket.destroy();
      expect(await fetching).toEqual({ outcomes: [], more: false });
      const shown = await t.app.inject({ method: 'GET', url: `/api/mailboxes/${id}`, headers: admin });
      expect(shown.json().status).toBe('failing');
    } finally {
      server.close();
      await t.app.inject({ method: 'DELETE', url: `/api/mailboxes/${id}`, headers: admin });
    }
  });

  it('opens no ticket for a mail without a usable From: no From, one that does not parse, an empty one', async () => {
    const before = await ticketCount();
    const subject = `Junk ${randomBytes(3).toString('hex')}`;
    // A header line without a name, then a body: no From, no Subject, no Message-ID.
    await dovecot.deliver(
      Buffer.from('\u0001 garbage without a colon\r\n\r\nbody <b>without</b> headers\r\n'),
    );
    await dovecot.deliver(rawMail({ from: 'not an address', subject }).raw);
    await dovecot.deliver(rawMail({ from: '<>', subject }).raw);
    await dovecot.deliver(rawMail({ from: 'Half <nobody@>', subject }).raw);
    const { outcomes } = await fetchNow();
    const reason = 'The mail has no usable sender address (From); it opens no ticket.';
    expect(outcomes).toEqual(Array(4).fill({ kind: 'rejected', error: reason }));
    expect(await ticketCount()).toBe(before);
    const rows = await t.db
      .selectFrom('mail_incoming')
      .select(['status', 'error', 'ticket_id', 'message_id', 'sender'])
      .where('mailbox_id', '=', mailboxId)
      .orderBy('id', 'desc')
      .limit(4)
      .execute();
    expect(rows).toEqual(
      Array(4).fill({ status: 'rejected', error: reason, ticket_id: null, message_id: null, sender: null }),
    );
    // Read once: a later round takes none of them again.
    expect((await fetchNow()).outcomes).toEqual([]);
  });

  it("reads a hostile mail in the reader's thread while the API's thread keeps turning, and keeps it as a message", async () => {
    const unclosed = '<p>Hello from the first</p>' + '<div class="x'.repeat(12_500);
    const bare = '<p>Hello from the second</p>' + '<div'.repeat(40_000);
    const quotes = 'Thanks, <b>escaped</b>.\n' + '>\n'.repeat(80_000);
    const onLines = 'Hello from the fourth\n' + `On ${'x'.repeat(150)}\n`.repeat(1_000);
    const subjects = ['unclosed', 'bare', 'quotes', 'on-lines'].map(
      (s) => `Hostile ${s} ${randomBytes(3).toString('hex')}`,
    );
    await dovecot.deliver(rawMail({ from: client.email, subject: subjects[0]!, html: unclosed }).raw);
    await dovecot.deliver(rawMail({ from: client.email, subject: subjects[1]!, html: bare }).raw);
    await dovecot.deliver(rawMail({ from: client.email, subject: subjects[2]!, text: quotes }).raw);
    await dovecot.deliver(rawMail({ from: client.email, subject: subjects[3]!, text: onLines }).raw);

    // The longest the API's thread could not run while the mails were taken. Before issue 31 the first
    // mail alone held it for over 40 s here (the quote's regular expressions, on this thread); now each
    // mail costs it about 100 ms of CPU (the database, the message's hook), which a busy two-core machine
    // stretches to well under a second of the clock. The bound is far from both.
    const delay = monitorEventLoopDelay({ resolution: 10 });
    delay.enable();
    let outcomes;
    try {
      ({ outcomes } = await fetchNow());
    } finally {
      delay.disable();
    }
    expect(outcomes.map((o) => o.kind)).toEqual(['ticket', 'ticket', 'ticket', 'ticket']);
    expect(delay.max / 1e6).toBeLessThan(3_000);
    // The mails were read in a thread of their own.
    expect(readerThreadId()).toBeGreaterThan(threadId);

    const first = async (i: number) => {
      const [message] = await messagesOf((outcomes[i] as { ticketId: number }).ticketId);
      return message!.message as string;
    };
    expect(await first(0)).toBe('<p>Hello from the first</p>');
    expect(await first(1)).toBe('<p>Hello from the second</p>');
    // The `>` lines are the quote, folded; the text's markup stays text.
    const third = await first(2);
    expect(third).toMatch(
      /^<p>Thanks, &lt;b&gt;escaped&lt;\/b&gt;\.<\/p><details><summary>…<\/summary><p>&gt;<br \/>/,
    );
    // "On …" lines that never say "wrote:" are no quote: all text, cut where a message ends, the
    // whole mail attached.
    const fourth = await first(3);
    expect(fourth).toMatch(/^<p>Hello from the fourth<br \/>On x{150}<br \/>/);
    expect(fourth).not.toContain('<details>');
    expect(fourth).toContain(
      "Not kept: the rest of the mail's text, longer than a message keeps; the whole mail is attached as mail.eml.",
    );
    const files = await t.db
      .selectFrom('attachments')
      .select(['name', 'size'])
      .where('message_id', '=', (outcomes[3] as { messageId: number }).messageId)
      .execute();
    expect(files.map((f) => f.name)).toEqual(['mail.eml']);
  }, 180_000);

  it('gives up a mail the reader cannot finish in time, records it as rejected and never reads it again', async () => {
    const before = await ticketCount();
    const subject = `Too slow ${randomBytes(3).toString('hex')}`;
    const pdf = Buffer.concat([Buffer.from('%PDF-1.4\n'), randomBytes(5 * 1024 * 1024)]);
    const uid = await dovecot.deliver(
      rawMail({
        from: client.email,
        subject,
        attachment: { name: 'big.pdf', type: 'application/pdf', content: pdf },
      }).raw,
    );
    // A reader that may take 1 ms: reading 5 MB takes longer, so its thread is ended and replaced.
    const hasty = fetcherOf({ readTimeoutMs: 1 });
    const threadBefore = readerThreadId();
    const { outcomes } = await hasty.fetchMailbox(mailboxId);
    expect(outcomes).toEqual([
      { kind: 'rejected', error: 'Reading the mail took longer than 1 ms; it was given up.' },
    ]);
    expect(readerThreadId()).toBeUndefined();
    const row = await t.db
      .selectFrom('mail_incoming')
      .select(['status', 'error', 'uid', 'ticket_id'])
      .where('mailbox_id', '=', mailboxId)
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(row).toEqual({
      status: 'rejected',
      error: 'Reading the mail took longer than 1 ms; it was given up.',
      uid: expect.anything(),
      ticket_id: null,
    });
    expect(Number(row.uid)).toBe(uid);
    const box = await t.db
      .selectFrom('mailboxes')
      .select('last_uid')
      .where('id', '=', mailboxId)
      .executeTakeFirstOrThrow();
    expect(Number(box.last_uid)).toBe(uid);

    // As after a restart: a new fetcher does not read it again, and the next mail gets a new reader.
    const restarted = fetcherOf();
    expect((await restarted.fetchMailbox(mailboxId)).outcomes).toEqual([]);
    await dovecot.deliver(rawMail({ from: client.email, subject: `After ${subject}` }).raw);
    expect((await restarted.fetchMailbox(mailboxId)).outcomes.map((o) => o.kind)).toEqual(['ticket']);
    expect(readerThreadId()).toBeGreaterThan(threadId);
    expect(readerThreadId()).not.toBe(threadBefore);
    expect(await ticketCount()).toBe(before + 1);
  }, 120_000);

  it('keeps at most MAIL_MAX_ATTACHMENTS files of a mail and names the others as not kept', async () => {
    const attachments = Array.from({ length: 23 }, (_, i) => ({
      name: `note-${i + 1}.txt`,
      type: 'text/plain',
      content: Buffer.from(`note ${i + 1}\n`),
    }));
    // Signed by the client's domain: a verified participant's mail joins the referenced ticket.
    await dovecot.deliver(
      await signed(
        rawMail({
          from: client.email,
          subject: `[${ticket.reference}] many files`,
          text: 'All notes.',
          attachments,
        }).raw,
      ),
    );
    const [outcome] = (await fetchNow()).outcomes;
    expect(outcome?.kind).toBe('message');
    const messageId = (outcome as { messageId: number }).messageId;
    const files = await t.db
      .selectFrom('attachments')
      .select('name')
      .where('message_id', '=', messageId)
      .orderBy('id')
      .execute();
    expect(files.map((f) => f.name)).toEqual(attachments.slice(0, 20).map((a) => a.name));
    const message = await t.db
      .selectFrom('messages')
      .select('message')
      .where('id', '=', messageId)
      .executeTakeFirstOrThrow();
    expect(message.message).toBe(
      '<p>All notes.</p><p><em>' +
        [21, 22, 23]
          .map((n) => `Not kept: note-${n}.txt: a mail keeps at most 20 attachments.`)
          .join('<br />') +
        '</em></p>',
    );
    expect(t.config.mailMaxAttachments).toBe(20);
  });
});
