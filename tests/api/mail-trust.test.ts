/**
 * Issue 31, items 2 and 3, end to end: real Dovecot, real SMTP on loopback, and a real DNS server on
 * loopback (tests/api/dkim.ts) that publishes the test's own DKIM key for the demo clients' domain
 * (example.com) and an attacker's for attacker.example; the app asks it through MAIL_DNS_SERVERS.
 *
 * - a forged From of a known client opens no ticket in the client's company, and its message is held
 *   (unverified, not visible to the client);
 * - a forged reply (our token, but no proof of the sender) joins the ticket but is not the client's
 *   message and the client does not see it;
 * - a subject reference, or a thread's plain Message-ID, from an outsider (even a verified one) opens a
 *   new ticket and adds nothing to the referenced one; a tampered token too;
 * - a real reply (our token in In-Reply-To or only in References, DKIM-signed) joins as the client's;
 *   a DKIM-verified participant without a token joins; a verified client of another company does not;
 *
 * What operators do with a held mail: tests/api/mail-held.test.ts; the shared desk: tests/api/mail-desk.ts.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { targets } from './harness.ts';
import { hasDovecot, rawMail } from './dovecot.ts';
import { signMail } from './dkim.ts';
import { startMailDesk, type MailDesk } from './mail-desk.ts';

const TOKEN_ID = /^<t\.(\d+)\.[0-9a-f]{10}\.\d+\.[0-9a-f]{20}\.[0-9a-f]{16}@desk\.example>$/;

describe.skipIf(!hasDovecot()).each(targets)('who may write into a ticket by mail, on $name', (target) => {
  let d: MailDesk;
  beforeAll(async () => {
    d = await startMailDesk(target);
  }, 120_000);
  afterAll(async () => {
    await d?.close();
  });

  it("opens no ticket in the client's company on a forged From, and holds its message from the client", async () => {
    const subject = `Urgent: new bank account ${randomBytes(3).toString('hex')}`;
    const outcome = await d.receive(
      rawMail({ from: `Client <${d.client.email}>`, subject, text: 'Pay here.' }).raw,
    );
    expect(outcome.kind).toBe('ticket');
    const opened = await d.ticketRow((outcome as { ticketId: number }).ticketId);
    expect(opened.client_id).toBeNull();
    expect(opened.company_id).toBeNull();
    expect(Number(opened.ticket_group_id)).toBe(await d.unknownGroup());
    const [first] = await d.messagesOf(Number(opened.id));
    expect(first).toMatchObject({
      sender_check: 'unverified',
      visible_to_client: false,
      actor_id: null,
      original_email_from: d.client.email,
    });
    expect(first!.sender_check_note).toBe('no DKIM signature');
    // The client sees no such ticket.
    const shown = await d.t.app.inject({
      method: 'GET',
      url: `/api/tickets/${opened.id}`,
      headers: d.b.client,
    });
    expect(shown.statusCode).toBe(404);

    // Signed, but by the attacker's own domain: still not the client.
    const other = await d.receive(
      await signMail(rawMail({ from: d.client.email, subject: `${subject} (2)` }).raw, d.keys.attacker),
    );
    const second = await d.ticketRow((other as { ticketId: number }).ticketId);
    expect(second.company_id).toBeNull();
    const [message] = await d.messagesOf(Number(second.id));
    expect(message!.sender_check).toBe('unverified');
    expect(message!.sender_check_note).toContain('d=attacker.example (not aligned)');
  });

  it("opens a verified client's new mail as their own ticket in their company", async () => {
    const subject = `Signed new laptop ${randomBytes(3).toString('hex')}`;
    const outcome = await d.receive(await d.signed(rawMail({ from: d.client.email, subject }).raw));
    expect(outcome.kind).toBe('ticket');
    const opened = await d.ticketRow((outcome as { ticketId: number }).ticketId);
    const [first] = await d.messagesOf(Number(opened.id));
    // The check's own note says why, if the mail was not read as the client's (once seen on PGlite only).
    expect(Number(opened.client_id), first?.sender_check_note ?? 'no message').toBe(d.client.id);
    expect(opened.company_id).not.toBeNull();
    expect(first).toMatchObject({ sender_check: 'verified', visible_to_client: true, is_from_client: true });
    expect(Number(first!.actor_id)).toBe(d.client.id);
  });

  it('sends ticket mail with a signed reply token as its Message-ID, per ticket', async () => {
    const mail = await d.mailToClient('Token please');
    expect(mail.messageId).toMatch(TOKEN_ID);
    expect(TOKEN_ID.exec(mail.messageId!)![1]).toBe(String(d.ticket.id));
    const again = await d.mailToClient('Another one');
    expect(again.messageId).not.toBe(mail.messageId);
    expect(again.inReplyTo).toBe(mail.messageId);
  });

  it('joins a real reply by its token, as the client, and a reply with the token only in References', async () => {
    const mail = await d.mailToClient('Did that help?');
    const reply = rawMail({
      from: `Client <${d.client.email}>`,
      subject: 'Re: your answer',
      text: 'Yes, thanks.',
      headers: { 'In-Reply-To': mail.messageId!, References: mail.messageId! },
    });
    const outcome = await d.receive(await d.signed(reply.raw));
    expect(outcome).toEqual({ kind: 'message', ticketId: d.ticket.id, messageId: expect.any(Number) });
    const joined = await d.messageRow((outcome as { messageId: number }).messageId);
    expect(joined).toMatchObject({ sender_check: 'verified', is_from_client: true, visible_to_client: true });
    expect(Number(joined.actor_id)).toBe(d.client.id);
    expect(await d.portalThread(d.ticket.id)).toContain(Number(joined.id));

    const onlyReferences = rawMail({
      from: d.client.email,
      subject: 'Another thing',
      headers: { References: `<unrelated@client.example> ${mail.messageId}` },
    });
    const second = await d.receive(await d.signed(onlyReferences.raw));
    expect(second).toMatchObject({ kind: 'message', ticketId: d.ticket.id });
  });

  it("holds a forged reply: our token, but the sender unproven, is not the client's message", async () => {
    const mail = await d.mailToClient('Your invoice');
    const forged = rawMail({
      from: `Client <${d.client.email}>`,
      subject: 'Re: Your invoice',
      text: 'Please pay to our new account NL00 EVIL 0000 0000 00 instead.',
      headers: { 'In-Reply-To': mail.messageId! },
    });
    const outcome = await d.receive(forged.raw);
    expect(outcome).toEqual({ kind: 'message', ticketId: d.ticket.id, messageId: expect.any(Number) });
    const held = await d.messageRow((outcome as { messageId: number }).messageId);
    expect(held).toMatchObject({ sender_check: 'unverified', visible_to_client: false, actor_id: null });
    expect(await d.portalThread(d.ticket.id)).not.toContain(Number(held.id));
  });

  it('opens a new ticket for a subject reference from an outsider, verified or not, and adds nothing to the referenced one', async () => {
    const before = (await d.messagesOf(d.ticket.id)).length;
    const plain = await d.receive(
      rawMail({
        from: 'billing@attacker.example',
        subject: `[${d.ticket.reference}] payment link`,
        text: 'https://pay.attacker.example/',
      }).raw,
    );
    expect(plain.kind).toBe('ticket');
    expect((plain as { ticketId: number }).ticketId).not.toBe(d.ticket.id);
    const verified = await d.receive(
      await signMail(
        rawMail({ from: 'billing@attacker.example', subject: `Re: [${d.ticket.reference}] again` }).raw,
        d.keys.attacker,
      ),
    );
    expect(verified.kind).toBe('ticket');
    const opened = await d.ticketRow((verified as { ticketId: number }).ticketId);
    expect(opened.client_id).toBeNull();
    expect(Number(opened.ticket_group_id)).toBe(await d.unknownGroup());
    // A forged From of the client with the reference: a new ticket too, outside the client's company.
    const forged = await d.receive(
      rawMail({ from: d.client.email, subject: `[${d.ticket.reference}] update` }).raw,
    );
    expect(forged.kind).toBe('ticket');
    expect((await d.ticketRow((forged as { ticketId: number }).ticketId)).company_id).toBeNull();
    // A thread's Message-ID that is no token of ours (the client's own earlier mail) proves nothing either.
    const [clientMail] = await d.t.db
      .selectFrom('messages')
      .select('mail_message_id')
      .where('morphable_id', '=', d.ticket.id)
      .where('is_from_client', '=', true)
      .where('mail_message_id', 'is not', null)
      .execute();
    const threaded = await d.receive(
      rawMail({
        from: 'billing@attacker.example',
        subject: 'Re: hello',
        headers: { 'In-Reply-To': String(clientMail!.mail_message_id) },
      }).raw,
    );
    expect(threaded.kind).toBe('ticket');
    expect(await d.messagesOf(d.ticket.id)).toHaveLength(before);
  });

  it('refuses a tampered or foreign token', async () => {
    const mail = await d.mailToClient('Tamper with me');
    const [, id] = TOKEN_ID.exec(mail.messageId!)!;
    const other = await d.t.db
      .selectFrom('tickets')
      .select('id')
      .where('id', '<>', d.ticket.id)
      .where('is_template', '=', false)
      .orderBy('id')
      .executeTakeFirstOrThrow();
    // The same token moved to another ticket, and one with its signature changed.
    const moved = mail.messageId!.replace(`<t.${id}.`, `<t.${other.id}.`);
    const flipped = mail.messageId!.replace(
      /\.([0-9a-f])([0-9a-f]{19})\./,
      (_, c: string, rest: string) => `.${c === '0' ? '1' : '0'}${rest}.`,
    );
    const before = (await d.messagesOf(Number(other.id))).length;
    for (const forged of [moved, flipped]) {
      const outcome = await d.receive(
        rawMail({ from: 'billing@attacker.example', subject: 'Re: hi', headers: { 'In-Reply-To': forged } })
          .raw,
      );
      expect(outcome.kind).toBe('ticket');
      expect([d.ticket.id, Number(other.id)]).not.toContain((outcome as { ticketId: number }).ticketId);
    }
    expect(await d.messagesOf(Number(other.id))).toHaveLength(before);
  });

  it("joins a verified participant's mail without a token; a verified client of another company opens a new ticket", async () => {
    const outcome = await d.receive(
      await d.signed(
        rawMail({ from: d.client.email, subject: `[${d.ticket.reference}] one more question` }).raw,
      ),
    );
    expect(outcome).toMatchObject({ kind: 'message', ticketId: d.ticket.id });
    const joined = await d.messageRow((outcome as { messageId: number }).messageId);
    expect(Number(joined.actor_id)).toBe(d.client.id);
    expect(joined.visible_to_client).toBe(true);

    const stranger = await d.receive(
      await d.signed(
        rawMail({ from: 'other@example.com', subject: `[${d.ticket.reference}] let me in` }).raw,
      ),
    );
    expect(stranger.kind).toBe('ticket');
    expect((stranger as { ticketId: number }).ticketId).not.toBe(d.ticket.id);

    // A cc our mail on the ticket went to, verified: the client sees what they write.
    const cc = await d.t.app.inject({
      method: 'POST',
      url: '/api/messages',
      headers: d.b.admin,
      payload: {
        morphable_type: 'ticket',
        morphable_id: d.ticket.id,
        message: '<p>Copying our partner.</p>',
        visible_to_client: true,
        send_to_client: true,
        cc: ['Help@Partner.example'],
      },
    });
    expect(cc.statusCode, cc.body).toBe(201);
    const partnerMail = () =>
      rawMail({ from: 'help@partner.example', subject: `[${d.ticket.reference}] partner here` }).raw;
    const partner = await d.receive(await signMail(partnerMail(), d.keys.partner));
    expect(partner).toMatchObject({ kind: 'message', ticketId: d.ticket.id });
    const partnerMessage = await d.messageRow((partner as { messageId: number }).messageId);
    expect(partnerMessage).toMatchObject({
      sender_check: 'verified',
      is_from_client: true,
      visible_to_client: true,
    });
    // The same address unproven is no participant: a new ticket.
    expect((await d.receive(partnerMail())).kind).toBe('ticket');

    // An operator of the tenant, verified, writes an internal note on the ticket.
    const note = await d.receive(
      await d.signed(
        rawMail({ from: 'operator@example.com', subject: `[${d.ticket.reference}] checked` }).raw,
      ),
    );
    expect(note).toMatchObject({ kind: 'message', ticketId: d.ticket.id });
    const operator = await d.t.db
      .selectFrom('users')
      .select('id')
      .where('email', '=', 'operator@example.com')
      .executeTakeFirstOrThrow();
    expect(await d.messageRow((note as { messageId: number }).messageId)).toMatchObject({
      is_from_client: false,
      visible_to_client: false,
      actor_id: operator.id,
    });
  });

  it('fires a mail-received trigger on the ticket a mail lands in, and only when its conditions hold', async () => {
    const marker = `Printer jam ${randomBytes(3).toString('hex')}`;
    const note = `Read by the mail rule ${marker}`;
    const created = await d.t.app.inject({
      method: 'POST',
      url: '/api/automation-rules',
      headers: d.b.admin,
      payload: {
        name: `Mail rule ${marker}`,
        kind: 'trigger',
        event: 'mail_received',
        conditions: [{ where: ['description', 'like', marker] }],
        actions: [{ type: 'note', body: note }],
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    const ruleId = Number(created.json().id);
    try {
      const outcome = await d.receive(await d.signed(rawMail({ from: d.client.email, subject: marker }).raw));
      const ticketId = (outcome as { ticketId: number }).ticketId;
      const thread = await d.messagesOf(ticketId);
      expect(thread.map((m) => String(m.message))).toEqual(
        expect.arrayContaining([expect.stringContaining(note)]),
      );
      const runs = await d.t.db
        .selectFrom('automation_runs')
        .select(['ticket_id', 'outcome', 'event'])
        .where('rule_id', '=', ruleId)
        .execute();
      expect(runs).toEqual([{ ticket_id: ticketId, outcome: 'applied', event: 'mail_received' }]);
      // A mail that does not meet the conditions leaves the rule alone.
      await d.receive(await d.signed(rawMail({ from: d.client.email, subject: 'Something else' }).raw));
      const after = await d.t.db
        .selectFrom('automation_runs')
        .select('id')
        .where('rule_id', '=', ruleId)
        .execute();
      expect(after).toHaveLength(1);
    } finally {
      await d.t.app.inject({ method: 'DELETE', url: `/api/automation-rules/${ruleId}`, headers: d.b.admin });
    }
  });
});
