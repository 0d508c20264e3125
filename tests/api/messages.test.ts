/**
 * Message thread visibility and writes (issue 5, item 1), for every identity: operators (second and
 * first line) see everything of the tenant; a client sees only visible_to_client messages on records
 * of their companies, and never an internal note or its attachments, by any route (list, show,
 * `with`, `withCount`, attachment list and download); the other client sees nothing of it; a
 * quote-link holder no message at all. Creating, updating and deleting follow the server's rules.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRecordToken } from '../../server/auth/plugin.ts';
import { demoPdf, demoPng } from '../../server/db/seed/demo-files.ts';
import { buildTestApp, targets, type TestApp } from './harness.ts';
import { multipart, type FormFile } from './multipart.ts';

const PNG = demoPng(8, 8, [[200, 10, 10]]);

describe.each(targets)('messages on $name', (target) => {
  let t: TestApp;
  let admin: Record<string, string>;
  let firstLine: Record<string, string>;
  let client: Record<string, string>;
  let other: Record<string, string>;
  let quoteLink: Record<string, string>;
  let clientId: number;
  let ticketId: number;
  let otherTicketId: number;
  /** An internal note with a file, and an operator reply with a file, on the client's ticket. */
  let note: { id: number; attachmentId: number };
  let reply: { id: number; attachmentId: number };

  const inject = (
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: string,
    headers: object,
    payload?: object,
  ) => t.app.inject({ method, url, headers: headers as Record<string, string>, payload: payload as never });

  /** POST /api/messages as a multipart form. */
  const post = (headers: Record<string, string>, fields: [string, string][], files: FormFile[] = []) => {
    const form = multipart(fields, files);
    return t.app.inject({
      method: 'POST',
      url: '/api/messages',
      payload: form.payload,
      headers: { ...headers, ...form.headers },
    });
  };
  const onTicket = (id: number): [string, string][] => [
    ['morphable_type', 'ticket'],
    ['morphable_id', String(id)],
  ];
  const threadUrl = (id: number) =>
    `/api/messages?builder[0][where][0]=morphable_type&builder[0][where][1]=ticket` +
    `&builder[1][where][0]=morphable_id&builder[1][where][1]=${id}&builder[2][paginate]=100&with[0]=attachments`;

  beforeAll(async () => {
    t = await buildTestApp(target);
    admin = await t.as('admin@example.com');
    firstLine = await t.as('operator@example.com');
    client = await t.as('client@example.com');
    other = await t.as('other@example.com');
    const ticketOf = async (company: string) =>
      Number(
        (
          await t.db
            .selectFrom('tickets')
            .innerJoin('companies', 'companies.id', 'tickets.company_id')
            .select('tickets.id')
            .where('companies.name', '=', company)
            .where('tickets.is_template', '=', false)
            .orderBy('tickets.id')
            .executeTakeFirstOrThrow()
        ).id,
      );
    ticketId = await ticketOf('Jansen BV');
    otherTicketId = await ticketOf('De Vries Installaties');
    clientId = Number(
      (
        await t.db
          .selectFrom('users')
          .select('id')
          .where('email', '=', 'client@example.com')
          .executeTakeFirstOrThrow()
      ).id,
    );
    const quote = await t.db
      .selectFrom('quotes')
      .select(['id', 'tenant_id'])
      .orderBy('id')
      .executeTakeFirstOrThrow();
    quoteLink = {
      'x-quote-token': await createRecordToken(t.db, Number(quote.tenant_id), 'quotes', Number(quote.id)),
    };

    const create = async (visible: boolean, text: string) => {
      const res = await post(
        admin,
        [...onTicket(ticketId), ['message', text], ['visible_to_client', visible ? '1' : '0']],
        [{ field: 'file[0]', name: visible ? 'antwoord.pdf' : 'intern.pdf', content: demoPdf([text]) }],
      );
      expect(res.statusCode, res.body).toBe(201);
      return { id: res.json().id as number, attachmentId: res.json().attachments[0].id as number };
    };
    note = await create(false, '<p>Interne notitie: klant belt vaak.</p>');
    reply = await create(true, '<p>Wij komen morgen langs.</p>');
  });
  afterAll(() => t?.close());

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

  describe('a client writing', () => {
    it('posts a reply with a file: from the client, visible, sanitised, with the file', async () => {
      const res = await post(
        client,
        [
          ...onTicket(ticketId),
          ['message', '<p>Dank!<script>alert(1)</script><img src=x onerror=alert(1)></p>'],
          ['is_from_client', '1'],
          ['visible_to_client', '1'],
          ['action', 'send_from_portal'],
          ['activity_id', ''],
        ],
        [{ field: 'file[0]', name: 'foto.png', content: PNG }],
      );
      expect(res.statusCode, res.body).toBe(201);
      const message = res.json();
      expect(message.message).toBe('<p>Dank!</p>');
      expect(message.is_from_client).toBe(true);
      expect(message.visible_to_client).toBe(true);
      expect(message.actor).toMatchObject({ id: clientId, is_operator: 0 });
      expect(message.attachments).toHaveLength(1);
      expect(message.attachments[0]).toMatchObject({ name: 'foto.png', extension: 'png', size: PNG.length });
      expect((await inject('GET', message.attachments[0].url, {})).rawPayload.equals(PNG)).toBe(true);
      expect((await inject('GET', `/api/messages/${message.id}`, admin)).json().actor_id).toBe(clientId);
    });

    it('takes JSON as well, and the action with a suffix', async () => {
      const res = await inject('POST', '/api/messages', client, {
        morphable_type: 'ticket',
        morphable_id: ticketId,
        message: '<p>Via JSON</p>',
        action: 'send_from_portal_reply',
      });
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json().is_from_client).toBe(true);
    });

    it('cannot write a hidden message or one that is not from the client', async () => {
      const hidden = await post(client, [
        ...onTicket(ticketId),
        ['message', 'x'],
        ['visible_to_client', '0'],
      ]);
      expect(hidden.statusCode).toBe(422);
      expect(hidden.json().errors.visible_to_client).toEqual([
        'A message from the portal is always visible to the client.',
      ]);
      const notFromClient = await post(client, [
        ...onTicket(ticketId),
        ['message', 'x'],
        ['is_from_client', 'false'],
      ]);
      expect(notFromClient.statusCode).toBe(422);
      const typed = await post(client, [...onTicket(ticketId), ['message', 'x'], ['type', 'status-changed']]);
      expect(typed.statusCode).toBe(422);
      expect(typed.json().errors.type).toEqual(['The field "type" cannot be set from the portal.']);
      const mailing = await post(client, [...onTicket(ticketId), ['message', 'x'], ['send_to_client', '1']]);
      expect(mailing.statusCode).toBe(422);
    });

    it("cannot post on another company's ticket, or on a record that does not exist (404)", async () => {
      expect((await post(client, [...onTicket(otherTicketId), ['message', 'x']])).statusCode).toBe(404);
      expect((await post(client, [...onTicket(999_999), ['message', 'x']])).statusCode).toBe(404);
      const otherId = (
        await t.db
          .selectFrom('users')
          .select('id')
          .where('email', '=', 'other@example.com')
          .executeTakeFirstOrThrow()
      ).id;
      const onUser = await post(client, [
        ['morphable_type', 'user'],
        ['morphable_id', String(otherId)],
        ['message', 'x'],
      ]);
      expect(onUser.statusCode).toBe(404);
    });

    it('answers bad input with 422, never 500', async () => {
      for (const fields of [
        [['morphable_type', 'ticket']],
        [
          ['morphable_type', 'invoice'],
          ['morphable_id', '1'],
          ['message', 'x'],
        ],
        [...onTicket(ticketId), ['message', '<script>only</script>']],
        [...onTicket(ticketId), ['message', 'x'], ['attachment_ids[]', 'abc']],
        [...onTicket(ticketId), ['message', 'x'], ['action', 'delete_everything']],
        [
          ['morphable_type', 'ticket'],
          ['morphable_id', '-1'],
          ['message', 'x'],
        ],
      ] as [string, string][][]) {
        const res = await post(client, fields);
        expect(res.statusCode, `${JSON.stringify(fields)} ${res.body}`).toBe(422);
      }
      const file = await post(
        client,
        [...onTicket(ticketId), ['message', 'x']],
        [{ field: 'file[0]', name: 'x.exe', content: 'MZ' }],
      );
      expect(file.statusCode).toBe(422);
      const wrongField = await post(
        client,
        [...onTicket(ticketId), ['message', 'x']],
        [{ field: 'message', name: 'a.txt', content: 'x' }],
      );
      expect(wrongField.statusCode).toBe(422);
    });

    it('links only its own unlinked uploads, including the images its HTML shows', async () => {
      const uploadAs = async (headers: Record<string, string>) => {
        const form = multipart([['is_embedded', '1']], [{ field: 'file', name: 'plak.png', content: PNG }]);
        const res = await t.app.inject({
          method: 'POST',
          url: '/api/attachments',
          payload: form.payload,
          headers: { ...headers, ...form.headers },
        });
        expect(res.statusCode, res.body).toBe(201);
        return res.json() as { id: number; url: string };
      };
      const listed = await uploadAs(client);
      const shown = await uploadAs(client);
      const res = await post(client, [
        ...onTicket(ticketId),
        ['message', `<p>Zie afbeelding</p><p><img src="${shown.url}"></p>`],
        ['attachment_ids[]', String(listed.id)],
      ]);
      expect(res.statusCode, res.body).toBe(201);
      expect(
        res
          .json()
          .attachments.map((a: { id: number }) => a.id)
          .sort(),
      ).toEqual([listed.id, shown.id].sort());
      const stored = await t.db
        .selectFrom('messages')
        .select('message')
        .where('id', '=', res.json().id)
        .executeTakeFirstOrThrow();
      expect(stored.message).toBe(
        `<p>Zie afbeelding</p><p><img src="/api/attachments/${shown.id}/file" /></p>`,
      );
      // Each reader gets their own link in the HTML.
      expect(res.json().message).toMatch(
        new RegExp(`src="/api/attachments/${shown.id}/file\\?token=\\d+\\.c${clientId}\\.`),
      );

      // Already linked, someone else's, or unknown: refused.
      const again = await post(client, [
        ...onTicket(ticketId),
        ['message', 'x'],
        ['attachment_ids[]', String(listed.id)],
      ]);
      expect(again.statusCode).toBe(422);
      expect(again.json().errors['attachment_ids.0']).toEqual(['The selected attachment_ids.0 is invalid.']);
      const adminsUpload = await uploadAs(admin);
      expect(
        (
          await post(client, [
            ...onTicket(ticketId),
            ['message', 'x'],
            ['attachment_ids[]', String(adminsUpload.id)],
          ])
        ).statusCode,
      ).toBe(422);
    });
  });

  describe('an operator writing', () => {
    it('writes an internal note as JSON; it never reaches the client', async () => {
      const res = await inject('POST', '/api/messages', firstLine, {
        morphable_type: 'ticket',
        morphable_id: ticketId,
        message:
          '<p>Let op: <span class="mention" data-type="mention" data-id="1" data-label="Admin">@Admin</span></p>',
        visible_to_client: false,
      });
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json().message).toContain('data-type="mention" data-id="1"');
      expect(res.json().is_from_client).toBe(false);
      expect((await inject('GET', `/api/messages/${res.json().id}`, client)).statusCode).toBe(404);
    });

    it('writes on assets, companies and clients too, but not on another tenant’s or a missing record', async () => {
      const asset = await t.db.selectFrom('assets').select('id').orderBy('id').executeTakeFirstOrThrow();
      const company = await t.db.selectFrom('companies').select('id').orderBy('id').executeTakeFirstOrThrow();
      for (const [type, id] of [
        ['asset', asset.id],
        ['company', company.id],
        ['user', clientId],
      ] as const) {
        const res = await inject('POST', '/api/messages', admin, {
          morphable_type: type,
          morphable_id: id,
          message: 'x',
        });
        expect(res.statusCode, res.body).toBe(201);
      }
      const res = await inject('POST', '/api/messages', admin, {
        morphable_type: 'ticket',
        morphable_id: 999_999,
        message: 'x',
      });
      expect(res.statusCode).toBe(404);
    });
  });

  describe('updating and deleting', () => {
    it('an update with no changes changes nothing', async () => {
      const before = (await inject('GET', `/api/messages/${note.id}`, admin)).json();
      const res = await inject('PUT', `/api/messages/${note.id}`, admin, {});
      expect(res.statusCode).toBe(200);
      expect(res.json().updated_at).toBe(before.updated_at);
      expect(res.json().message).toBe(before.message);
    });

    it('an update is sanitised again and changes only what is sent', async () => {
      const res = await inject('PUT', `/api/messages/${note.id}`, admin, {
        message: '<p>Bijgewerkt<iframe src="javascript:alert(1)"></iframe></p>',
      });
      expect(res.statusCode).toBe(200);
      expect(res.json().message).toBe('<p>Bijgewerkt</p>');
      expect(res.json().visible_to_client).toBe(false);
    });

    it('a message stays on its record, and clients neither update nor delete', async () => {
      const moved = await inject('PUT', `/api/messages/${note.id}`, admin, { morphable_id: otherTicketId });
      expect(moved.statusCode).toBe(422);
      expect(moved.json().message).toBe('A message cannot be moved to another record.');
      expect((await inject('PUT', `/api/messages/${reply.id}`, client, { message: 'x' })).statusCode).toBe(
        403,
      );
      expect((await inject('DELETE', `/api/messages/${reply.id}`, client)).statusCode).toBe(403);
    });

    it('deletes a message with its attachments', async () => {
      const res = await inject('DELETE', `/api/messages/${note.id}`, admin);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ message: 'Message deleted.' });
      expect((await inject('GET', `/api/messages/${note.id}`, admin)).statusCode).toBe(404);
      expect((await inject('GET', `/api/attachments/${note.attachmentId}/file`, admin)).statusCode).toBe(404);
      expect((await inject('DELETE', `/api/messages/${note.id}`, admin)).statusCode).toBe(404);
    });
  });
});
