/**
 * The event stream follows the company role (issue 39, item 1: "event streams"), through the real
 * endpoint: GET /api/events over HTTP for Jansen BV's admin and its member Lotte. A message and a change
 * on a colleague's ticket that is not shared with her reach the admin's stream and not hers, message
 * events included; once it is shared with her, they reach her too, and after the share ends, no more.
 * (tests/api/company-roles-reads.test.ts asks the frame reader directly; this is the stream a browser reads.)
 */
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, targets, type TestApp } from './harness.ts';
import { openEvents, type SseEvent, type SseStream } from './sse.ts';

const ADMIN = 'client@example.com';
const MEMBER = 'lotte.smit@jansenbv.nl';
const OPERATOR = 'admin@example.com';

describe.each(targets)('the event stream by company role on $name', (target) => {
  let t: TestApp;
  let adminStream: SseStream;
  let memberStream: SseStream;
  /** Pieter's ticket, not shared with Lotte; and one of Lotte's own. */
  let his: number;
  let hers: number;
  let lotte: number;

  const newestEventId = async () =>
    Number(
      (
        await t.db
          .selectFrom('live_events')
          .select((eb) => eb.fn.max('id').as('id'))
          .executeTakeFirstOrThrow()
      ).id ?? 0,
    );
  const call = async (email: string, method: 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) => {
    const res = await t.app.inject({ method, url, headers: await t.as(email), payload });
    expect(res.statusCode, res.body).toBeLessThan(300);
    return res.json();
  };
  const message = (ticket: number, text: string) =>
    call(OPERATOR, 'POST', '/api/messages', {
      message: `<p>${text}</p>`,
      morphable_type: 'ticket',
      morphable_id: ticket,
      visible_to_client: true,
    });
  const about = (ticket: number, messages: number[]) => (e: SseEvent) =>
    (e.event === 'record' && e.data.resource === 'tickets' && e.data.id === ticket) ||
    (e.event === 'message' && messages.includes(e.data.id));

  /**
   * Runs `change` on `ticket`, then a message on Lotte's own ticket, which both streams get; once that
   * reached both (a stream's events come in order), every event of `change` would have too: answers
   * what each stream got about `ticket` or the messages `change` answers with.
   */
  async function heardOf(ticket: number, change: () => Promise<number[]>) {
    const before = await newestEventId();
    const messages = await change();
    const after = await newestEventId();
    expect(after).toBeGreaterThan(before);
    const marker = (await message(hers, 'Markering')).id as number;
    const isMarker = (e: SseEvent) => e.event === 'message' && e.data.id === marker;
    await adminStream.next(isMarker);
    await memberStream.next(isMarker);
    const within = (e: SseEvent) => e.id !== undefined && Number(e.id) > before && Number(e.id) <= after;
    return {
      admin: adminStream.events.filter(within).filter(about(ticket, messages)),
      member: memberStream.events.filter(within).filter(about(ticket, messages)),
    };
  }
  const changeAndMessage = (ticket: number, text: string) => async () => {
    const deadline = new Date(Date.now() + 7 * 24 * 3_600_000).toISOString();
    await call(OPERATOR, 'PUT', `/api/tickets/${ticket}`, { deadline });
    return [(await message(ticket, text)).id as number];
  };

  beforeAll(async () => {
    t = await buildTestApp(target, { config: { liveHeartbeatMs: 60_000, deadlineCheckMs: 0 } });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const origin = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    const userId = async (email: string) =>
      Number(
        (await t.db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirstOrThrow()).id,
      );
    lotte = await userId(MEMBER);
    const pieter = await userId(ADMIN);
    const ticketOf = async (client: number) =>
      Number(
        (
          await t.db
            .selectFrom('tickets')
            .select('id')
            .where('client_id', '=', client)
            .where('is_template', '=', false)
            .where('id', 'not in', t.db.selectFrom('ticket_shares').select('ticket_id'))
            .orderBy('id')
            .executeTakeFirstOrThrow()
        ).id,
      );
    his = await ticketOf(pieter);
    hers = await ticketOf(lotte);
    adminStream = await openEvents(origin, await t.as(ADMIN));
    memberStream = await openEvents(origin, await t.as(MEMBER));
    await adminStream.next((e) => e.event === 'ready');
    await memberStream.next((e) => e.event === 'ready');
  });
  afterAll(async () => {
    adminStream?.close();
    memberStream?.close();
    await t?.close();
  });

  it("a colleague's unshared ticket: its change and message reach her admin's stream, not hers", async () => {
    const heard = await heardOf(his, changeAndMessage(his, 'Voor Pieter'));
    expect(heard.admin.some((e) => e.event === 'record' && e.data.action === 'changed')).toBe(true);
    expect(heard.admin.some((e) => e.event === 'message')).toBe(true);
    expect(heard.member).toEqual([]);
  });

  it('shared with her, the same reaches her; once the share ends, no longer', async () => {
    const share = await call(ADMIN, 'POST', '/api/ticket-shares', { ticket_id: his, user_id: lotte });
    const shared = await heardOf(his, changeAndMessage(his, 'Nu gedeeld'));
    expect(shared.member.some((e) => e.event === 'record' && e.data.action === 'changed')).toBe(true);
    expect(shared.member.some((e) => e.event === 'message')).toBe(true);
    await call(ADMIN, 'DELETE', `/api/ticket-shares/${share.id}`);
    const ended = await heardOf(his, changeAndMessage(his, 'Niet meer gedeeld'));
    expect(ended.admin.some((e) => e.event === 'message')).toBe(true);
    expect(ended.member).toEqual([]);
  });
});
