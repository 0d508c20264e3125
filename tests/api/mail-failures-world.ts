/**
 * Set-up shared by tests/api/mail-failures-list.test.ts and tests/api/mail-failures-retry.test.ts: an app
 * whose outbox gives a mail up after its second attempt, sending to a loopback SMTP server that can be
 * told to refuse, a role without tenant.mail-outbox.retry, and an operator's message whose mail is given up.
 */
import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import { backOffice, type BackOffice } from './back-office.ts';
import { buildTestApp, type Target, type TestApp } from './harness.ts';
import { waitFor } from './processes.ts';
import { startSmtp, type LoopbackSmtp } from './smtp.ts';

export interface FailedMailWorld {
  t: TestApp;
  smtp: LoopbackSmtp;
  b: BackOffice;
  /** A GET or POST (with an empty body) as these headers. */
  call(method: 'GET' | 'POST', url: string, headers: Record<string, string>): Promise<LightMyRequestResponse>;
  /** An operator's message to the client whose mail the refusing server makes the outbox give up. */
  givenUpMessage(text: string): Promise<{ messageId: number; outboxId: number }>;
  /** The message as an operator reads it. */
  messageOf(id: number): Promise<{ mail_error: string | null; recipients: unknown }>;
  close(): Promise<void>;
}

export async function failedMailWorld(target: Target): Promise<FailedMailWorld> {
  const smtp = await startSmtp();
  let t: TestApp | undefined;
  try {
    // A mail is given up after its second attempt, a tenth of a second after the first.
    t = await buildTestApp(target, {
      config: { smtpUrl: smtp.url, mailRetryBaseMs: 100, mailRetryMaxMs: 200, mailMaxAttempts: 2 },
    });
    return await world(t, smtp);
  } catch (e) {
    await t?.close();
    await smtp.close();
    throw e;
  }
}

async function world(t: TestApp, smtp: LoopbackSmtp): Promise<FailedMailWorld> {
  const b = await backOffice(t, ['tenant.mail-outbox.retry']);
  const ticket = await t.db
    .selectFrom('tickets as t')
    .innerJoin('users as u', 'u.id', 't.client_id')
    .select('t.id')
    .where('u.email', '=', 'client@example.com')
    .where('t.is_template', '=', false)
    .orderBy('t.id')
    .executeTakeFirstOrThrow();
  const ticketId = Number(ticket.id);

  const call = (method: 'GET' | 'POST', url: string, headers: Record<string, string>) =>
    t.app.inject({ method, url, headers, ...(method === 'POST' && { payload: {} }) });

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

  const close = async () => {
    await t.close();
    await smtp.close();
  };
  return { t, smtp, b, call, givenUpMessage, messageOf, close };
}
