/**
 * Notifications and live screens (issue 19, items 3 and 4): each kind of notification in the app and
 * by mail (read back from a loopback SMTP server), the deadline check made once however often it runs,
 * GET /api/events carrying only what its user may read (a client never another company's message or
 * an internal note; another tenant nothing), Last-Event-ID replays, the heartbeat's check of the token,
 * the stream limit, a shutdown with open streams, and (PostgreSQL) an event of one instance reaching a
 * stream on another.
 */
import type { AddressInfo } from 'node:net';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSecondInstance, buildTestApp, firstClientTicketId, targets, type TestApp } from './harness.ts';
import { startSmtp, type LoopbackSmtp } from './smtp.ts';
import { openEvents, type SseEvent, type SseStream } from './sse.ts';
import { checkDeadlines } from '../../server/resources/notifications/deadlines.ts';
import { MAX_STREAMS_PER_USER } from '../../server/live/plugin.ts';

type Headers = Record<string, string>;

describe.each(targets)('notifications and live events on $name', (target) => {
  let t: TestApp;
  let smtp: LoopbackSmtp;
  let origin: string;
  let admin: Headers;
  let firstLine: Headers;
  let client: Headers;
  let other: Headers;
  let operatorId: number;
  let adminId: number;
  let clientTicket: number;
  let otherTicket: number;
  const opened: SseStream[] = [];

  const userId = async (email: string) =>
    Number(
      (await t.db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirstOrThrow()).id,
    );

  const post = async (headers: Headers, payload: Record<string, unknown>) => {
    const res = await t.app.inject({ method: 'POST', url: '/api/messages', headers, payload });
    expect(res.statusCode, res.body).toBe(201);
    return res.json() as { id: number };
  };
  const message = (ticketId: number, text: string, extra: Record<string, unknown> = {}) => ({
    message: `<p>${text}</p>`,
    morphable_type: 'ticket',
    morphable_id: ticketId,
    ...extra,
  });
  const notifications = async (headers: Headers) => {
    const res = await t.app.inject({ method: 'GET', url: '/api/notifications?perPage=100', headers });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as { data: any[]; total: number; unread: number };
  };
  const setTicket = async (id: number, changes: Record<string, unknown>) => {
    const res = await t.app.inject({
      method: 'PUT',
      url: `/api/tickets/${id}`,
      headers: admin,
      payload: changes,
    });
    expect(res.statusCode, res.body).toBe(200);
  };
  const chooseMail = async (headers: Headers, kind: string, email: boolean) => {
    const res = await t.app.inject({
      method: 'PUT',
      url: '/api/notification-preferences',
      headers,
      payload: { data: [{ kind, email }] },
    });
    expect(res.statusCode, res.body).toBe(200);
  };
  /** The first mail after the `count` first whose subject has `text` (the outbox sends in its own time). */
  const mailAbout = async (count: number, text: string) => {
    for (let i = count; ; i++) {
      const mail = await smtp.next(i);
      if (mail.subject?.includes(text)) return mail;
    }
  };
  const stream = async (headers: Headers, options: { lastEventId?: string; host?: string } = {}) => {
    const s = await openEvents(origin, headers, options);
    opened.push(s);
    if (s.status === 200) await s.next((e) => e.event === 'ready');
    return s;
  };

  beforeAll(async () => {
    smtp = await startSmtp();
    t = await buildTestApp(target, {
      config: { smtpUrl: smtp.url, liveHeartbeatMs: 200, deadlineCheckMs: 0 },
    });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    origin = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    admin = await t.as('admin@example.com');
    firstLine = await t.as('operator@example.com');
    client = await t.as('client@example.com');
    other = await t.as('other@example.com');
    operatorId = await userId('operator@example.com');
    adminId = await userId('admin@example.com');
    clientTicket = await firstClientTicketId(t.db);
    const otherCompany = await t.db
      .selectFrom('company_user as cu')
      .innerJoin('users as u', 'u.id', 'cu.user_id')
      .select('cu.company_id')
      .where('u.email', '=', 'other@example.com')
      .executeTakeFirstOrThrow();
    otherTicket = Number(
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
  });
  afterAll(async () => {
    for (const s of opened) s.close();
    await t?.close();
    await smtp?.close();
  });

  it('tells an operator a ticket was assigned to them, in the app and, when chosen, by mail', async () => {
    await chooseMail(firstLine, 'assigned', true);
    await setTicket(clientTicket, { operator_id: null });
    const before = await notifications(firstLine);
    const count = smtp.received.length;
    await setTicket(clientTicket, { operator_id: operatorId });
    const after = await notifications(firstLine);
    expect(after.unread).toBe(before.unread + 1);
    expect(after.data[0]).toMatchObject({ kind: 'assigned', ticket_id: clientTicket, read_at: null });
    expect(after.data[0].actor_name).toBeTruthy();
    const mail = await mailAbout(count, 'Ticket aan jou toegewezen');
    expect(mail.text).toContain(`/tickets/${clientTicket}\n`);
    // Taking a ticket oneself tells nobody.
    const own = await notifications(admin);
    await setTicket(clientTicket, { operator_id: adminId });
    expect((await notifications(admin)).total).toBe(own.total);
    await setTicket(clientTicket, { operator_id: operatorId });
  });

  it("writes the mail in the operator's language when they keep one, else in Dutch with the English below", async () => {
    const keepLanguage = async (value: string | null) => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/auth/me',
        headers: firstLine,
        payload: { relationships: { configs: [{ name: 'language', value }] } },
      });
      expect(res.statusCode, res.body).toBe(200);
    };
    const assign = async () => {
      await setTicket(clientTicket, { operator_id: null });
      const count = smtp.received.length;
      await setTicket(clientTicket, { operator_id: operatorId });
      return count;
    };
    await chooseMail(firstLine, 'assigned', true);
    const both = await mailAbout(await assign(), 'Ticket aan jou toegewezen');
    expect(both.text).toContain('Open het ticket: ');
    expect(both.text).toContain('Open the ticket: ');
    try {
      await keepLanguage('de');
      const german = await mailAbout(await assign(), 'Ticket wurde Ihnen zugewiesen');
      expect(german.subject).toMatch(/^\[[^\]]+\] Ticket wurde Ihnen zugewiesen$/);
      expect(german.text).toContain(`Ticket öffnen: `);
      expect(german.text).toContain(`/tickets/${clientTicket}`);
      expect(german.text).not.toContain('Open het ticket');
      expect(german.text).not.toContain('Open the ticket');
    } finally {
      await keepLanguage(null);
    }
  });

  it("tells the ticket's operator of a client's reply, and the first line when nobody holds it", async () => {
    await chooseMail(firstLine, 'client_reply', true);
    await setTicket(clientTicket, { operator_id: operatorId });
    const count = smtp.received.length;
    const reply = await post(client, message(clientTicket, 'Antwoord van de klant'));
    const mine = await notifications(firstLine);
    expect(mine.data[0]).toMatchObject({
      kind: 'client_reply',
      ticket_id: clientTicket,
      message_id: reply.id,
    });
    expect((await notifications(admin)).data.some((n) => n.message_id === reply.id)).toBe(false);
    await mailAbout(count, 'Nieuw antwoord van de klant');

    await setTicket(clientTicket, { operator_id: null });
    const unassigned = await post(client, message(clientTicket, 'Nog een antwoord'));
    // admin is second line, operator@ first line: the first line is told.
    expect((await notifications(firstLine)).data[0]).toMatchObject({
      kind: 'client_reply',
      message_id: unassigned.id,
    });
    expect((await notifications(admin)).data.some((n) => n.message_id === unassigned.id)).toBe(false);
    await setTicket(clientTicket, { operator_id: operatorId });
  });

  it('tells an operator they were mentioned, but not the writer, and by mail only when chosen', async () => {
    await chooseMail(firstLine, 'mention', false);
    const count = smtp.received.length;
    const note = await post(
      admin,
      message(
        clientTicket,
        `Kijk jij even, <span class="mention" data-type="mention" data-id="${operatorId}" data-label="Op">@Op</span>` +
          ` <span class="mention" data-type="mention" data-id="${adminId}" data-label="Me">@Me</span>`,
        { visible_to_client: false },
      ),
    );
    expect((await notifications(firstLine)).data[0]).toMatchObject({ kind: 'mention', message_id: note.id });
    expect((await notifications(admin)).data.some((n) => n.message_id === note.id)).toBe(false);
    // Mail is chosen per kind: the next mail is the one of a kind chosen, not this mention.
    await chooseMail(firstLine, 'mention', true);
    const second = await post(
      admin,
      message(clientTicket, `<span class="mention" data-type="mention" data-id="${operatorId}">@Op</span>`, {
        visible_to_client: false,
      }),
    );
    await mailAbout(count, 'Je bent genoemd');
    expect(smtp.received.slice(count).filter((m) => m.subject?.includes('genoemd'))).toHaveLength(1);
    expect((await notifications(firstLine)).data[0]).toMatchObject({ message_id: second.id });
  });

  it('tells of a deadline an hour away and of one passed, once each however often the check runs', async () => {
    await chooseMail(firstLine, 'deadline_passed', true);
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/tickets',
      headers: admin,
      payload: {
        description: 'Deadline in een half uur',
        operator_id: operatorId,
        deadline: new Date(Date.now() + 30 * 60_000).toISOString(),
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    const ticket = Number(created.json().id);
    // Created for someone else: they are told it is theirs.
    expect((await notifications(firstLine)).data[0]).toMatchObject({ kind: 'assigned', ticket_id: ticket });
    const count = smtp.received.length;
    await Promise.all([checkDeadlines(t.db), checkDeadlines(t.db)]);
    await checkDeadlines(t.db);
    const soon = (await notifications(firstLine)).data.filter(
      (n) => n.kind === 'deadline_soon' && n.ticket_id === ticket,
    );
    expect(soon).toHaveLength(1);

    await setTicket(ticket, { deadline: new Date(Date.now() - 5 * 60_000).toISOString() });
    await Promise.all([checkDeadlines(t.db), checkDeadlines(t.db)]);
    const passed = (await notifications(firstLine)).data.filter(
      (n) => n.kind === 'deadline_passed' && n.ticket_id === ticket,
    );
    expect(passed).toHaveLength(1);
    await mailAbout(count, 'Deadline verstreken');
    // Closed, it tells nobody any more.
    await sql`update tickets set resolved_at = now(), deadline = now() + interval '10 minutes' where id = ${ticket}`.execute(
      t.db,
    );
    expect(await checkDeadlines(t.db)).toBe(0);
  });

  it('marks read one notification or all; only the own ones; operators only', async () => {
    const list = await notifications(firstLine);
    expect(list.unread).toBeGreaterThan(0);
    const first = list.data.find((n) => n.read_at === null)!;
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/notifications/${first.id}/read`,
      headers: firstLine,
    });
    expect(res.json()).toEqual({ unread: list.unread - 1 });
    const foreign = await t.app.inject({
      method: 'POST',
      url: `/api/notifications/${first.id}/read`,
      headers: admin,
    });
    expect(foreign.statusCode).toBe(404);
    const all = await t.app.inject({
      method: 'POST',
      url: '/api/notifications/read-all',
      headers: firstLine,
    });
    expect(all.json()).toEqual({ unread: 0 });
    expect((await notifications(firstLine)).unread).toBe(0);
    const refused = await t.app.inject({ method: 'GET', url: '/api/notifications', headers: client });
    expect(refused.statusCode).toBe(403);
    const bad = await t.app.inject({
      method: 'PUT',
      url: '/api/notification-preferences',
      headers: firstLine,
      payload: { data: [{ kind: 'nonsense', email: true }] },
    });
    expect(bad.statusCode).toBe(422);
  });

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
