/**
 * The desk the incoming-mail tests share (tests/api/mail-in-threads.test.ts and
 * tests/api/mail-in-fetcher.test.ts): a real Dovecot started by the test (tests/api/dovecot.ts), a real
 * SMTP server on loopback for our outgoing mail, and a test DNS server (tests/api/dkim.ts) that
 * publishes the demo clients' domain's DKIM key, since that domain signs its mail (issue 31). One
 * mailbox, 'Support', reads the Dovecot account; the demo client and her first ticket are looked up.
 */
import { expect } from 'vitest';
import { buildTestApp, type Target, type TestApp } from './harness.ts';
import { startDovecot } from './dovecot.ts';
import { startSmtp } from './smtp.ts';
import { dkimKey, signMail, startTestDns } from './dkim.ts';
import { MailFetcher } from '../../server/mail/inbound/fetcher.ts';
import { fileStoreFor } from '../../server/files/store.ts';
import { registry } from '../../server/schema/registry.ts';
import type { InboundDeps } from '../../server/mail/inbound/deps.ts';

export const REPLY_TO = 'support@desk.example';

export type MailInDesk = Awaited<ReturnType<typeof startMailInDesk>>;

export async function startMailInDesk(target: Target) {
  const dns = await startTestDns();
  const clientKey = dkimKey('example.com');
  dns.publish(clientKey.record.name, clientKey.record.text);
  const dovecot = await startDovecot();
  const smtp = await startSmtp();
  const t = await buildTestApp(target, {
    config: {
      smtpUrl: smtp.url,
      mailFetchMs: 0,
      mailFrom: 'Desk <desk@desk.example>',
      mailDnsServers: [dns.server],
    },
  });
  const admin = await t.as('admin@example.com');
  const user = await t.db
    .selectFrom('users')
    .select(['id', 'email'])
    .where('email', '=', 'client@example.com')
    .executeTakeFirstOrThrow();
  const client = { id: Number(user.id), email: String(user.email) };
  const row = await t.db
    .selectFrom('tickets')
    .select(['id', 'reference'])
    .where('client_id', '=', client.id)
    .where('is_template', '=', false)
    .orderBy('id')
    .executeTakeFirstOrThrow();
  const ticket = { id: Number(row.id), reference: String(row.reference) };
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
  const mailboxId: number = created.json().id;

  return {
    t,
    dovecot,
    smtp,
    admin,
    mailboxId,
    client,
    ticket,
    signed: (raw: string) => signMail(raw, clientKey),
    fetchNow: () => t.app.mailFetcher.fetchMailbox(mailboxId),
    /** Another fetcher in this process, as the app's own is made (plugin.ts), with `changes` over it. */
    fetcherOf: (changes: Partial<InboundDeps> = {}, settings: Partial<TestApp['config']> = {}) =>
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
      ),
    messagesOf: (ticketId: number) =>
      t.db
        .selectFrom('messages')
        .selectAll()
        .where('morphable_type', '=', 'ticket')
        .where('morphable_id', '=', ticketId)
        .orderBy('id')
        .execute(),
    async close() {
      await t.close();
      await dovecot.close();
      await smtp.close();
      await dns.close();
    },
  };
}
