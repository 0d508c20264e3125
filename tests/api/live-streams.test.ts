/**
 * Live screens (issue 19, item 4): GET /api/events carrying only what its user may read (a client
 * never another company's message or an internal note; another tenant nothing), a ticket's own actions
 * told to its streams, Last-Event-ID replays, the end of a user's streams at logout on every instance,
 * the stream limit, a shutdown with open streams, and (PostgreSQL) an event of one instance reaching a
 * stream on another. The notifications themselves: tests/api/live-notifications.test.ts.
 */
import type { AddressInfo } from 'node:net';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSecondInstance, buildTestApp, targets, type TestApp } from './harness.ts';
import { openEvents, type SseEvent } from './sse.ts';
import { MAX_STREAMS_PER_USER } from '../../server/live/plugin.ts';
import { message, startLiveDesk, type Headers, type LiveDesk } from './live-world.ts';

describe.each(targets)('notifications and live events on $name', (target) => {
  let { t, origin, opened, admin, firstLine, client, other, clientTicket, otherTicket, post, stream, close } =
    {} as LiveDesk;

  beforeAll(async () => {
    ({ t, origin, opened, admin, firstLine, client, other, clientTicket, otherTicket, post, stream, close } =
      await startLiveDesk(target));
  });
  afterAll(() => close?.());

  it("streams to each user only what they may read: no other company's message, no internal note, no other tenant", async () => {
    const operatorStream = await stream(firstLine);
    const clientStream = await stream(client);
    const otherStream = await stream(other);

    const hidden = await post(admin, message(clientTicket, 'Interne notitie', { visible_to_client: false }));
    const toOther = await post(admin, message(otherTicket, 'Voor De Vries', { visible_to_client: true }));
    const toClient = await post(admin, message(clientTicket, 'Voor Jansen', { visible_to_client: true }));
    const isMessage = (id: number) => (e: SseEvent) => e.event === 'message' && e.data.id === id;

    // Each stream gets its events in order: once the last one is in, the others would have been too.
    await clientStream.next(isMessage(toClient.id));
    expect(clientStream.events.some(isMessage(hidden.id))).toBe(false);
    expect(clientStream.events.some(isMessage(toOther.id))).toBe(false);
    expect(clientStream.events.find(isMessage(toClient.id))!.data).toEqual({
      resource: 'messages',
      id: toClient.id,
      morphable_type: 'ticket',
      morphable_id: clientTicket,
    });
    await otherStream.next(isMessage(toOther.id));
    expect(otherStream.events.some(isMessage(hidden.id))).toBe(false);
    expect(otherStream.events.some((e) => e.event === 'record' && e.data.id === clientTicket)).toBe(false);
    await operatorStream.next(isMessage(toClient.id));
    expect(operatorStream.events.some(isMessage(hidden.id))).toBe(true);
    expect(operatorStream.events.some((e) => e.event === 'record' && e.data.id === clientTicket)).toBe(true);

    // Another tenant's operator, with every permission there, hears nothing of this tenant.
    const slug = `elsewhere${Math.floor(Math.random() * 1e6)}`;
    const tenant = await t.db
      .insertInto('tenants')
      .values({ slug, name: 'Elsewhere' })
      .returning('id')
      .executeTakeFirstOrThrow();
    const role = await t.db
      .insertInto('roles')
      .values({ tenant_id: tenant.id, name: 'All', is_operator: true, grants_all: true })
      .returning('id')
      .executeTakeFirstOrThrow();
    await sql`insert into permission_role (role_id, permission_id)
      select ${role.id}, id from permissions where name like 'tenant.%'`.execute(t.db);
    await sql`insert into users (tenant_id, first_name, last_name, email, password_hash, is_operator, is_staff, role_id)
      select ${tenant.id}, first_name, last_name, email, password_hash, is_operator, is_staff, ${role.id}
      from users where email = 'admin@example.com'`.execute(t.db);
    const host = `${slug}.localhost`;
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { host },
      payload: { username: 'admin@example.com', password: 'demo' },
    });
    expect(login.statusCode, login.body).toBe(200);
    const elsewhere = await stream({ authorization: `Bearer ${login.json().access_token}` }, { host });
    const marker = await post(
      admin,
      message(clientTicket, 'Na de andere tenant', { visible_to_client: false }),
    );
    await operatorStream.next(isMessage(marker.id));
    // The stream of the other tenant is open and served: its own heartbeat comes, no event of ours.
    const comments = elsewhere.comments;
    await new Promise<void>((resolve) => {
      const look = setInterval(() => {
        if (elsewhere.comments > comments) {
          clearInterval(look);
          resolve();
        }
      }, 20);
    });
    expect(elsewhere.events.filter((e) => e.event !== 'ready')).toEqual([]);
  });

  it("tells the streams of a ticket closed, restored or merged by the ticket's own actions", async () => {
    const operatorStream = await stream(firstLine);
    const { company_id } = await t.db
      .selectFrom('tickets')
      .select('company_id')
      .where('id', '=', clientTicket)
      .executeTakeFirstOrThrow();
    const create = async (description: string) => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/tickets',
        headers: admin,
        payload: { description, company_id },
      });
      expect(res.statusCode, res.body).toBe(201);
      return Number(res.json().id);
    };
    const act = async (url: string, payload?: object) => {
      const res = await t.app.inject({
        method: 'POST',
        url,
        headers: admin,
        ...(payload ? { payload } : {}),
      });
      expect(res.statusCode, res.body).toBe(200);
    };
    /** The stream's next 'changed' record event for ticket `id` after the event `after`. */
    const changed = (id: number, after: SseEvent) =>
      operatorStream.next(
        (e) =>
          e.event === 'record' &&
          e.data.id === id &&
          e.data.action === 'changed' &&
          Number(e.id) > Number(after.id),
      );
    const kept = await create('Live: blijft');
    const merged = await create('Live: samengevoegd');
    const made = await operatorStream.next((e) => e.event === 'record' && e.data.id === merged);

    await act(`/api/tickets/${kept}/close`);
    const closed = await changed(kept, made);
    await act(`/api/tickets/${kept}/restore`);
    const restored = await changed(kept, closed);
    await act('/api/tickets/merge', { ids: [kept, merged] });
    await changed(kept, restored);
    await changed(merged, restored);
  });

  it('replays what was missed from Last-Event-ID', async () => {
    const first = await stream(firstLine);
    const start = await post(admin, message(clientTicket, 'Voor de pauze', { visible_to_client: false }));
    const seen = await first.next((e) => e.event === 'message' && e.data.id === start.id);
    first.close();
    await first.ended;
    const missed1 = await post(admin, message(clientTicket, 'Gemist 1', { visible_to_client: false }));
    const missed2 = await post(client, message(clientTicket, 'Gemist 2'));
    const again = await stream(firstLine, { lastEventId: seen.id });
    await again.next((e) => e.event === 'message' && e.data.id === missed2.id);
    const ids = again.events.filter((e) => e.event === 'message').map((e) => e.data.id);
    expect(ids).toEqual([missed1.id, missed2.id]);
    // The client's reply told the operator (the count comes after the message it is about).
    const count = await again.next((e) => e.event === 'notifications');
    expect(Number(count.id)).toBeGreaterThan(Number(seen.id));
    again.close();
  });

  it('ends the stream at logout; refuses more than the limit of streams per user', async () => {
    const { token, cookie } = await t.login('client@example.com');
    const headers = { authorization: `Bearer ${token}` };
    const streams = [];
    for (let i = 0; i < MAX_STREAMS_PER_USER; i++) streams.push(await stream(headers));
    const refused = await openEvents(origin, headers);
    opened.push(refused);
    expect(refused.status).toBe(429);
    const out = await t.app.inject({
      method: 'POST',
      url: '/api/auth/logout',
      headers: { ...headers, cookie },
    });
    expect(out.statusCode).toBeLessThan(300);
    // The logout ends every one of them (the stream checks its token again when it hears of it).
    await Promise.all(streams.map((s) => s.ended));
    const after = await openEvents(origin, headers);
    opened.push(after);
    expect(after.status).toBe(401);
  });

  it("ends a user's streams as soon as their session ends, on every instance, not at the next heartbeat", async () => {
    // No heartbeat within the test's time: only hearing of the logout can end these streams.
    const config = { liveHeartbeatMs: 600_000, deadlineCheckMs: 0 };
    const first = await buildTestApp(target, { config });
    const apps = [first];
    const listening = async (app: TestApp) => {
      await app.app.listen({ port: 0, host: '127.0.0.1' });
      return `http://127.0.0.1:${(app.app.server.address() as AddressInfo).port}`;
    };
    const ready = async (origin: string, headers: Headers) => {
      const s = await openEvents(origin, headers);
      opened.push(s);
      await s.next((e) => e.event === 'ready');
      return s;
    };
    try {
      const firstOrigin = await listening(first);
      const { token, cookie } = await first.login('client@example.com');
      const headers = { authorization: `Bearer ${token}` };
      const ending = [await ready(firstOrigin, headers)];
      // PostgreSQL: a second instance hears of the logout through the database's notifications.
      if (target.name === 'postgres') {
        const second = await buildSecondInstance(first, { config });
        apps.push(second);
        ending.push(await ready(await listening(second), headers));
      }
      const operator = await ready(firstOrigin, await first.as('operator@example.com'));

      const out = await first.app.inject({
        method: 'POST',
        url: '/api/auth/logout',
        headers: { ...headers, cookie },
      });
      expect(out.statusCode, out.body).toBe(200);
      await Promise.all(ending.map((s) => s.ended));

      // Another user's stream is not touched: it still carries what they may see.
      const made = await first.app.inject({
        method: 'POST',
        url: '/api/messages',
        headers: await first.as('admin@example.com'),
        payload: message(clientTicket, 'Na het uitloggen van de klant'),
      });
      expect(made.statusCode, made.body).toBe(201);
      const heard = await operator.next((e) => e.event === 'message' && e.data.id === made.json().id);
      expect(heard.data.morphable_id).toBe(clientTicket);
    } finally {
      for (const app of apps.reverse()) await app.close();
    }
  });

  it.runIf(target.name === 'postgres')(
    'carries an event made on one instance to a stream on another',
    async () => {
      const second = await buildSecondInstance(t, { config: { liveHeartbeatMs: 200, deadlineCheckMs: 0 } });
      try {
        await second.app.listen({ port: 0, host: '127.0.0.1' });
        const secondOrigin = `http://127.0.0.1:${(second.app.server.address() as AddressInfo).port}`;
        const onB = await openEvents(secondOrigin, client);
        opened.push(onB);
        await onB.next((e) => e.event === 'ready');
        const made = await post(admin, message(clientTicket, 'Van instantie A', { visible_to_client: true }));
        const heard = await onB.next((e) => e.event === 'message' && e.data.id === made.id);
        expect(heard.data.morphable_id).toBe(clientTicket);
      } finally {
        await second.close();
      }
    },
  );

  it('closes open streams when the app closes, so the shutdown does not wait for them', async () => {
    const app = await buildTestApp(target, { config: { liveHeartbeatMs: 60_000, deadlineCheckMs: 0 } });
    await app.app.listen({ port: 0, host: '127.0.0.1' });
    const own = `http://127.0.0.1:${(app.app.server.address() as AddressInfo).port}`;
    const open = await openEvents(own, await app.as('operator@example.com'));
    await open.next((e) => e.event === 'ready');
    await app.close();
    await open.ended;
    expect(open.status).toBe(200);
  });
});
