/**
 * Attachments (issue 5, item 2): POST /api/attachments takes one file within the size limit (413
 * past it) and of an allowed kind judged by extension and content (422 otherwise); the file is
 * served only to who may see it, with headers that keep it from running in the browser.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRecordToken } from '../../server/auth/plugin.ts';
import { demoPdf, demoPng } from '../../server/db/seed/demo-files.ts';
import { signedFileUrl, signingKey } from '../../server/files/signed-urls.ts';
import { buildTestApp, targets, type TestApp } from './harness.ts';
import { multipart, type FormFile } from './multipart.ts';

const LIMIT = 4096;
const ALLOWED = 'Allowed are images, PDF, office documents, audio, video, archives, code and text files.';

const PNG = demoPng(8, 8, [[10, 20, 30]]);
const SVG =
  '<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><circle r="4"/></svg>';

describe.each(targets)('attachments on $name', (target) => {
  let t: TestApp;
  let client: Record<string, string>;
  let other: Record<string, string>;
  let admin: Record<string, string>;
  let tenantId: number;

  beforeAll(async () => {
    t = await buildTestApp(target, { config: { attachmentMaxBytes: LIMIT } });
    client = await t.as('client@example.com');
    other = await t.as('other@example.com');
    admin = await t.as('admin@example.com');
    tenantId = Number((await t.db.selectFrom('tenants').select('id').executeTakeFirstOrThrow()).id);
  });
  afterAll(() => t?.close());

  const upload = (
    headers: Record<string, string>,
    file: Partial<FormFile>,
    fields: [string, string][] = [],
  ) => {
    const form = multipart(fields, [{ field: 'file', name: 'a.txt', content: 'hello', ...file }]);
    return t.app.inject({
      method: 'POST',
      url: '/api/attachments',
      payload: form.payload,
      headers: { ...headers, ...form.headers },
    });
  };
  const get = (url: string, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'GET', url, headers });
  const bare = (url: string) => url.replace(/\?token=.*$/, '');

  describe('the size limit', () => {
    it('takes a file of exactly the limit', async () => {
      const res = await upload(client, { name: 'full.txt', content: 'a'.repeat(LIMIT) });
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json().size).toBe(LIMIT);
    });

    it('answers 413 with a clear message one byte past it, and keeps nothing', async () => {
      const before = await t.db
        .selectFrom('attachments')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirst();
      const res = await upload(client, { name: 'big.txt', content: 'a'.repeat(LIMIT + 1) });
      expect(res.statusCode).toBe(413);
      expect(res.json()).toEqual({ message: 'The file is too large: the limit is 4096 bytes.' });
      const after = await t.db
        .selectFrom('attachments')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirst();
      expect(Number(after?.n)).toBe(Number(before?.n));
    });
  });

  describe('the kinds of file', () => {
    it.each([
      ['an image', 'shot.png', PNG, 'image/png'],
      ['a pdf', 'werkbon.pdf', demoPdf(['x']), 'application/pdf'],
      [
        'an office document (zip inside)',
        'offerte.docx',
        Buffer.from('PK\x03\x04rest of the zip', 'latin1'),
        null,
      ],
      ['an archive', 'logs.zip', Buffer.from('PK\x03\x04....', 'latin1'), 'application/zip'],
      ['audio', 'voicemail.mp3', Buffer.from('ID3\x03\x00\x00\x00\x00\x00\x00', 'latin1'), 'audio/mpeg'],
      ['video', 'clip.mp4', Buffer.from('\x00\x00\x00\x18ftypmp42\x00\x00\x00\x00', 'latin1'), 'video/mp4'],
      ['code', 'script.py', 'print("hallo")\n', 'text/plain'],
      ['text with accents', 'notitie.txt', 'Café, één en twee', 'text/plain'],
    ])('takes %s', async (_what, name, content, mime) => {
      const res = await upload(client, { name, content });
      expect(res.statusCode, res.body).toBe(201);
      if (mime) expect(res.json().mime_type).toBe(mime);
      expect(res.json().url).toMatch(/^\/api\/attachments\/\d+\/file\?token=/);
    });

    it.each([
      ['a program', 'setup.exe', 'MZ\x90\x00', `Files of type .exe are not allowed. ${ALLOWED}`],
      [
        'a file without extension',
        'README',
        'text',
        `Files without an extension are not allowed. ${ALLOWED}`,
      ],
      [
        'a .png that is really HTML',
        'photo.png',
        '<html><script>alert(1)</script></html>',
        `The content of the file does not match its extension .png. ${ALLOWED}`,
      ],
      [
        'a .pdf that is really a PNG',
        'doc.pdf',
        PNG,
        `The content of the file does not match its extension .pdf. ${ALLOWED}`,
      ],
      [
        'a .txt with NUL bytes',
        'bin.txt',
        Buffer.from([0x61, 0x00, 0x62]),
        `The content of the file does not match its extension .txt. ${ALLOWED}`,
      ],
      [
        'a .txt that is not UTF-8',
        'latin.txt',
        Buffer.from([0x63, 0x61, 0x66, 0xe9]),
        `The content of the file does not match its extension .txt. ${ALLOWED}`,
      ],
      [
        'an .svg that is no SVG',
        'x.svg',
        '<html></html>',
        `The content of the file does not match its extension .svg. ${ALLOWED}`,
      ],
      ['an empty file', 'empty.txt', '', 'The file is empty.'],
    ])('refuses %s with 422', async (_what, name, content, message) => {
      const res = await upload(client, { name, content });
      expect(res.statusCode, res.body).toBe(422);
      expect(res.json().message).toBe(message);
      expect(res.json().errors.file).toEqual([message]);
    });

    it('stores under a random name, never the uploaded one', async () => {
      const res = await upload(client, { name: '../../etc/passwd.txt', content: 'root' });
      expect(res.statusCode).toBe(201);
      expect(res.json().name).toBe('passwd.txt');
      const row = await t.db
        .selectFrom('attachments')
        .select('path')
        .where('id', '=', res.json().id)
        .executeTakeFirstOrThrow();
      expect(row.path).toMatch(/^[0-9a-f]{2}\/[0-9a-f]{30}$/);
    });
  });

  describe('the call', () => {
    it('needs a file, in a multipart form, and no unknown fields', async () => {
      const none = multipart([['is_embedded', '1']]);
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/attachments',
        payload: none.payload,
        headers: { ...client, ...none.headers },
      });
      expect(res.statusCode).toBe(422);
      expect(res.json().errors.file).toEqual(['The file field is required.']);
      const json = await t.app.inject({
        method: 'POST',
        url: '/api/attachments',
        payload: { name: 'x' },
        headers: client,
      });
      expect(json.statusCode).toBe(422);
      expect((await upload(client, {}, [['path', '/etc/passwd']])).statusCode).toBe(422);
      expect((await upload(client, {}, [['is_embedded', 'maybe']])).json().errors.is_embedded).toEqual([
        'The is_embedded field must be true or false.',
      ]);
    });

    it('is refused to a quote-link holder and to nobody', async () => {
      const quote = await t.db.selectFrom('quotes').select('id').orderBy('id').executeTakeFirstOrThrow();
      const token = await createRecordToken(t.db, tenantId, 'quotes', Number(quote.id));
      expect((await upload({ 'x-quote-token': token }, {})).statusCode).toBe(403);
      expect((await upload({}, {})).statusCode).toBe(401);
    });

    it('adds a file to a message the client wrote, not to an operator’s or an invisible one', async () => {
      const own = await t.db
        .selectFrom('messages')
        .innerJoin('users', 'users.id', 'messages.actor_id')
        .select('messages.id')
        .where('users.email', '=', 'client@example.com')
        .executeTakeFirstOrThrow();
      const res = await upload(client, { name: 'bijlage.txt' }, [['message_id', String(own.id)]]);
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json().message_id).toBe(own.id);

      const operators = await t.db
        .selectFrom('messages')
        .select('id')
        .where('visible_to_client', '=', true)
        .where('is_from_client', '=', false)
        .where('morphable_type', '=', 'ticket')
        .where(
          'morphable_id',
          'in',
          t.db
            .selectFrom('tickets')
            .select('tickets.id')
            .innerJoin('companies', 'companies.id', 'tickets.company_id')
            .where('companies.name', '=', 'Jansen BV'),
        )
        .executeTakeFirstOrThrow();
      const refused = await upload(client, {}, [['message_id', String(operators.id)]]);
      expect(refused.statusCode).toBe(422);
      expect(refused.json().message).toBe('You can only add files to your own messages.');
      expect((await upload(other, {}, [['message_id', String(own.id)]])).statusCode).toBe(404);
    });
  });

  describe('serving the file', () => {
    it('shows a PNG inline, with nosniff, a sandbox and the right type', async () => {
      const res = await upload(client, { name: 'schermafbeelding.png', content: PNG }, [
        ['is_embedded', '1'],
      ]);
      const file = await get(res.json().url);
      expect(file.statusCode).toBe(200);
      expect(file.rawPayload.equals(PNG)).toBe(true);
      expect(file.headers['content-type']).toBe('image/png');
      expect(file.headers['content-disposition']).toBe('inline; filename="schermafbeelding.png"');
      expect(file.headers['x-content-type-options']).toBe('nosniff');
      expect(file.headers['content-security-policy']).toBe('sandbox');
      expect(file.headers['content-length']).toBe(String(PNG.length));
    });

    it('serves SVG and HTML as downloads, never inline, whatever the upload said its type was', async () => {
      const svg = await upload(client, { name: 'logo.svg', content: SVG, type: 'image/png' });
      expect(svg.statusCode, svg.body).toBe(201);
      const file = await get(svg.json().url);
      expect(file.statusCode).toBe(200);
      expect(file.headers['content-type']).toBe('image/svg+xml; charset=utf-8');
      expect(file.headers['content-disposition']).toBe('attachment; filename="logo.svg"');
      expect(file.headers['content-security-policy']).toBe('sandbox');
      expect(file.headers['x-content-type-options']).toBe('nosniff');

      const html = await upload(client, {
        name: 'pagina.html',
        content: '<script>alert(1)</script>',
        type: 'image/png',
      });
      const page = await get(html.json().url);
      expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(page.headers['content-disposition']).toBe('attachment; filename="pagina.html"');
    });

    it('names a file with accents in filename* (RFC 6266)', async () => {
      const res = await upload(client, { name: 'überblick.txt' });
      const file = await get(res.json().url);
      expect(file.headers['content-disposition']).toBe(
        `attachment; filename="uberblick.txt"; filename*=UTF-8''%C3%BCberblick.txt`,
      );
    });

    it('gives an upload without a message to its uploader and operators only', async () => {
      const res = await upload(client, { name: 'inline.png', content: PNG }, [['is_embedded', '1']]);
      const url = bare(res.json().url);
      expect((await get(url, client)).statusCode).toBe(200);
      expect((await get(url, admin)).statusCode).toBe(200);
      expect((await get(url, other)).statusCode).toBe(404);
      expect((await get(url)).statusCode).toBe(401);
    });

    it('refuses a forged, moved or expired link with 404', async () => {
      const res = await upload(client, { name: 'inline.png', content: PNG }, [['is_embedded', '1']]);
      const { id, url } = res.json();
      const key = await signingKey(t.db);
      expect((await get(url.replace(/.$/, (c: string) => (c === 'A' ? 'B' : 'A')))).statusCode).toBe(404);
      expect((await get(url.replace(`/attachments/${id}/`, `/attachments/${id - 1}/`))).statusCode).toBe(404);
      const adminId = Number(
        (
          await t.db
            .selectFrom('users')
            .select('id')
            .where('email', '=', 'admin@example.com')
            .executeTakeFirstOrThrow()
        ).id,
      );
      const expired = signedFileUrl(
        key,
        tenantId,
        id,
        { kind: 'operator', userId: adminId },
        Date.now() - 7 * 3600_000,
      );
      expect(
        (await get(signedFileUrl(key, tenantId, id, { kind: 'operator', userId: adminId }))).statusCode,
      ).toBe(200);
      expect((await get(expired)).statusCode).toBe(404);
      // A link made for another client opens nothing of this client's.
      const otherId = Number(
        (
          await t.db
            .selectFrom('users')
            .select('id')
            .where('email', '=', 'other@example.com')
            .executeTakeFirstOrThrow()
        ).id,
      );
      expect(
        (await get(signedFileUrl(key, tenantId, id, { kind: 'client', userId: otherId }))).statusCode,
      ).toBe(404);
      expect((await get(`/api/attachments/abc/file`, admin)).statusCode).toBe(422);
    });

    it('makes the demo attachments real files', async () => {
      const rows = await t.db
        .selectFrom('attachments')
        .select(['id', 'path', 'size', 'extension'])
        .where('message_id', 'is not', null)
        .execute();
      expect(rows.length).toBeGreaterThan(0);
      for (const row of rows) {
        const file = await get(`/api/attachments/${row.id}/file`, admin);
        expect(file.statusCode).toBe(200);
        expect(file.rawPayload.length).toBe(row.size);
      }
    });
  });
});
