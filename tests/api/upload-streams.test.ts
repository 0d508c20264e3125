/**
 * Uploads that break off (issue 12, finding 1): a multipart body that ends before its closing
 * boundary, to every route that takes files, answers 400 and keeps nothing (no row, no file); a
 * client that drops the connection mid-upload, against a real listening server, leaves no
 * half-written file and the server answers the next request. With files on disk on both engines, and
 * with files in the database (FILES_STORE=postgres, the default with DATABASE_URL) on PostgreSQL,
 * where the finding's upload hung: a store that writes through the pool is where a stream nobody
 * reads any more would wait.
 */
import { readdir } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type TestApp, buildTestApp, firstClientTicketId, targets } from './harness.ts';
import { multipart } from './multipart.ts';

const LIMIT = 256 * 1024;
const CUT_OFF = { message: 'The upload was cut off before the form was complete.' };
/** Text with no line breaks or dashes, so no cut can end on something that reads as a boundary. */
const TEXT = 'regel van het logbestand '.repeat(4000).slice(0, 100_000);

/** Every file under the store's folder, finished (`ab/…`) or half-written (`ab/….part`). */
async function filesOnDisk(root: string): Promise<string[]> {
  const entries = await readdir(root, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name))
    .sort();
}

/** Files on disk on every engine; in the database too on PostgreSQL, where that is the default store. */
const cases = targets.flatMap((target) => [
  { target, store: 'local' as const, name: `${target.name}, files on disk` },
  ...(target.name === 'postgres'
    ? [{ target, store: 'postgres' as const, name: `${target.name}, files in the database` }]
    : []),
]);

describe.each(cases)('uploads that break off on $name', ({ target, store }) => {
  let t: TestApp;
  let root: string;
  let client: Record<string, string>;
  let admin: Record<string, string>;
  let ticketId: number;
  let messageId: number;

  const count = async (table: 'attachments' | 'messages') =>
    Number(
      (
        await t.db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  /** Every file of the store, finished (`key`) or half-written (`key.part`), in the same words for both. */
  const storedFiles = async (): Promise<string[]> => {
    if (store === 'local') return filesOnDisk(root);
    const { rows } = await sql<{ key: string; complete: boolean }>`
      select key, complete from stored_files order by key`.execute(t.db);
    return rows.map((r) => (r.complete ? r.key : `${r.key}.part`));
  };
  const snapshot = async () => ({
    attachments: await count('attachments'),
    messages: await count('messages'),
    files: await storedFiles(),
  });

  beforeAll(async () => {
    t = await buildTestApp(target, { config: { attachmentMaxBytes: LIMIT, filesStore: store } });
    root = join(t.config.dataDir, 'files');
    client = await t.as('client@example.com');
    admin = await t.as('admin@example.com');
    ticketId = await firstClientTicketId(t.db);
    const message = await t.db.selectFrom('messages').select('id').orderBy('id').executeTakeFirstOrThrow();
    messageId = Number(message.id);
  });
  afterAll(() => t?.close());

  /** The routes that take files, each with the form fields it needs. */
  const routes = () =>
    [
      { name: 'an upload', url: '/api/attachments', as: client, fields: [], field: 'file' },
      {
        name: 'a file added to an existing message',
        url: '/api/attachments',
        as: admin,
        fields: [['message_id', String(messageId)]],
        field: 'file',
      },
      {
        name: 'a new message with files',
        url: '/api/messages',
        as: client,
        fields: [
          ['morphable_type', 'ticket'],
          ['morphable_id', String(ticketId)],
          ['message', '<p>Het logbestand van vannacht.</p>'],
        ],
        field: 'file[0]',
      },
    ] as {
      name: string;
      url: string;
      as: Record<string, string>;
      fields: [string, string][];
      field: string;
    }[];
  const names = ['an upload', 'a file added to an existing message', 'a new message with files'];
  const route = (name: string) => routes().find((r) => r.name === name)!;

  const post = (url: string, headers: Record<string, string>, payload: Buffer) =>
    t.app.inject({ method: 'POST', url, headers, payload });

  describe.each(names)('%s', (name) => {
    it('cut off in the middle of its file answers 400 and keeps nothing', { timeout: 20_000 }, async () => {
      const { url, as, fields, field } = route(name);
      const form = multipart(fields, [{ field, name: 'log.txt', content: TEXT, type: 'text/plain' }]);
      const before = await snapshot();
      const res = await post(url, { ...as, ...form.headers }, form.payload.subarray(0, 60_000));
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json()).toEqual(CUT_OFF);
      expect(await snapshot()).toEqual(before);
      expect((await t.app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
    });

    it('cut off in a field after its file answers 400 and removes the stored file', async () => {
      const { url, as, fields, field } = route(name);
      const form = multipart(
        fields,
        [{ field, name: 'log.txt', content: TEXT, type: 'text/plain' }],
        [['is_embedded', '0']],
      );
      const before = await snapshot();
      // The closing boundary and the last byte of the field's value are missing.
      const cut = form.payload.subarray(0, form.payload.lastIndexOf('0\r\n--'));
      const res = await post(url, { ...as, ...form.headers }, cut);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json()).toEqual(CUT_OFF);
      expect(await snapshot()).toEqual(before);
    });

    it('cut off inside its closing boundary, after an empty file, answers 400', async () => {
      const { url, as, fields, field } = route(name);
      const form = multipart(fields, [{ field, name: '', content: '' }]);
      const before = await snapshot();
      // `--boundary-`: the parser has already ended the empty file when it learns the body broke off.
      const cut = form.payload.subarray(0, form.payload.length - '-\r\n'.length);
      const res = await post(url, { ...as, ...form.headers }, cut);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json()).toEqual(CUT_OFF);
      expect(await snapshot()).toEqual(before);
    });

    it('whole, over the size limit, still answers 413 and keeps nothing', async () => {
      const { url, as, fields, field } = route(name);
      const form = multipart(fields, [{ field, name: 'big.txt', content: 'a'.repeat(LIMIT + 1) }]);
      const before = await snapshot();
      const res = await post(url, { ...as, ...form.headers }, form.payload);
      expect(res.statusCode, res.body).toBe(413);
      expect(await snapshot()).toEqual(before);
    });
  });

  describe('a client that drops the connection mid-upload, on a listening server', () => {
    let port: number;
    beforeAll(async () => {
      await t.app.listen({ port: 0, host: '127.0.0.1' });
      port = (t.app.server.address() as AddressInfo).port;
    });

    const health = () =>
      new Promise<number>((resolve, reject) => {
        httpRequest({ host: '127.0.0.1', port, path: '/api/health' }, (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        })
          .on('error', reject)
          .end();
      });

    it.each(names)('%s: no half-written file stays, the server answers the next request', async (name) => {
      const { url, as, fields, field } = route(name);
      const form = multipart(fields, [{ field, name: 'log.txt', content: TEXT, type: 'text/plain' }]);
      const before = await snapshot();
      const socket = connect(port, '127.0.0.1');
      socket.on('error', () => {});
      const head = [
        `POST ${url} HTTP/1.1`,
        'Host: localhost',
        `Content-Type: ${form.headers['content-type']}`,
        `Content-Length: ${form.payload.length}`,
        ...Object.entries(as).map(([k, v]) => `${k}: ${v}`),
        '',
        '',
      ].join('\r\n');
      socket.write(head);
      socket.write(form.payload.subarray(0, 80_000));
      // The server has started writing the file: a half-written file is in the store.
      await vi.waitFor(
        async () => expect((await storedFiles()).some((f) => f.endsWith('.part'))).toBe(true),
        { timeout: 15_000, interval: 20 },
      );
      socket.destroy();
      await vi.waitFor(async () => expect(await storedFiles()).toEqual(before.files), {
        timeout: 15_000,
        interval: 50,
      });
      expect(await health()).toBe(200);
      expect(await snapshot()).toEqual(before);
    });
  });
});
