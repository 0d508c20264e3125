/**
 * A reconnect's replay is bounded (issue 31, item 7: reopening streams with `Last-Event-ID: 0` was a
 * lever on every caller): at most REPLAY_CAP events, none older than REPLAY_MAX_AGE_MS (past either,
 * `reset` and nothing else), their records read in a few statements (counted on the app's own handle,
 * as round-trips.test.ts does), no statement started once the stream closed, and at most
 * REPLAYS_PER_WINDOW replays per user a minute (429 with Retry-After past that).
 */
import type { AddressInfo } from 'node:net';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, firstClientTicketId, requestStatements, targets, type TestApp } from './harness.ts';
import { openEvents, type SseStream } from './sse.ts';
import { MAX_STREAMS_PER_USER } from '../../server/live/plugin.ts';
import { REPLAY_BATCH, REPLAY_CAP, REPLAY_MAX_AGE_MS, REPLAYS_PER_WINDOW } from '../../server/live/replay.ts';

type Headers = Record<string, string>;

describe.each(targets)('bounded replays of the live events on $name', (target) => {
  let t: TestApp;
  let origin: string;
  let tenantId: number;
  let clientTicket: number;
  const opened: SseStream[] = [];

  const newestEventId = async () =>
    Number(
      (
        await t.db
          .selectFrom('live_events')
          .select((eb) => eb.fn.max('id').as('id'))
          .executeTakeFirstOrThrow()
      ).id ?? 0,
    );
  /** `count` changes of the client's ticket, as its writes leave them (no one is told: a replay's matter). */
  const addEvents = async (count: number) => {
    await sql`insert into live_events (tenant_id, kind, record_id)
      select ${tenantId}, 'ticket.changed', ${clientTicket} from generate_series(1, ${count})`.execute(t.db);
    return newestEventId();
  };
  const stream = async (headers: Headers, lastEventId?: number) => {
    const s = await openEvents(
      origin,
      headers,
      lastEventId === undefined ? {} : { lastEventId: String(lastEventId) },
    );
    opened.push(s);
    if (s.status === 200) await s.next((e) => e.event === 'ready');
    return s;
  };
  /** The caller's auth context read into the cache (kept 5 s): a stream opened just after reads none. */
  const warm = async (headers: Headers) => {
    const res = await t.app.inject({ method: 'GET', url: '/api/auth/me', headers });
    expect(res.statusCode, res.body).toBe(200);
  };
  /**
   * The statements a stream's request ran on the events, the records they name and the notifications
   * until `until` (that stream) says it is done.
   */
  const counted = async (
    headers: Headers,
    lastEventId: number | undefined,
    until: (s: SseStream) => Promise<unknown>,
  ) => {
    const counter = requestStatements(['live_events', 'tickets', 'messages', 'notifications']);
    const s = await stream({ ...headers, ...counter.headers }, lastEventId);
    await until(s);
    counter.stop();
    s.close();
    return { stream: s, statements: counter.statements() };
  };
  const records = (s: SseStream) => s.events.filter((e) => e.event === 'record');
  const resetOrEvent = (s: SseStream, id: number) =>
    s.next((e) => e.event === 'reset' || Number(e.id) === id);

  beforeAll(async () => {
    t = await buildTestApp(target, {
      countStatements: true,
      config: { liveHeartbeatMs: 60_000, deadlineCheckMs: 0 },
    });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    origin = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    clientTicket = await firstClientTicketId(t.db);
    tenantId = Number(
      (
        await t.db
          .selectFrom('tickets')
          .select('tenant_id')
          .where('id', '=', clientTicket)
          .executeTakeFirstOrThrow()
      ).tenant_id,
    );
  });
  afterAll(async () => {
    for (const s of opened) s.close();
    await t?.close();
  });

  it('replays at most REPLAY_CAP events, their records read in a few statements; more is a reset', async () => {
    const operator = await t.as('operator@example.com');
    // What opening a stream costs this user without a replay (their unread count).
    const plain = await counted(operator, undefined, async () => undefined);
    const mark = await newestEventId();
    const last = await addEvents(REPLAY_CAP);

    const full = await counted(operator, mark, (s) => resetOrEvent(s, last));
    expect(full.stream.events.some((e) => e.event === 'reset')).toBe(false);
    expect(records(full.stream)).toHaveLength(REPLAY_CAP);
    expect(records(full.stream)[0]!.data).toEqual({
      resource: 'tickets',
      id: clientTicket,
      action: 'changed',
    });
    // Where it replays from, the events, and one statement per batch for their tickets.
    expect(full.statements - plain.statements).toBeLessThanOrEqual(2 + REPLAY_CAP / REPLAY_BATCH);

    const beyond = await addEvents(1);
    const reset = await counted(operator, mark, (s) => resetOrEvent(s, beyond));
    expect(reset.stream.events.some((e) => e.event === 'reset')).toBe(true);
    expect(records(reset.stream)).toEqual([]);
    expect(reset.statements - plain.statements).toBeLessThanOrEqual(2);
  });

  it('Last-Event-ID 0 with many events: reset, and not one of them read', async () => {
    const client = await t.as('client@example.com');
    const last = await addEvents(REPLAY_CAP + 50);
    const zero = await counted(client, 0, (s) => resetOrEvent(s, last));
    expect(zero.stream.events.some((e) => e.event === 'reset')).toBe(true);
    expect(zero.stream.events.filter((e) => e.id !== undefined)).toEqual([]);
    // A client's stream reads no unread count: these are the replay's bounds, and nothing of the events.
    expect(zero.statements).toBeLessThanOrEqual(2);
  });

  it('a stream closed during its replay starts no further statement', async () => {
    const client = await t.as('client@example.com');
    const mark = await newestEventId();
    const last = await addEvents(10);
    // The user's other streams: the one more that opens once the closed one is gone proves the server saw it close.
    for (let i = 0; i < MAX_STREAMS_PER_USER - 1; i++) await stream(client);
    // While the lock below holds, the client's streams open from the cached auth context only.
    await warm(client);

    let release = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    let locked = () => {};
    const isLocked = new Promise<void>((resolve) => (locked = resolve));
    // The replay's first statement waits behind this lock (on PGlite, behind the one connection).
    const held = t.db.transaction().execute(async (trx) => {
      await sql`lock table live_events in access exclusive mode`.execute(trx);
      locked();
      await gate;
    });
    await isLocked;
    const counter = requestStatements();
    const replaying = await stream({ ...client, ...counter.headers }, mark);
    replaying.close();
    await replaying.ended;
    for (;;) {
      const s = await openEvents(origin, client);
      opened.push(s);
      if (s.status === 200) break;
      expect(s.status).toBe(429);
      s.close();
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const atClose = counter.statements();
    release();
    await held;

    // Another replay from the same point (an operator's: the client has every stream it may), after the
    // closed one's statement came back: it goes through to the end; the closed one went no further.
    const again = await stream(await t.as('operator@example.com'), mark);
    await again.next((e) => Number(e.id) === last);
    expect(records(again)).toHaveLength(10);
    expect(counter.statements()).toBe(atClose);
    counter.stop();
    for (const s of opened) s.close();
  });

  it('events older than REPLAY_MAX_AGE_MS are not replayed: the stream says reset, nothing read', async () => {
    const operator = await t.as('operator@example.com');
    const plain = await counted(operator, undefined, async () => undefined);
    const mark = await newestEventId();
    await addEvents(3);
    // The operator was away longer than replays reach back.
    await sql`update live_events set created_at = created_at - ${`${REPLAY_MAX_AGE_MS + 60_000} milliseconds`}::interval`.execute(
      t.db,
    );
    const away = await counted(operator, mark, (s) =>
      s.next((e) => e.event === 'reset' || (e.id !== undefined && Number(e.id) > mark)),
    );
    expect(away.stream.events.filter((e) => e.event !== 'ready')).toEqual([{ event: 'reset', data: {} }]);
    // Where a replay may start from, and nothing after it: not one of the old events was read.
    expect(away.statements - plain.statements).toBe(1);
  });

  it('refuses more than REPLAYS_PER_WINDOW replays a minute per user, with Retry-After; a plain stream still opens', async () => {
    const other = await t.as('other@example.com');
    const from = await newestEventId();
    for (let i = 0; i < REPLAYS_PER_WINDOW; i++) {
      const s = await stream(other, from);
      expect(s.status).toBe(200);
      s.close();
    }
    const refused = await stream(other, from);
    expect(refused.status).toBe(429);
    const wait = Number(refused.headers['retry-after']);
    expect(wait).toBeGreaterThanOrEqual(1);
    expect(wait).toBeLessThanOrEqual(60);
    const plain = await stream(other);
    expect(plain.status).toBe(200);
    // Another user's replays are their own.
    const admin = await stream(await t.as('admin@example.com'), from);
    expect(admin.status).toBe(200);
  });
});
