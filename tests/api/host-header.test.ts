/**
 * Issue 31 item 4: link poisoning through the Host header. A Host such as `localhost:80@attacker.com`
 * is user info before attacker.com to a browser; it passed the "this machine" check and the reset mail
 * linked to attacker.com. Over real HTTP (a raw socket: fetch would write its own Host), every link the
 * server makes from the request (the reset, quote and export mails, the sign-on redirect URI) is tried
 * with hostile hosts: each answers 400 and mails, queues or calls nothing; a plain host gets its links on
 * exactly that origin, read from the mails on a loopback SMTP server.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, targets, type TestApp } from './harness.ts';
import { startSmtp, type LoopbackSmtp, type ParsedMail } from './smtp.ts';
import { rawRequest } from './raw-socket.ts';

const HOST_NOT_PLAIN = 'The Host header must be a host name or address with an optional port.';

/** Hosts that name, or may name to some reader, a machine other than this one. */
const HOSTILE = [
  'localhost:80@attacker.com',
  'localhost:@attacker.com',
  'localhost@attacker.com',
  '127.0.0.1:3000@attacker.com',
  'user:pass@localhost',
  'localhost:3000:@attacker.com',
  '[::1]@attacker.com',
  '[::1]:80@attacker.com',
  'localhost\\@attacker.com',
  'localhost%40attacker.com',
  'localhost:80%40attacker.com',
  'local%68ost',
  'localhost:3000#@attacker.com',
  'localhost:3000/@attacker.com',
  'localhost:3000?@attacker.com',
  'localhost attacker.com',
  'localhost\tattacker.com',
  'localhost..',
  '127.1',
  '0x7f.0.0.1',
  '[0:0::1]',
  'localhost:080',
  'localhost:65536',
];

/** A fake Microsoft token endpoint: counts the code exchanges (none may happen for a hostile host). */
async function startTokenEndpoint(): Promise<{ base: string; exchanges: string[]; server: Server }> {
  const exchanges: string[] = [];
  const server = createServer((request, response) => {
    let form = '';
    request.on('data', (chunk: Buffer) => (form += chunk.toString('utf8')));
    request.on('end', () => {
      exchanges.push(form);
      response.writeHead(400, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ error: 'invalid_grant' }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, exchanges, server };
}

/** Every http(s) link in a mail's text. */
const linksOf = (mail: ParsedMail) => (mail.text ?? '').match(/https?:\/\/[^\s"<>]+/g) ?? [];

describe.each(targets)('links and hostile Host headers over HTTP on $name', (target) => {
  let t: TestApp;
  let smtp: LoopbackSmtp;
  let microsoft: Awaited<ReturnType<typeof startTokenEndpoint>>;
  let port: number;
  let admin: string;
  let adminId: number;
  let quoteId: number;

  beforeAll(async () => {
    smtp = await startSmtp();
    microsoft = await startTokenEndpoint();
    // PUBLIC_URL unset: links come from the request. The socket's address (loopback) is a trusted proxy,
    // so its X-Forwarded-Host names the host, as behind a real one.
    t = await buildTestApp(target, {
      config: {
        smtpUrl: smtp.url,
        trustProxy: ['127.0.0.1'],
        msgraph: {
          clientId: 'client-id',
          clientSecret: 'client-secret',
          tenant: 'contoso',
          authorizeUrl: `${microsoft.base}/authorize`,
          tokenUrl: `${microsoft.base}/token`,
          meUrl: `${microsoft.base}/me`,
        },
      },
    });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.address() as AddressInfo).port;
    admin = (await t.as('admin@example.com')).authorization!;
    adminId = Number(
      (
        await t.db
          .selectFrom('users')
          .select('id')
          .where('email', '=', 'admin@example.com')
          .executeTakeFirstOrThrow()
      ).id,
    );
    quoteId = Number(
      (
        await t.db
          .selectFrom('quotes as q')
          .innerJoin('companies as c', 'c.id', 'q.company_id')
          .select('q.id')
          .where('q.status_id', '=', 1)
          .where('c.name', '=', 'Jansen BV')
          .orderBy('q.id')
          .executeTakeFirstOrThrow()
      ).id,
    );
  });

  afterAll(async () => {
    await t?.close();
    await smtp?.close();
    await new Promise((resolve) => microsoft?.server.close(resolve));
  });

  /** Each call that makes a link from the request's host. */
  const calls = () => [
    { name: 'password reset', line: 'POST /api/auth/password/forgot', body: { email: 'client@example.com' } },
    { name: 'quote mail', line: `POST /api/quotes/${quoteId}/send`, auth: true },
    {
      name: 'export mail',
      line: 'POST /api/exports',
      auth: true,
      body: { userId: adminId, model: 'companies', filter: [] },
    },
    { name: 'sign-on redirect URI', line: 'GET /api/auth/sso' },
    { name: 'sign-on code exchange', line: 'POST /api/auth/login', body: { code: 'c', portal: true } },
  ];
  type Call = ReturnType<typeof calls>[number];

  /** The call with these Host (and X-Forwarded-Host) lines; `origin` makes its target absolute-form. */
  const send = (call: Call, hostLines: string[], origin = '') => {
    const [method, path] = call.line.split(' ');
    const head = [`${method} ${origin}${path} HTTP/1.1`, ...hostLines];
    if (call.auth) head.push(`authorization: ${admin}`);
    return rawRequest(port, head, call.body ? JSON.stringify(call.body) : '');
  };

  const counts = async () => ({
    mails: smtp.received.length,
    exchanges: microsoft.exchanges.length,
    resets: (await t.db.selectFrom('password_resets').select('id').execute()).length,
    exports: (await t.db.selectFrom('export_jobs').select('id').execute()).length,
    tokens: (await t.db.selectFrom('record_tokens').select('id').execute()).length,
    quoteStatus: Number(
      (
        await t.db
          .selectFrom('quotes')
          .select('status_id')
          .where('id', '=', quoteId)
          .executeTakeFirstOrThrow()
      ).status_id,
    ),
  });

  it('a Host with user info, a path, an encoding or another spelling: 400 on every link, nothing made', async () => {
    const before = await counts();
    for (const host of HOSTILE) {
      for (const call of calls()) {
        const res = await send(call, [`Host: ${host}`]);
        expect(res.status, `${call.name} with Host ${host}: ${res.body}`).toBe(400);
        expect(JSON.parse(res.body), host).toEqual({ message: HOST_NOT_PLAIN });
      }
    }
    // Not only the routes that make links: the tenancy and the apps refuse such a host too.
    for (const path of ['/api/tickets', '/api/health/live', '/app/tickets']) {
      const res = await rawRequest(port, [
        `GET ${path} HTTP/1.1`,
        'Host: localhost:80@attacker.com',
        `authorization: ${admin}`,
      ]);
      expect(res.status, path).toBe(400);
    }
    // Give a queued mail the time to arrive, then: nothing was mailed, stored, queued or exchanged.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await counts()).toEqual(before);
  });

  it('two Host headers, or a request target naming another host: 400, nothing made', async () => {
    const before = await counts();
    for (const call of calls()) {
      const twice = await send(call, ['Host: localhost', 'Host: attacker.com']);
      expect(twice.status, call.name).toBe(400);
      expect(JSON.parse(twice.body)).toEqual({ message: 'A request may carry only one Host header.' });
      const absolute = await send(call, ['Host: localhost'], 'http://attacker.com');
      expect(absolute.status, call.name).toBe(400);
      expect(JSON.parse(absolute.body)).toEqual({
        message: 'The request target names another host than the Host header.',
      });
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await counts()).toEqual(before);
  });

  it('a hostile X-Forwarded-Host from the trusted proxy: 400, nothing made', async () => {
    const before = await counts();
    for (const forwarded of ['localhost:80@attacker.com', '[::1]@attacker.com', 'localhost\\@attacker.com']) {
      for (const call of calls()) {
        const res = await send(call, ['Host: localhost', `X-Forwarded-Host: ${forwarded}`]);
        expect(res.status, `${call.name} forwarded for ${forwarded}`).toBe(400);
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await counts()).toEqual(before);
  });

  it('a plain host of this machine gets every link on exactly its own origin', async () => {
    const origin = `http://localhost:${port}`;
    const plain = [`Host: localhost:${port}`];
    const [reset, quote, exportMail, sso] = calls();

    let before = smtp.received.length;
    expect((await send(reset!, plain)).status).toBe(200);
    const resetLinks = linksOf(await smtp.next(before));
    expect(resetLinks.length).toBeGreaterThan(0);
    expect(resetLinks.map((link) => new URL(link).origin)).toEqual(resetLinks.map(() => origin));
    expect(resetLinks[0]).toMatch(new RegExp(`^${origin}/app/password/reset/[A-Za-z0-9_-]{43}$`));

    before = smtp.received.length;
    const sent = await send(quote!, plain);
    expect(sent.status, sent.body).toBe(200);
    const quoteLinks = linksOf(await smtp.next(before));
    expect(quoteLinks.some((link) => link.startsWith(`${origin}/app/quotes/${quoteId}?token=`))).toBe(true);
    expect(quoteLinks.map((link) => new URL(link).origin)).toEqual(quoteLinks.map(() => origin));

    before = smtp.received.length;
    expect((await send(exportMail!, plain)).status).toBe(200);
    const exportLinks = linksOf(await smtp.next(before));
    expect(exportLinks).toContain(`${origin}/exports`);
    expect(exportLinks.map((link) => new URL(link).origin)).toEqual(exportLinks.map(() => origin));

    const signOn = await send(sso!, plain);
    expect(signOn.status).toBe(200);
    const authorize = new URL(JSON.parse(signOn.body).authorize_url);
    expect(authorize.searchParams.get('redirect_uri')).toBe(`${origin}/app/msgraph/code`);

    // Behind the trusted proxy, the host it forwards is the one the links carry.
    const forwarded = await send(sso!, ['Host: 127.0.0.1', 'X-Forwarded-Host: acme.localhost:4321']);
    expect(forwarded.status).toBe(200);
    expect(new URL(JSON.parse(forwarded.body).authorize_url).searchParams.get('redirect_uri')).toBe(
      'http://acme.localhost:4321/app/msgraph/code',
    );
  });
});
