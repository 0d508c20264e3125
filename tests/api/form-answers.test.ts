/**
 * The two multipart routes answer bad input from their own schemas (issue 34): the upload
 * (POST /api/attachments) and the message (POST /api/messages), as a form and, for the message, as
 * JSON. Each answer is the whole 422 body: the schema's line of each field (its x-error where it has
 * one), the lines of the rules only the caller or the database can say, all at once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { targets } from './harness.ts';
import type { FormFile } from './multipart.ts';
import { onTicket, startMessagesDesk, type MessagesDesk } from './messages-world.ts';

describe.each(targets)('the multipart routes’ answers on $name', (target) => {
  let { t, inject, post, upload, admin, client, ticketId, close } = {} as MessagesDesk;
  beforeAll(async () => {
    ({ t, inject, post, upload, admin, client, ticketId, close } = await startMessagesDesk(target));
  });
  afterAll(() => close?.());

  const note: FormFile = { field: 'file', name: 'notitie.txt', content: 'hallo' };

  describe('the upload', () => {
    it('says every wrong field at once, in its own words', async () => {
      const res = await upload(client, [
        ['is_embedded', 'maybe'],
        ['message_id', '0'],
        ['path', '/etc/passwd'],
      ]);
      expect(res.statusCode).toBe(422);
      expect(res.json()).toEqual({
        message: 'The file field is required.',
        errors: {
          file: ['The file field is required.'],
          path: ['Unknown field "path".'],
          is_embedded: ['The is_embedded field must be true or false.'],
          message_id: ['The message_id must be a positive whole number.'],
        },
      });
    });

    it('says that a file sent as text is no file', async () => {
      const res = await upload(client, [['file', 'x.png']]);
      expect(res.json()).toEqual({
        message: 'The file field must be sent as a file.',
        errors: { file: ['The file field must be sent as a file.'] },
      });
    });

    it('takes the form words for true and an empty message_id as none', async () => {
      const res = await upload(
        client,
        [
          ['is_embedded', 'on'],
          ['message_id', ''],
        ],
        [note],
      );
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json()).toMatchObject({ is_embedded: true, message_id: null, name: 'notitie.txt' });
    });

    it('refuses JSON: an upload is a form', async () => {
      const res = await inject('POST', '/api/attachments', client, { file: 'x' });
      expect(res.json()).toEqual({
        message: 'The file must be sent as multipart/form-data in the field file.',
        errors: { file: ['The file must be sent as multipart/form-data in the field file.'] },
      });
    });
  });

  describe('the message', () => {
    it('says the schema’s lines and the portal’s rules in one answer', async () => {
      const res = await post(client, [
        ...onTicket(ticketId),
        ['message', 'x'],
        ['visible_to_client', '0'],
        ['type', 'status-changed'],
        ['attachment_ids[]', 'abc'],
        ['action', 'delete_everything'],
      ]);
      expect(res.statusCode).toBe(422);
      const lines = {
        'attachment_ids.0': ['Each of the attachment_ids must be a positive whole number.'],
        action: ['The action must be send_from_portal, optionally followed by a suffix.'],
        visible_to_client: ['A message from the portal is always visible to the client.'],
        type: ['The field "type" cannot be set from the portal.'],
      };
      // The schema's lines come first, the caller's after them.
      expect(res.json()).toEqual({ message: lines['attachment_ids.0'][0], errors: lines });
      expect(Object.keys(res.json().errors)).toEqual(Object.keys(lines));
    });

    it('refuses an operator’s message to the client that is hidden from the client', async () => {
      const res = await inject('POST', '/api/messages', admin, {
        ...Object.fromEntries(onTicket(ticketId)),
        morphable_id: ticketId,
        message: '<p>Hallo</p>',
        send_to_client: true,
        visible_to_client: false,
      });
      expect(res.json()).toEqual({
        message: 'A message sent to the client must be visible to the client.',
        errors: { visible_to_client: ['A message sent to the client must be visible to the client.'] },
      });
    });

    it('links at most 50 uploads at once', async () => {
      const ids = Array.from({ length: 51 }, (_, i) => ['attachment_ids[]', String(i + 1)]);
      const res = await post(admin, [
        ...onTicket(ticketId),
        ['message', 'x'],
        ...(ids as [string, string][]),
      ]);
      expect(res.json()).toEqual({
        message: 'At most 50 attachments can be linked at once.',
        errors: { attachment_ids: ['At most 50 attachments can be linked at once.'] },
      });
    });

    it('names the missing, the unknown and the text in a file field', async () => {
      const res = await post(admin, [
        ['morphable_type', 'invoice'],
        ['morphable_id', '1'],
        ['colour', 'red'],
        ['file[0]', 'x.pdf'],
      ]);
      expect(res.statusCode).toBe(422);
      expect(res.json().errors).toEqual({
        message: ['The message field is required.'],
        morphable_type: ['The selected morphable_type is invalid.'],
        colour: ['Unknown field "colour".'],
        file: ['The file field must be sent as a file.'],
      });
    });

    it('answers a call without a body, and JSON that is no object, in one line', async () => {
      const none = await t.app.inject({ method: 'POST', url: '/api/messages', headers: admin });
      const line = 'The request body must be a JSON object or a multipart form.';
      expect(none.json()).toEqual({ message: line, errors: { body: [line] } });
      const list = await inject('POST', '/api/messages', admin, [1, 2] as never);
      expect(list.json()).toEqual({ message: line, errors: { body: [line] } });
    });

    it('refuses a long address by its length before any pattern reads it', async () => {
      const res = await inject('POST', '/api/messages', admin, {
        morphable_type: 'ticket',
        morphable_id: ticketId,
        message: '<p>Hallo</p>',
        send_to_client: true,
        to: [`a@${'a.'.repeat(400_000)}@`],
      });
      expect(res.statusCode).toBe(422);
      expect(res.json().errors).toEqual({ to: ['The to may not be longer than 255 characters.'] });
    });
  });
});
