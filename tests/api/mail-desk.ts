/**
 * The desk the incoming-mail trust tests share (issue 31, items 2 and 3): a real Dovecot mailbox, a
 * real SMTP server on loopback for our outgoing mail, and a real DNS server on loopback
 * (tests/api/dkim.ts) that publishes the test's own DKIM keys for the demo clients' domain
 * (example.com), an attacker's (attacker.example) and a partner's (partner.example); the app asks it
 * through its own setting MAIL_DNS_SERVERS. The mailbox names its receiving server `mx.desk.example`.
 */
import { expect } from 'vitest';
import { buildTestApp, type Target, type TestApp } from './harness.ts';
import { startDovecot, type Dovecot } from './dovecot.ts';
import { startSmtp, type LoopbackSmtp } from './smtp.ts';
import { dkimKey, signMail, startTestDns, type DkimKey, type TestDns } from './dkim.ts';
import { backOffice, type BackOffice } from './back-office.ts';
import type { Outcome } from '../../server/mail/inbound/process.ts';
import { UNKNOWN_SENDER_GROUP } from '../../server/mail/inbound/unknown-sender.ts';

/** What the limited operator of `BackOffice` lacks. */
export const SENDER_PERMISSIONS = ['tenant.messages.confirm-sender', 'tenant.messages.reject-sender'];

export interface MailDesk {
  t: TestApp;
  b: BackOffice;
  smtp: LoopbackSmtp;
  keys: { client: DkimKey; attacker: DkimKey; partner: DkimKey };
  mailboxId: number;
  client: { id: number; email: string; companyId: number };
  /** The demo client's first ticket. */
  ticket: { id: number; reference: string };
  messagesOf(ticketId: number): Promise<Record<string, any>[]>;
  ticketRow(id: number): Promise<Record<string, any>>;
  messageRow(id: number): Promise<Record<string, any>>;
  /** Delivers one mail to the mailbox and fetches it: its outcome. */
  receive(raw: string): Promise<Outcome>;
  /** The ids of the ticket's messages the client's portal shows. */
  portalThread(ticketId: number): Promise<number[]>;
  /** An operator's message mailed to the ticket's client (extra fields: cc, …): the mail received. */
  mailToClient(text: string, extra?: Record<string, unknown>): ReturnType<LoopbackSmtp['next']>;
  /** The raw mail with the demo client's domain's DKIM signature. */
  signed(raw: string): Promise<string>;
  /** The tenant's 'unknown sender' ticket group. */
  unknownGroup(): Promise<number>;
  close(): Promise<void>;
}

export async function startMailDesk(target: Target): Promise<MailDesk> {
  const dns: TestDns = await startTestDns();
  const keys = {
    client: dkimKey('example.com', 'desk2026'),
    attacker: dkimKey('attacker.example', 'evil'),
    partner: dkimKey('partner.example', 'p1'),
  };
  for (const key of Object.values(keys)) dns.publish(key.record.name, key.record.text);
  const dovecot: Dovecot = await startDovecot();
  const smtp = await startSmtp();
  const t = await buildTestApp(target, {
    config: {
      smtpUrl: smtp.url,
      mailFetchMs: 0,
      mailFrom: 'Desk <desk@desk.example>',
      mailDnsServers: [dns.server],
    },
  });
  const b = await backOffice(t, SENDER_PERMISSIONS);
  const user = await t.db
    .selectFrom('users')
    .select(['id', 'email'])
    .where('email', '=', 'client@example.com')
    .executeTakeFirstOrThrow();
  const client = { id: Number(user.id), email: String(user.email), companyId: b.ownCompanyId };
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
    headers: b.admin,
    payload: {
      name: 'Support',
      host: dovecot.host,
      port: dovecot.port,
      tls: false,
      username: dovecot.user,
      password: dovecot.password,
      active: true,
      reply_to: 'support@desk.example',
      authserv_id: 'mx.desk.example',
    },
  });
  expect(created.statusCode, created.body).toBe(201);
  const mailboxId = Number(created.json().id);

  return {
    t,
    b,
    smtp,
    keys,
    mailboxId,
    client,
    ticket,
    messagesOf: (ticketId) =>
      t.db
        .selectFrom('messages')
        .selectAll()
        .where('morphable_type', '=', 'ticket')
        .where('morphable_id', '=', ticketId)
        .orderBy('id')
        .execute(),
    ticketRow: (id) => t.db.selectFrom('tickets').selectAll().where('id', '=', id).executeTakeFirstOrThrow(),
    messageRow: (id) =>
      t.db.selectFrom('messages').selectAll().where('id', '=', id).executeTakeFirstOrThrow(),
    async receive(raw) {
      await dovecot.deliver(raw);
      const { outcomes } = await t.app.mailFetcher.fetchMailbox(mailboxId);
      expect(outcomes).toHaveLength(1);
      return outcomes[0]!;
    },
    async portalThread(ticketId) {
      const answer = await t.app.inject({
        method: 'GET',
        url:
          `/api/messages?builder[0][where][0]=morphable_type&builder[0][where][1]=ticket` +
          `&builder[1][where][0]=morphable_id&builder[1][where][1]=${ticketId}&builder[2][paginate]=100`,
        headers: b.client,
      });
      expect(answer.statusCode, answer.body).toBe(200);
      return answer.json().data.map((m: { id: number }) => Number(m.id)) as number[];
    },
    async mailToClient(text, extra = {}) {
      const before = smtp.received.length;
      const sent = await t.app.inject({
        method: 'POST',
        url: '/api/messages',
        headers: b.admin,
        payload: {
          morphable_type: 'ticket',
          morphable_id: ticket.id,
          message: `<p>${text}</p>`,
          visible_to_client: true,
          send_to_client: true,
          ...extra,
        },
      });
      expect(sent.statusCode, sent.body).toBe(201);
      return smtp.next(before);
    },
    signed: (raw) => signMail(raw, keys.client),
    async unknownGroup() {
      const setting = await t.db
        .selectFrom('tenant_configs')
        .select('value')
        .where('tenant_id', '=', b.tenantId)
        .where('name', '=', UNKNOWN_SENDER_GROUP)
        .executeTakeFirstOrThrow();
      return Number(setting.value);
    },
    async close() {
      await t.close();
      await dovecot.close();
      await smtp.close();
      await dns.close();
    },
  };
}
