/**
 * Random and hostile multipart bodies thrown at every route that reads one (issue 12): broken and
 * missing boundaries, missing or huge part headers, many parts, wrong content types, bodies cut off
 * at any byte. Whatever they are, the answer is never a 5xx, the process stays up, and the store
 * holds exactly the files of attachment rows (nothing half-written, nothing without its row).
 */
import { readdir } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { demoPng } from '../../server/db/seed/demo-files.ts';
import { type TestApp, buildTestApp, firstClientTicketId, targets } from './harness.ts';
import { multipart } from './multipart.ts';

const LIMIT = 8 * 1024;
const PNG = demoPng(4, 4, [[1, 2, 3]]);

type ValueOf<A> = A extends fc.Arbitrary<infer T> ? T : never;

const hostile = fc.constantFrom(
  '',
  '__proto__',
  'constructor',
  'hasOwnProperty',
  '../../etc/passwd',
  'C:\\Windows\\win.ini',
  '<script>alert(1)</script>',
  "'; drop table attachments; --",
  '\u0000',
  'ＳＥＬＥＣＴ',
  '9'.repeat(40),
  'a'.repeat(300),
);
const fieldName = fc.oneof(
  fc.constantFrom(
    'file',
    'file[0]',
    'file[]',
    'files',
    'message_id',
    'is_embedded',
    'message',
    'morphable_type',
    'morphable_id',
    'visible_to_client',
    'attachment_ids[]',
    'to[]',
    'action',
    'tenant_id',
  ),
  hostile,
  fc.string({ maxLength: 12 }),
);
const fieldValue = fc.oneof(
  hostile,
  fc.string({ maxLength: 40 }),
  fc.integer().map(String),
  fc.constantFrom('1', '0', 'true', 'ticket', 'company', '{"a":', '<p>hoi</p>', 'send_from_portal'),
);
const contentType = fc.oneof(
  fc.constantFrom(
    'application/octet-stream',
    'text/plain',
    'image/png',
    'application/json',
    'text/html; charset=utf-7',
    'multipart/mixed; boundary=x',
    '',
  ),
  fc.string({ maxLength: 30 }),
);
const content = fc.oneof(
  fc.uint8Array({ maxLength: 3000 }).map((a) => Buffer.from(a)),
  fc.string({ maxLength: 200 }).map((s) => Buffer.from(s)),
  fc.constant(PNG),
  fc.constant(Buffer.from('a'.repeat(LIMIT + 1))),
  fc.constant(Buffer.from('%PDF-1.4\n%\u00e2\u00e3\n')),
);

/** One part's header block, often wrong: missing disposition, no colon, a huge line, odd names. */
const partHead = fc.record({
  disposition: fc.oneof(
    { weight: 6, arbitrary: fc.constant('good' as const) },
    fc.constantFrom('missing', 'no-name', 'garbage', 'inline', 'no-colon', 'unquoted'),
  ),
  name: fieldName,
  filename: fc.option(fc.oneof(fc.constantFrom('a.txt', 'shot.png', 'x.exe', 'a.svg'), hostile), {
    nil: undefined,
  }),
  type: fc.option(contentType, { nil: undefined }),
  extra: fc.option(
    fc.oneof(
      fc.constant(`X-Long: ${'h'.repeat(100_000)}`),
      fc.constant('Content-Transfer-Encoding: base64'),
      fc.string({ maxLength: 40 }),
    ),
    { nil: undefined },
  ),
});
const part = fc.record({
  head: partHead,
  body: fc.oneof(
    fieldValue.map((v) => Buffer.from(v)),
    content,
  ),
});

function headLines(head: ValueOf<typeof partHead>): string[] {
  const filename = head.filename === undefined ? '' : `; filename="${head.filename}"`;
  const lines: string[] = [];
  switch (head.disposition) {
    case 'good':
      lines.push(`Content-Disposition: form-data; name="${head.name}"${filename}`);
      break;
    case 'no-name':
      lines.push(`Content-Disposition: form-data${filename}`);
      break;
    case 'garbage':
      lines.push(`Content-Disposition: ;;;=="${head.name}`);
      break;
    case 'inline':
      lines.push(`Content-Disposition: inline; name="${head.name}"${filename}`);
      break;
    case 'no-colon':
      lines.push(`Content-Disposition form-data name="${head.name}"`);
      break;
    case 'unquoted':
      lines.push(`Content-Disposition: form-data; name=${head.name}${filename}`);
      break;
    case 'missing':
      break;
  }
  if (head.type !== undefined) lines.push(`Content-Type: ${head.type}`);
  if (head.extra !== undefined) lines.push(head.extra);
  return lines;
}

const body = fc.record({
  boundary: fc.oneof(
    { weight: 4, arbitrary: fc.constant('----fuzz7MA4YWxkTrZu0gW') },
    fc.string({ minLength: 1, maxLength: 80 }),
  ),
  header: fc.oneof(
    { weight: 5, arbitrary: fc.constant('same' as const) },
    fc.constantFrom('other', 'none', 'empty', 'quoted', 'long', 'mixed', 'text', 'json', 'urlencoded'),
  ),
  newline: fc.constantFrom('\r\n', '\r\n', '\n'),
  preamble: fc.option(fc.string({ maxLength: 30 }), { nil: undefined }),
  parts: fc.oneof(
    { weight: 5, arbitrary: fc.array(part, { maxLength: 6 }) },
    // Past the parts limit; without the huge header line, so the body stays a few megabytes.
    fc
      .tuple(part, fc.integer({ min: 150, max: 400 }))
      .map(([p, n]) => Array<typeof p>(n).fill({ ...p, head: { ...p.head, extra: undefined } })),
  ),
  close: fc.constantFrom('close', 'close', 'none', 'epilogue', 'half'),
  cut: fc.option(fc.double({ min: 0, max: 1, noNaN: true }), { nil: undefined }),
});

function contentTypeHeader(b: ValueOf<typeof body>): string | undefined {
  switch (b.header) {
    case 'same':
      return `multipart/form-data; boundary=${b.boundary}`;
    case 'other':
      return 'multipart/form-data; boundary=----somethingelse';
    case 'none':
      return 'multipart/form-data';
    case 'empty':
      return 'multipart/form-data; boundary=';
    case 'quoted':
      return `multipart/form-data; boundary="${b.boundary.replace(/["\\]/g, '')}"`;
    case 'long':
      return `multipart/form-data; boundary=${'b'.repeat(300)}`;
    case 'mixed':
      return `multipart/mixed; boundary=${b.boundary}`;
    case 'text':
      return 'text/plain';
    case 'json':
      return 'application/json';
    case 'urlencoded':
      return 'application/x-www-form-urlencoded';
  }
}

function payloadOf(b: ValueOf<typeof body>): Buffer {
  const nl = b.newline;
  const chunks: Buffer[] = [];
  if (b.preamble !== undefined) chunks.push(Buffer.from(b.preamble + nl));
  for (const p of b.parts) {
    chunks.push(
      Buffer.from(`--${b.boundary}${nl}${headLines(p.head).join(nl)}${nl}${nl}`),
      p.body,
      Buffer.from(nl),
    );
  }
  if (b.close === 'close') chunks.push(Buffer.from(`--${b.boundary}--${nl}`));
  if (b.close === 'epilogue') chunks.push(Buffer.from(`--${b.boundary}--${nl}trailing words`));
  if (b.close === 'half') chunks.push(Buffer.from(`--${b.boundary}-`));
  const whole = Buffer.concat(chunks);
  return b.cut === undefined ? whole : whole.subarray(0, Math.floor(whole.length * b.cut));
}

/** Files under the store's folder, as store keys (`ab/…`, a half-written one ends in `.part`). */
async function storedKeys(root: string): Promise<string[]> {
  const entries = await readdir(root, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries
    .filter((e) => e.isFile())
    .map((e) => relative(root, join(e.parentPath, e.name)))
    .sort();
}

describe.each(targets)('hostile multipart bodies on $name', (target) => {
  let t: TestApp;
  let root: string;
  let ticketId: number;
  let messageId: number;

  beforeAll(async () => {
    t = await buildTestApp(target, { config: { attachmentMaxBytes: LIMIT } });
    root = join(t.config.dataDir, 'files');
    ticketId = await firstClientTicketId(t.db);
    messageId = Number(
      (await t.db.selectFrom('messages').select('id').orderBy('id').executeTakeFirstOrThrow()).id,
    );
  });
  afterAll(() => t?.close());

  /** Every route that reads a multipart body, and the JSON-only update of a message beside them. */
  const routes = () => [
    { method: 'POST' as const, url: '/api/attachments' },
    { method: 'POST' as const, url: '/api/messages' },
    { method: 'PUT' as const, url: `/api/messages/${messageId}` },
  ];

  for (const caller of ['admin@example.com', 'client@example.com']) {
    // A generous budget: the machine running the suite may be busy; a hang still fails.
    it(`never a 5xx for ${caller}, and nothing stored without its row`, { timeout: 300_000 }, async () => {
      const headers = await t.as(caller);
      await fc.assert(
        fc.asyncProperty(fc.constantFrom(0, 1, 2), body, async (r, b) => {
          const { method, url } = routes()[r]!;
          const type = contentTypeHeader(b);
          const res = await t.app.inject({
            method,
            url,
            payload: payloadOf(b),
            headers: { ...headers, ...(type === undefined ? {} : { 'content-type': type }) },
          });
          expect(res.statusCode, `${method} ${url} ${res.body.slice(0, 200)}`).toBeLessThan(500);
        }),
        { numRuns: 500 },
      );
      const rows = await t.db.selectFrom('attachments').select('path').execute();
      expect(await storedKeys(root)).toEqual(rows.map((row) => row.path).sort());
      expect((await t.app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
    });
  }

  // Found by the property above in CI: busboy takes an application/octet-stream part without a file
  // name for a file, and reading its name crashed the request (500).
  it('a file part without a file name answers 422 on both upload routes and stores nothing', async () => {
    const client = await t.as('client@example.com');
    const before = await storedKeys(root);
    const boundary = 'nameless-file';
    const payload = (field: string) =>
      Buffer.from(
        [
          `--${boundary}`,
          `Content-Disposition: form-data; name="${field}"`,
          'Content-Type: application/octet-stream',
          '',
          '0',
          `--${boundary}--`,
          '',
        ].join('\r\n'),
      );
    for (const [url, field] of [
      ['/api/attachments', 'file'],
      ['/api/messages', 'file[0]'],
    ]) {
      const res = await t.app.inject({
        method: 'POST',
        url,
        payload: payload(field!),
        headers: { ...client, 'content-type': `multipart/form-data; boundary=${boundary}` },
      });
      expect(res.statusCode, res.body).toBe(422);
      expect(res.json().errors[field!]).toEqual(['Every file needs a file name.']);
    }
    expect(await storedKeys(root)).toEqual(before);
  });

  it('a well-formed form cut off at any byte before its close delimiter answers 400', async () => {
    const client = await t.as('client@example.com');
    const forms = [
      () => multipart([], [{ field: 'file', name: 'notitie.txt', content: 'hallo\n'.repeat(200) }]),
      () =>
        multipart(
          [
            ['morphable_type', 'ticket'],
            ['morphable_id', String(ticketId)],
            ['message', '<p>Zie bijlage.</p>'],
          ],
          [{ field: 'file[0]', name: 'shot.png', content: PNG }],
          [['description', 'Schermafdruk']],
        ),
    ];
    const urls = ['/api/attachments', '/api/messages'];
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(0, 1), fc.double({ min: 0, max: 1, noNaN: true }), async (i, at) => {
        const form = forms[i]!();
        // Everything up to the last byte of `--boundary--` is missing something.
        const end = form.payload.lastIndexOf('--\r\n');
        const cut = form.payload.subarray(0, Math.floor(end * at) + 1);
        const res = await t.app.inject({
          method: 'POST',
          url: urls[i]!,
          payload: cut,
          headers: { ...client, ...form.headers },
        });
        expect(res.statusCode, `${urls[i]} cut at ${cut.length}: ${res.body}`).toBe(400);
      }),
      { numRuns: 300 },
    );
    const rows = await t.db.selectFrom('attachments').select('path').execute();
    expect(await storedKeys(root)).toEqual(rows.map((row) => row.path).sort());
  });
});
