/**
 * Notifications (issue 19, item 3): each kind of notification in the app and by mail (read back from a
 * loopback SMTP server), the mail in the operator's language, the deadline check made once however
 * often it runs, and marking notifications read. The live screens: tests/api/live-streams.test.ts.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { targets } from './harness.ts';
import { checkDeadlines } from '../../server/resources/notifications/deadlines.ts';
import { message, startLiveDesk, type Headers, type LiveDesk } from './live-world.ts';

describe.each(targets)('notifications and live events on $name', (target) => {
  let { t, smtp, admin, firstLine, client, operatorId, adminId, clientTicket, post, close } = {} as LiveDesk;

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

  beforeAll(async () => {
    ({ t, smtp, admin, firstLine, client, operatorId, adminId, clientTicket, post, close } =
      await startLiveDesk(target));
  });
  afterAll(() => close?.());

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
});
