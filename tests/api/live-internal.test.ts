/**
 * What operators see alone tells a client's event stream nothing (issue 31, item 8): an internal note
 * on the client's ticket, and a change of a ticket field the portal does not show (one ticket, or a
 * bulk change), reach the operators' streams as "ticket changed", and the client's stream not at all;
 * a change the portal shows still reaches it. Real streams of a client and an operator, over HTTP.
 */
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, firstClientTicketId, targets, type TestApp } from './harness.ts';
import { openEvents, type SseEvent, type SseStream } from './sse.ts';

type Headers = Record<string, string>;

describe.each(targets)('changes only operators see, on the live streams on $name', (target) => {
  let t: TestApp;
  let admin: Headers;
  let clientStream: SseStream;
  let operatorStream: SseStream;
  let clientTicket: number;
  let otherOperator: number;

  const newestEventId = async () =>
    Number(
      (
        await t.db
          .selectFrom('live_events')
          .select((eb) => eb.fn.max('id').as('id'))
          .executeTakeFirstOrThrow()
      ).id ?? 0,
    );
  const call = async (method: 'POST' | 'PUT', url: string, payload: object) => {
    const res = await t.app.inject({ method, url, headers: admin, payload });
    expect(res.statusCode, res.body).toBeLessThan(300);
    return res.json();
  };
  const note = (text: string, visible: boolean) =>
    call('POST', '/api/messages', {
      message: `<p>${text}</p>`,
      morphable_type: 'ticket',
      morphable_id: clientTicket,
      visible_to_client: visible,
    });
  const between = (after: number, upTo: number) => (e: SseEvent) =>
    e.id !== undefined && Number(e.id) > after && Number(e.id) <= upTo;
  const ticketChanged = (e: SseEvent) =>
    e.event === 'record' && e.data.id === clientTicket && e.data.action === 'changed';

  /**
   * Runs `change`, then a message the client does see; once that reached the client's stream, every
   * event of `change` would have too (a stream's events come in order): answers what each stream got
   * of `change`.
   */
  async function heardOf(change: () => Promise<unknown>) {
    const before = await newestEventId();
    await change();
    const after = await newestEventId();
    expect(after).toBeGreaterThan(before);
    const marker = await note('Zichtbaar voor de klant', true);
    const isMarker = (e: SseEvent) => e.event === 'message' && e.data.id === marker.id;
    await clientStream.next(isMarker);
    await operatorStream.next(isMarker);
    return {
      client: clientStream.events.filter(between(before, after)),
      operator: operatorStream.events.filter(between(before, after)),
    };
  }

  beforeAll(async () => {
    t = await buildTestApp(target, { config: { liveHeartbeatMs: 60_000, deadlineCheckMs: 0 } });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const origin = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    admin = await t.as('admin@example.com');
    clientTicket = await firstClientTicketId(t.db);
    otherOperator = Number(
      (
        await t.db
          .selectFrom('users')
          .select('id')
          .where('email', '=', 'operator@example.com')
          .executeTakeFirstOrThrow()
      ).id,
    );
    clientStream = await openEvents(origin, await t.as('client@example.com'));
    operatorStream = await openEvents(origin, await t.as('operator@example.com'));
    await clientStream.next((e) => e.event === 'ready');
    await operatorStream.next((e) => e.event === 'ready');
  });
  afterAll(async () => {
    clientStream?.close();
    operatorStream?.close();
    await t?.close();
  });

  it("an internal note tells the client's stream nothing, not even that the ticket changed", async () => {
    let id = 0;
    const heard = await heardOf(async () => (id = (await note('Interne notitie', false)).id));
    expect(heard.client).toEqual([]);
    expect(heard.operator.some((e) => e.event === 'message' && e.data.id === id)).toBe(true);
    expect(heard.operator.some(ticketChanged)).toBe(true);
  });

  it("a change of a field the portal does not show tells the client's stream nothing", async () => {
    const current = await t.db
      .selectFrom('tickets')
      .select('operator_id')
      .where('id', '=', clientTicket)
      .executeTakeFirstOrThrow();
    const next = Number(current.operator_id) === otherOperator ? null : otherOperator;
    const one = await heardOf(() => call('PUT', `/api/tickets/${clientTicket}`, { operator_id: next }));
    expect(one.client).toEqual([]);
    expect(one.operator.some(ticketChanged)).toBe(true);

    const bulk = await heardOf(() =>
      call('POST', '/api/tickets/bulk', {
        action: 'update',
        ids: [clientTicket],
        changes: { operator_id: next === null ? otherOperator : null },
      }),
    );
    expect(bulk.client).toEqual([]);
    expect(bulk.operator.some(ticketChanged)).toBe(true);
  });

  it("a change the portal shows still reaches the client's stream", async () => {
    const deadline = new Date(Date.now() + 7 * 24 * 3_600_000).toISOString();
    const heard = await heardOf(() => call('PUT', `/api/tickets/${clientTicket}`, { deadline }));
    expect(heard.client.filter(ticketChanged)).toHaveLength(1);
    expect(heard.operator.some(ticketChanged)).toBe(true);
  });
});
