/**
 * Message thread visibility (issue 5, item 1), for every identity: operators (second and first line)
 * see everything of the tenant; a client sees only visible_to_client messages on records of their
 * companies, and never an internal note or its attachments, by any route (list, show, `with`,
 * `withCount`, attachment list and download); the other client sees nothing of it; a quote-link holder
 * no message at all. Writing, updating and deleting: tests/api/messages-writing.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { targets } from './harness.ts';
import { onTicket, startMessagesDesk, threadUrl, type MessagesDesk } from './messages-world.ts';

describe.each(targets)('messages on $name', (target) => {
  let {
    t,
    inject,
    post,
    admin,
    firstLine,
    client,
    other,
    quoteLink,
    ticketId,
    clientId,
    note,
    reply,
    close,
  } = {} as MessagesDesk;

  beforeAll(async () => {
    ({ t, inject, post, admin, firstLine, client, other, quoteLink, ticketId, clientId, note, reply, close } =
      await startMessagesDesk(target));
  });
  afterAll(() => close?.());

  describe('what each identity sees', () => {
    it('operators of both lines see the whole thread, internal notes and their files included', async () => {
      for (const headers of [admin, firstLine]) {
        const res = await inject('GET', threadUrl(ticketId), headers);
        expect(res.statusCode).toBe(200);
        const ids = res.json().data.map((m: { id: number }) => m.id);
        expect(ids).toContain(note.id);
        expect(ids).toContain(reply.id);
        const internal = res.json().data.find((m: { id: number }) => m.id === note.id);
        expect(internal.attachments.map((a: { id: number }) => a.id)).toEqual([note.attachmentId]);
        expect((await inject('GET', `/api/messages/${note.id}`, headers)).statusCode).toBe(200);
        expect((await inject('GET', `/api/attachments/${note.attachmentId}/file`, headers)).statusCode).toBe(
          200,
        );
      }
    });

    it('the client sees visible messages only, in the list, the count and the attachments list', async () => {
      const res = await inject('GET', threadUrl(ticketId), client);
      expect(res.statusCode).toBe(200);
      const data = res.json().data as { id: number; visible_to_client: boolean; bcc?: unknown }[];
      expect(data.length).toBeGreaterThan(1);
      expect(data.every((m) => m.visible_to_client === true)).toBe(true);
      expect(data.map((m) => m.id)).not.toContain(note.id);
      expect(data.map((m) => m.id)).toContain(reply.id);
      expect(data.every((m) => !('bcc' in m) && !('recipients' in m))).toBe(true);
      const visible = await t.db
        .selectFrom('messages')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('morphable_type', '=', 'ticket')
        .where('morphable_id', '=', ticketId)
        .where('visible_to_client', '=', true)
        .executeTakeFirstOrThrow();
      expect(res.json().total).toBe(Number(visible.n));

      const attachments = await inject('GET', '/api/attachments?builder[0][paginate]=100', client);
      expect(attachments.statusCode).toBe(200);
      const attachmentIds = attachments.json().data.map((a: { id: number }) => a.id);
      expect(attachmentIds).toContain(reply.attachmentId);
      expect(attachmentIds).not.toContain(note.attachmentId);
    });

    it('the client never gets an internal note or its file by id', async () => {
      expect((await inject('GET', `/api/messages/${note.id}`, client)).statusCode).toBe(404);
      expect((await inject('GET', `/api/attachments/${note.attachmentId}`, client)).statusCode).toBe(404);
      expect((await inject('GET', `/api/attachments/${note.attachmentId}/file`, client)).statusCode).toBe(
        404,
      );
      expect((await inject('GET', `/api/attachments/${reply.attachmentId}/file`, client)).statusCode).toBe(
        200,
      );
    });

    it('the client never gets an internal note through with or withCount', async () => {
      const res = await inject(
        'GET',
        `/api/tickets/${ticketId}?with[0]=messages.attachments&withCount[0]=messages`,
        client,
      );
      expect(res.statusCode, res.body).toBe(200);
      const messages = res.json().messages as { id: number; attachments: { id: number }[] }[];
      expect(messages.map((m) => m.id)).not.toContain(note.id);
      expect(messages.flatMap((m) => m.attachments.map((a) => a.id))).not.toContain(note.attachmentId);
      expect(res.json().messages_count).toBe(messages.length);
      const asAdmin = await inject('GET', `/api/tickets/${ticketId}?withCount[0]=messages`, admin);
      expect(asAdmin.json().messages_count).toBeGreaterThan(res.json().messages_count);

      const list = await inject('GET', `/api/tickets?withCount[0]=messages&with[0]=messages`, client);
      for (const ticket of list.json().data as { messages: { visible_to_client: boolean }[] }[]) {
        expect(ticket.messages.every((m) => m.visible_to_client)).toBe(true);
      }
      const attachment = await inject(
        'GET',
        `/api/attachments/${reply.attachmentId}?with[0]=message`,
        client,
      );
      expect(attachment.json().message.id).toBe(reply.id);
    });

    it('a link the client was given stops working once the message is made internal', async () => {
      const res = await inject('GET', `/api/messages/${reply.id}?with[0]=attachments`, client);
      const url = res.json().attachments[0].url as string;
      expect((await inject('GET', url, {})).statusCode).toBe(200);
      await inject('PUT', `/api/messages/${reply.id}`, admin, { visible_to_client: false });
      expect((await inject('GET', url, {})).statusCode).toBe(404);
      await inject('PUT', `/api/messages/${reply.id}`, admin, { visible_to_client: true });
      expect((await inject('GET', url, {})).statusCode).toBe(200);
    });

    it('the other client sees nothing of this ticket', async () => {
      const res = await inject('GET', threadUrl(ticketId), other);
      expect(res.statusCode).toBe(200);
      expect(res.json().data).toEqual([]);
      expect((await inject('GET', `/api/messages/${reply.id}`, other)).statusCode).toBe(404);
      expect((await inject('GET', `/api/attachments/${reply.attachmentId}/file`, other)).statusCode).toBe(
        404,
      );
      const attachments = await inject('GET', '/api/attachments?builder[0][paginate]=100', other);
      expect(attachments.json().data.map((a: { id: number }) => a.id)).not.toContain(reply.attachmentId);
    });

    it('a quote-link holder reads no message and no file', async () => {
      expect((await inject('GET', '/api/messages', quoteLink)).statusCode).toBe(403);
      expect((await inject('GET', `/api/messages/${reply.id}`, quoteLink)).statusCode).toBe(403);
      expect((await inject('GET', `/api/attachments/${reply.attachmentId}/file`, quoteLink)).statusCode).toBe(
        403,
      );
      expect((await post(quoteLink, [...onTicket(ticketId), ['message', 'x']])).statusCode).toBe(403);
    });

    it('a thread row carries its actor, attachments with address, type and status name', async () => {
      const res = await inject('GET', threadUrl(ticketId), client);
      const data = res.json().data as Record<string, any>[];
      const fromOperator = data.find((m) => m.id === reply.id)!;
      expect(fromOperator.actor).toMatchObject({
        is_operator: 2,
        full_name: expect.any(String),
        first_name: expect.any(String),
        last_name: expect.any(String),
        acronym: expect.any(String),
        gravatar: expect.stringMatching(/^https:\/\/www\.gravatar\.com\/avatar\/[0-9a-f]{64}\?/),
      });
      expect(fromOperator.actor).not.toHaveProperty('email');
      expect(fromOperator.attachments[0]).toMatchObject({
        id: reply.attachmentId,
        name: 'antwoord.pdf',
        extension: 'pdf',
        size: expect.any(Number),
        url: expect.stringMatching(new RegExp(`^/api/attachments/${reply.attachmentId}/file\\?token=`)),
      });
      const fromClient = data.find((m) => m.is_from_client)!;
      expect(fromClient.actor).toMatchObject({ id: clientId, is_operator: 0 });
      const statusChange = await t.db
        .selectFrom('messages')
        .select('id')
        .where('type', '=', 'status-changed')
        .where('visible_to_client', '=', true)
        .executeTakeFirstOrThrow();
      const shown = await inject('GET', `/api/messages/${statusChange.id}`, admin);
      expect(shown.json().type).toBe('status-changed');
      expect(shown.json().data.status.name).toEqual(expect.any(String));
    });
  });
});
