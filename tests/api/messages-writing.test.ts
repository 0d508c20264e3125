/**
 * Message writes (issue 5, item 1) follow the server's rules: a client posts only visible replies of
 * her own, sanitised, with her own files, on her company's records; an operator writes internal notes
 * and on assets, companies and clients; an update is sanitised again and keeps its record; a delete
 * takes the message's files. What each identity sees: tests/api/messages-reading.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoPng } from '../../server/db/seed/demo-files.ts';
import { targets } from './harness.ts';
import { multipart } from './multipart.ts';
import { onTicket, startMessagesDesk, type MessagesDesk } from './messages-world.ts';

const PNG = demoPng(8, 8, [[200, 10, 10]]);

describe.each(targets)('messages on $name', (target) => {
  let { t, inject, post, admin, firstLine, client, ticketId, otherTicketId, clientId, note, reply, close } =
    {} as MessagesDesk;

  beforeAll(async () => {
    ({ t, inject, post, admin, firstLine, client, ticketId, otherTicketId, clientId, note, reply, close } =
      await startMessagesDesk(target));
  });
  afterAll(() => close?.());

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
