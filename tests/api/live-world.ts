/**
 * The desk the notification and live-stream tests share (tests/api/live-notifications.test.ts and
 * tests/api/live-streams.test.ts): an app listening on a loopback port with a short heartbeat and no
 * deadline timer of its own, its mail going to a loopback SMTP server; the demo's users signed in, and
 * the first tickets of the demo client's company and of the other client's.
 */
import type { AddressInfo } from 'node:net';
import { expect } from 'vitest';
import { buildTestApp, firstClientTicketId, type Target } from './harness.ts';
import { startSmtp } from './smtp.ts';
import { openEvents, type SseStream } from './sse.ts';

export type Headers = Record<string, string>;

export type LiveDesk = Awaited<ReturnType<typeof startLiveDesk>>;

/** The body of a message on ticket `ticketId`. */
export const message = (ticketId: number, text: string, extra: Record<string, unknown> = {}) => ({
  message: `<p>${text}</p>`,
  morphable_type: 'ticket',
  morphable_id: ticketId,
  ...extra,
});

export async function startLiveDesk(target: Target) {
  const smtp = await startSmtp();
  const t = await buildTestApp(target, {
    config: { smtpUrl: smtp.url, liveHeartbeatMs: 200, deadlineCheckMs: 0 },
  });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const origin = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  /** Every stream a test opened, closed at the end. */
  const opened: SseStream[] = [];
  const userId = async (email: string) =>
    Number(
      (await t.db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirstOrThrow()).id,
    );
  const otherCompany = await t.db
    .selectFrom('company_user as cu')
    .innerJoin('users as u', 'u.id', 'cu.user_id')
    .select('cu.company_id')
    .where('u.email', '=', 'other@example.com')
    .executeTakeFirstOrThrow();
  const otherTicket = Number(
    (
      await t.db
        .selectFrom('tickets')
        .select('id')
        .where('company_id', '=', otherCompany.company_id)
        .where('is_template', '=', false)
        .orderBy('id')
        .executeTakeFirstOrThrow()
    ).id,
  );

  return {
    t,
    smtp,
    origin,
    opened,
    admin: await t.as('admin@example.com'),
    firstLine: await t.as('operator@example.com'),
    client: await t.as('client@example.com'),
    other: await t.as('other@example.com'),
    operatorId: await userId('operator@example.com'),
    adminId: await userId('admin@example.com'),
    clientTicket: await firstClientTicketId(t.db),
    otherTicket,
    post: async (headers: Headers, payload: Record<string, unknown>) => {
      const res = await t.app.inject({ method: 'POST', url: '/api/messages', headers, payload });
      expect(res.statusCode, res.body).toBe(201);
      return res.json() as { id: number };
    },
    stream: async (headers: Headers, options: { lastEventId?: string; host?: string } = {}) => {
      const s = await openEvents(origin, headers, options);
      opened.push(s);
      if (s.status === 200) await s.next((e) => e.event === 'ready');
      return s;
    },
    async close() {
      for (const s of opened) s.close();
      await t.close();
      await smtp.close();
    },
  };
}
