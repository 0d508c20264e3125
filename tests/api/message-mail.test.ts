/**
 * Mail out (issue 5, item 6): an operator's message with send_to_client goes through the mailer to
 * `to` (by default the ticket's client), cc and bcc, with its attachments and inline images, and the
 * recipients are recorded on the message. Read back from a real SMTP server on loopback.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoPdf, demoPng } from '../../server/db/seed/demo-files.ts';
import { buildTestApp, targets, type TestApp } from './harness.ts';
import { multipart, type FormFile } from './multipart.ts';
import { recipients, startSmtp, type LoopbackSmtp, type ParsedMail } from './smtp.ts';
import { waitFor } from './processes.ts';
import { MAIL_RETRYING } from '../../server/resources/messages/actions.ts';

interface MailWithParts extends ParsedMail {
  cc?: { text: string };
  attachments?: {
    filename?: string;
    contentType: string;
    content: Buffer;
    cid?: string;
    related?: boolean;
  }[];
}

const PDF = demoPdf(['Werkbon 12']);
const PNG = demoPng(16, 16, [[0, 128, 0]]);

describe.each(targets)('message mail on $name', (target) => {
  let t: TestApp;
  let smtp: LoopbackSmtp;
  let admin: Record<string, string>;
  let client: Record<string, string>;
  let ticket: { id: number; reference: string; description: string };
  let clientUser: { id: number; email: string };

  const post = (headers: Record<string, string>, fields: [string, string][], files: FormFile[] = []) => {
    const form = multipart(fields, files);
    return t.app.inject({
      method: 'POST',
      url: '/api/messages',
      payload: form.payload,
      headers: { ...headers, ...form.headers },
    });
  };

  beforeAll(async () => {
    smtp = await startSmtp();
    // Retries a fifth of a second apart: the refused mail below goes out once the server accepts.
    t = await buildTestApp(target, {
      config: { smtpUrl: smtp.url, mailRetryBaseMs: 200, mailRetryMaxMs: 400 },
    });
    admin = await t.as('admin@example.com');
    client = await t.as('client@example.com');
    const user = await t.db
      .selectFrom('users')
      .select(['id', 'email'])
      .where('email', '=', 'client@example.com')
      .executeTakeFirstOrThrow();
    clientUser = { id: Number(user.id), email: String(user.email) };
    const row = await t.db
      .selectFrom('tickets')
      .select(['id', 'reference', 'description'])
      .where('client_id', '=', clientUser.id)
      .where('is_template', '=', false)
      .orderBy('id')
      .executeTakeFirstOrThrow();
    ticket = { id: Number(row.id), reference: String(row.reference), description: String(row.description) };
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  it("mails the ticket's client with the files and the inline image, and records the recipients", async () => {
    const form = multipart([['is_embedded', '1']], [{ field: 'file', name: 'scherm.png', content: PNG }]);
    const image = await t.app.inject({
      method: 'POST',
      url: '/api/attachments',
      payload: form.payload,
      headers: { ...admin, ...form.headers },
    });
    expect(image.statusCode, image.body).toBe(201);

    const count = smtp.received.length;
    const res = await post(
      admin,
      [
        ['morphable_type', 'ticket'],
        ['morphable_id', String(ticket.id)],
        [
          'message',
          `<p>Beste Pieter,</p><p>Zie bijlage &amp; afbeelding:</p><p><img src="${image.json().url}"></p>`,
        ],
        ['send_to_client', '1'],
        ['cc[]', 'manager@example.org'],
        ['bcc[]', 'archief@example.org'],
      ],
      [{ field: 'file[0]', name: 'werkbon.pdf', content: PDF }],
    );
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().mail_error).toBeNull();
    expect(res.json().visible_to_client).toBe(true);
    expect(res.json().to).toEqual([clientUser.email]);

    const mail = (await smtp.next(count)) as MailWithParts;
    expect(recipients(mail)).toBe(clientUser.email);
    expect(mail.cc?.text).toBe('manager@example.org');
    expect(mail.subject).toBe(`[${ticket.reference}] ${ticket.description}`);
    expect(mail.text).toContain('Zie bijlage & afbeelding:');
    const html = String(mail.html);
    // mailparser turns a cid: image it found among the parts into a data: URL: the link held.
    expect(html).toMatch(/<img src="data:image\/png;base64,/);
    expect(html).not.toContain('/api/attachments/');
    const pdf = mail.attachments?.find((a) => a.filename === 'werkbon.pdf');
    expect(pdf?.contentType).toBe('application/pdf');
    expect(pdf?.content.equals(PDF)).toBe(true);
    const inline = mail.attachments?.find((a) => a.filename === 'scherm.png');
    expect(inline?.cid).toMatch(/^attachment-\d+@service-desk$/);
    expect(inline?.content.equals(PNG)).toBe(true);

    const stored = await t.app.inject({
      method: 'GET',
      url: `/api/messages/${res.json().id}`,
      headers: admin,
    });
    expect(stored.json().recipients).toEqual([
      {
        address: clientUser.email,
        isClient: true,
        user: clientUser.id,
        kind: 'to',
        gravatar: expect.any(String),
      },
      {
        address: 'manager@example.org',
        isClient: false,
        user: null,
        kind: 'cc',
        gravatar: expect.any(String),
      },
      {
        address: 'archief@example.org',
        isClient: false,
        user: null,
        kind: 'bcc',
        gravatar: expect.any(String),
      },
    ]);
    const asClient = await t.app.inject({
      method: 'GET',
      url: `/api/messages/${res.json().id}`,
      headers: client,
    });
    expect(asClient.statusCode).toBe(200);
    expect(asClient.json()).not.toHaveProperty('recipients');
    expect(asClient.json()).not.toHaveProperty('bcc');
  });

  it('keeps the message, says so in mail_error when the mail server refuses it, and sends it once it accepts', async () => {
    smtp.refusing = true;
    const before = smtp.received.length;
    const text = `Niet te bezorgen ${Date.now()}`;
    let id: number;
    try {
      const res = await post(admin, [
        ['message', `<p>${text}</p>`],
        ['morphable_type', 'ticket'],
        ['morphable_id', String(ticket.id)],
        ['send_to_client', '1'],
      ]);
      expect(res.statusCode, res.body).toBe(201);
      const body = res.json();
      id = body.id;
      expect(body.mail_error).toBe(MAIL_RETRYING);
      expect(body.message).toContain(text);
      // Stored, with no recipients recorded: nobody received it.
      const stored = await t.db
        .selectFrom('messages')
        .select(['message', 'recipients'])
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
      expect(stored.message).toContain(text);
      expect(stored.recipients).toEqual([]);
      expect(smtp.received.length).toBe(before);
    } finally {
      smtp.refusing = false;
    }
    // The outbox tries again: the mail arrives once, and the recipients are recorded then.
    const mail = await smtp.next(before);
    expect(mail.html).toContain(text);
    const recorded = await waitFor('the recipients recorded', async () => {
      const row = await t.db
        .selectFrom('messages')
        .select('recipients')
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
      return (row.recipients as unknown[]).length > 0 && row.recipients;
    });
    expect(recorded).toEqual([
      { address: clientUser.email, isClient: true, user: clientUser.id, kind: 'to' },
    ]);
    const outbox = await t.db
      .selectFrom('mail_outbox')
      .select(['status', 'attempts', 'mail'])
      .where('source', '=', 'messages')
      .where('source_id', '=', id)
      .executeTakeFirstOrThrow();
    expect(outbox.status).toBe('sent');
    expect(outbox.attempts).toBeGreaterThan(1);
    // Sent: the body (which may hold links) is not kept.
    expect(outbox.mail).toBeNull();
    expect(smtp.received.filter((m) => m.html && m.html.includes(text))).toHaveLength(1);
  });

  it('sends to the addresses given in to instead of the default', async () => {
    const count = smtp.received.length;
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/messages',
      headers: admin,
      payload: {
        morphable_type: 'ticket',
        morphable_id: ticket.id,
        message: '<p>Kort bericht</p>',
        description: 'Uw storing',
        send_to_client: true,
        to: ['pieter.prive@example.net'],
      },
    });
    expect(res.statusCode, res.body).toBe(201);
    const mail = await smtp.next(count);
    expect(recipients(mail)).toBe('pieter.prive@example.net');
    expect(mail.subject).toBe(`[${ticket.reference}] Uw storing`);
  });

  it('refuses a message that cannot reach anyone, bad addresses, and a hidden message sent out', async () => {
    const company = await t.db.selectFrom('companies').select('id').orderBy('id').executeTakeFirstOrThrow();
    const count = smtp.received.length;
    const none = await t.app.inject({
      method: 'POST',
      url: '/api/messages',
      headers: admin,
      payload: { morphable_type: 'company', morphable_id: company.id, message: 'x', send_to_client: true },
    });
    expect(none.statusCode).toBe(422);
    expect(none.json().errors.to).toEqual([
      'The message has no recipient: the record has no client e-mail address, so give one in to.',
    ]);
    const bad = await t.app.inject({
      method: 'POST',
      url: '/api/messages',
      headers: admin,
      payload: {
        morphable_type: 'ticket',
        morphable_id: ticket.id,
        message: 'x',
        send_to_client: true,
        cc: ['Evil <a@b.c>\r\nBcc: x@y.z'],
      },
    });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors['cc.0']).toEqual(['The cc.0 must be a valid e-mail address.']);
    const hidden = await t.app.inject({
      method: 'POST',
      url: '/api/messages',
      headers: admin,
      payload: {
        morphable_type: 'ticket',
        morphable_id: ticket.id,
        message: 'x',
        send_to_client: true,
        visible_to_client: false,
      },
    });
    expect(hidden.statusCode).toBe(422);
    const unsentBad = await t.app.inject({
      method: 'POST',
      url: '/api/messages',
      headers: admin,
      payload: { morphable_type: 'ticket', morphable_id: ticket.id, message: 'x', to: ['not an address'] },
    });
    expect(unsentBad.statusCode).toBe(422);
    expect(unsentBad.json().errors['to.0']).toEqual(['The to.0 must be a valid e-mail address.']);
    // An internal note is never mailed.
    const note = await t.app.inject({
      method: 'POST',
      url: '/api/messages',
      headers: admin,
      payload: { morphable_type: 'ticket', morphable_id: ticket.id, message: 'intern' },
    });
    expect(note.statusCode).toBe(201);
    expect(note.json().recipients).toEqual([]);
    await new Promise((r) => setTimeout(r, 200));
    expect(smtp.received.length).toBe(count);
  });
});
