/**
 * The full header set of a few kinds of answer, over a real socket, as they were before the security
 * headers were precomputed once at start-up (issue 40, item 3; they were set by @fastify/helmet, which
 * rebuilt them on every request). Any header added, dropped or changed fails here: JSON, a list, an
 * error, a refusal of the query, the app page, a built script, a stored file and an event stream.
 * Only what differs per answer by nature (date, length, a file's etag and dates) is left out.
 *
 * Needs the built apps (npm run build; npm test builds before it runs the API tests).
 */
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, targets, type TestApp } from './harness.ts';
import { builtScript, storedTextFile } from './served-files.ts';

/** Per answer by nature: when, how long, and a stored file's version and dates. */
const VOLATILE = new Set(['date', 'content-length', 'etag', 'last-modified', 'content-disposition']);

const CSP =
  "default-src 'self';script-src 'self';script-src-attr 'none';style-src 'self' 'unsafe-inline';" +
  "img-src 'self' data: https://www.gravatar.com;font-src 'self' data:;connect-src 'self';" +
  "object-src 'none';base-uri 'self';form-action 'self';frame-ancestors 'none'";

/** What every answer of ours carries, as helmet 8 wrote it with server/http/security-headers.ts' settings. */
const SECURITY = {
  'content-security-policy': CSP,
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
  'origin-agent-cluster': '?1',
  'referrer-policy': 'no-referrer',
  'x-content-type-options': 'nosniff',
  'x-dns-prefetch-control': 'off',
  'x-download-options': 'noopen',
  'x-frame-options': 'DENY',
  'x-permitted-cross-domain-policies': 'none',
  'x-xss-protection': '0',
};

const JSON_TYPE = 'application/json; charset=utf-8';

describe.each(targets)('the headers of each kind of answer on $name', (target) => {
  let t: TestApp;
  let port: number;
  let client: Record<string, string>;

  /** The status and headers (the volatile ones left out) of one GET; the body is not waited for. */
  const headersOf = (path: string, headers: Record<string, string> = {}) =>
    new Promise<{ status: number; headers: Record<string, unknown> }>((resolve, reject) => {
      const req = httpRequest({ host: '127.0.0.1', port, path, headers }, (res) => {
        const kept = Object.fromEntries(
          Object.entries(res.headers as IncomingHttpHeaders).filter(([name]) => !VOLATILE.has(name)),
        );
        resolve({ status: res.statusCode!, headers: kept });
        req.destroy();
      });
      req.on('error', (error: NodeJS.ErrnoException) => {
        if (error.code !== 'ECONNRESET') reject(error);
      });
      req.end();
    });

  beforeAll(async () => {
    t = await buildTestApp(target);
    client = await t.as('client@example.com');
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.address() as AddressInfo).port;
  });
  afterAll(() => t?.close());

  /** The status, and the headers in the order they were written. */
  const expectHeaders = async (
    path: string,
    headers: Record<string, string>,
    status: number,
    expected: Record<string, string>,
  ) => {
    const answer = await headersOf(path, headers);
    expect(answer.status, path).toBe(status);
    expect(Object.entries(answer.headers), path).toEqual(Object.entries(expected));
  };

  const KEEP_ALIVE = { connection: 'keep-alive', 'keep-alive': 'timeout=10' };
  const JSON_ANSWER = { ...SECURITY, 'content-type': JSON_TYPE, ...KEEP_ALIVE };

  it('a public JSON answer and a list for a signed-in client', async () => {
    await expectHeaders('/api/system/status', {}, 200, JSON_ANSWER);
    await expectHeaders('/api/tickets', client, 200, JSON_ANSWER);
  });

  it('a refusal without a token, an unknown address and a query refused', async () => {
    await expectHeaders('/api/tickets', {}, 401, JSON_ANSWER);
    await expectHeaders('/api/nothing-here', client, 404, JSON_ANSWER);
    await expectHeaders('/api/tickets?page=x', client, 422, JSON_ANSWER);
  });

  it('the app page and a built script', async () => {
    await expectHeaders('/app/tickets/1', {}, 200, {
      ...SECURITY,
      'cache-control': 'public, max-age=3600',
      'accept-ranges': 'bytes',
      'content-type': 'text/html; charset=utf-8',
      vary: 'accept-encoding',
      ...KEEP_ALIVE,
    });
    await expectHeaders(builtScript(), {}, 200, {
      ...SECURITY,
      'accept-ranges': 'bytes',
      'cache-control': 'public, max-age=31536000, immutable',
      'content-type': 'application/javascript; charset=utf-8',
      vary: 'accept-encoding',
      ...KEEP_ALIVE,
    });
  });

  it('a stored file keeps its own sandbox', async () => {
    await expectHeaders(await storedTextFile(t, client), {}, 200, {
      ...SECURITY,
      'content-security-policy': 'sandbox',
      'content-type': 'text/plain; charset=utf-8',
      'cache-control': 'private, max-age=300',
      ...KEEP_ALIVE,
    });
  });

  it('an event stream', async () => {
    await expectHeaders('/api/events', { ...client, accept: 'text/event-stream' }, 200, {
      ...SECURITY,
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      'x-accel-buffering': 'no',
      ...KEEP_ALIVE,
      'transfer-encoding': 'chunked',
    });
  });
});
