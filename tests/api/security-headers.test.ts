/**
 * Security headers and paths (issue 12, finding 7 and the first item of 8). Every answer, page, asset,
 * API call or error, carries the apps' Content-Security-Policy, nosniff and a referrer policy that sends
 * no address anywhere (quote, reset and file links carry tokens); a stored file keeps its own sandbox.
 * A path is judged as the router reads it: a percent-encoded or otherwise odd spelling of /api answers
 * as the plain path does, or 404, never a 500 and never the app page.
 *
 * Needs the built apps (npm run build; npm test builds before it runs the API tests).
 */
import { randomBytes } from 'node:crypto';
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../server/app.ts';
import { configFromEnv } from '../../server/config.ts';
import { registry } from '../../server/schema/registry.ts';
import { buildTestApp, targets, type TestApp } from './harness.ts';
import { builtScript, storedTextFile } from './served-files.ts';

/** The apps' policy, directive by directive (docs/decisions.md, "Security headers"). */
const APP_POLICY: Record<string, string> = {
  'default-src': "'self'",
  'script-src': "'self'",
  'script-src-attr': "'none'",
  'style-src': "'self' 'unsafe-inline'",
  'img-src': "'self' data: https://www.gravatar.com",
  'font-src': "'self' data:",
  'connect-src': "'self'",
  'object-src': "'none'",
  'base-uri': "'self'",
  'form-action': "'self'",
  'frame-ancestors': "'none'",
};

function directives(header: unknown): Record<string, string> {
  expect(typeof header, 'a content-security-policy header').toBe('string');
  return Object.fromEntries(
    String(header)
      .split(';')
      .map((d) => d.trim())
      .filter(Boolean)
      .map((d) => {
        const [name, ...values] = d.split(/\s+/);
        return [name!, values.join(' ')];
      }),
  );
}

describe.each(targets)('security headers and paths on $name', (target) => {
  let t: TestApp;
  let client: Record<string, string>;

  beforeAll(async () => {
    t = await buildTestApp(target);
    client = await t.as('client@example.com');
  });
  afterAll(() => t?.close());

  const get = (url: string, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'GET', url, headers });

  function expectAppHeaders(res: { headers: Record<string, unknown> }, where: string) {
    expect(directives(res.headers['content-security-policy']), where).toEqual(APP_POLICY);
    expect(res.headers['x-content-type-options'], where).toBe('nosniff');
    expect(res.headers['referrer-policy'], where).toBe('no-referrer');
    expect(res.headers['x-frame-options'], where).toBe('DENY');
    // Plain http (no proxy that says otherwise): no HSTS, or a laptop install would be stuck on https.
    expect(res.headers['strict-transport-security'], where).toBeUndefined();
  }

  describe('the apps, the API and the assets', () => {
    it.each([
      ['/', 200, /^text\/html/],
      ['/tickets/1', 200, /^text\/html/],
      ['/app', 302, undefined],
      ['/app/tickets/1', 200, /^text\/html/],
      ['/api/system/status', 200, /^application\/json/],
    ])('%s answers %i with the apps’ policy', async (url, status, type) => {
      const res = await get(url);
      expect(res.statusCode, res.body).toBe(status);
      if (type) expect(res.headers['content-type']).toMatch(type);
      expectAppHeaders(res, url);
    });

    it('an API list with a token, an API refusal and an unknown tenant carry them too', async () => {
      const list = await get('/api/tickets', client);
      expect(list.statusCode).toBe(200);
      expectAppHeaders(list, 'list');
      const refused = await get('/api/tickets');
      expect(refused.statusCode).toBe(401);
      expectAppHeaders(refused, '401');
      const unknown = await get('/api/tickets', { ...client, host: 'nobody.localhost' });
      expect(unknown.statusCode).toBe(404);
      expectAppHeaders(unknown, 'unknown tenant');
    });

    it('a built script carries them, and stays cached for good', async () => {
      const script = builtScript();
      const res = await get(script);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/javascript/);
      expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expectAppHeaders(res, script);
    });

    it('a stored file keeps its own sandbox', async () => {
      const file = await get(await storedTextFile(t, client));
      expect(file.statusCode).toBe(200);
      expect(file.headers['content-security-policy']).toBe('sandbox');
      expect(file.headers['x-content-type-options']).toBe('nosniff');
      expect(file.headers['referrer-policy']).toBe('no-referrer');
    });
  });

  describe('HSTS', () => {
    /** The same database behind a TLS proxy that the app trusts (TRUST_PROXY). */
    let proxied: FastifyInstance;
    beforeAll(async () => {
      proxied = await buildApp({
        db: t.db,
        registry: registry(),
        config: {
          ...configFromEnv({}),
          dataDir: join(tmpdir(), `sd-test-${randomBytes(4).toString('hex')}`),
          jwtSecret: `proxied-${randomBytes(8).toString('hex')}`,
          trustProxy: true,
        },
        exports: { enabled: false },
        fileSweepMs: 0,
      });
      await proxied.ready();
    });
    afterAll(() => proxied?.close());

    it.each([
      ['/', 200],
      ['/app/tickets/1', 200],
      ['/api/system/status', 200],
      ['/api/tickets', 401],
      ['/api/docs/', 200],
    ])(
      '%s over https (as the proxy says) answers %i and tells the browser to stay on https',
      async (url, status) => {
        const res = await proxied.inject({ method: 'GET', url, headers: { 'x-forwarded-proto': 'https' } });
        expect(res.statusCode).toBe(status);
        expect(res.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
      },
    );

    it('over plain http behind the same proxy it does not', async () => {
      const res = await proxied.inject({ method: 'GET', url: '/', headers: { 'x-forwarded-proto': 'http' } });
      expect(res.statusCode).toBe(200);
      expect(res.headers['strict-transport-security']).toBeUndefined();
    });

    it('a forged x-forwarded-proto is not believed without TRUST_PROXY', async () => {
      const res = await get('/', { 'x-forwarded-proto': 'https' });
      expect(res.statusCode).toBe(200);
      expect(res.headers['strict-transport-security']).toBeUndefined();
    });
  });

  describe('the API viewer at /api/docs', () => {
    it('has a policy of its own that still forbids frames, plugins and other hosts', async () => {
      const res = await get('/api/docs/');
      expect(res.statusCode).toBe(200);
      const policy = directives(res.headers['content-security-policy']);
      expect(policy['script-src']).toBe("'self'");
      expect(policy['frame-ancestors']).toBe("'none'");
      expect(policy['object-src']).toBe("'none'");
      expect(policy['connect-src']).toBe("'self'");
      expect(String(res.headers['content-security-policy'])).not.toMatch(/https?:|\*|unsafe-eval/);
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['referrer-policy']).toBe('no-referrer');
    });
  });

  /**
   * Over a socket, byte for byte: inject() would resolve `/app/../api` before the router saw it, as a
   * browser does; a hostile client does not.
   */
  describe('odd spellings of an API path', () => {
    let port: number;
    let plain: { status: number; body: unknown };

    const raw = (path: string, headers: Record<string, string> = {}) =>
      new Promise<{ statusCode: number; headers: IncomingHttpHeaders; body: string }>((resolve, reject) => {
        const req = httpRequest({ host: '127.0.0.1', port, path, headers }, (res) => {
          let body = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => (body += chunk));
          res.on('end', () => resolve({ statusCode: res.statusCode!, headers: res.headers, body }));
        });
        req.on('error', reject);
        req.end();
      });

    beforeAll(async () => {
      await t.app.listen({ port: 0, host: '127.0.0.1' });
      port = (t.app.server.address() as AddressInfo).port;
      const res = await raw('/api/tickets', client);
      expect(res.statusCode).toBe(200);
      plain = { status: res.statusCode, body: JSON.parse(res.body) };
    });

    it.each(['/%61pi/tickets', '/%61%70%69/tickets', '/api/%74ickets', '/%61pi/%74ickets'])(
      '%s is routed to /api/tickets and answers as it does, tenant and all',
      async (url) => {
        const res = await raw(url, client);
        expect(res.statusCode, res.body).toBe(plain.status);
        expect(JSON.parse(res.body)).toEqual(plain.body);
        expectAppHeaders(res, url);
      },
    );

    it('an encoded spelling of a tenant’s public call answers as the plain one', async () => {
      const plainStatus = await raw('/api/system/status');
      expect(plainStatus.statusCode).toBe(200);
      const res = await raw('/%61pi/system/status');
      expect(res.statusCode, res.body).toBe(200);
      expect(JSON.parse(res.body)).toEqual(JSON.parse(plainStatus.body));
    });

    it('an encoded spelling of a tenantless address still answers without a tenant', async () => {
      const res = await raw('/%61pi/health', { host: 'nobody.localhost' });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.statusCode).toBe((await raw('/api/health', { host: 'nobody.localhost' })).statusCode);
    });

    it('an encoded spelling on an unknown tenant is refused as the plain one is', async () => {
      const res = await raw('/%61pi/tickets', { ...client, host: 'nobody.localhost' });
      expect(res.statusCode).toBe(404);
      expect(JSON.parse(res.body).message).toBe('Unknown tenant.');
    });

    it.each([
      '/%2561pi/tickets',
      '/API/tickets',
      '/Api/tickets',
      '//api/tickets',
      '/\\api/tickets',
      '/./api/tickets',
      '/app/../api/tickets',
      '/app/%2e%2e/api/tickets',
      '/%2e%2e/api/tickets',
      '/static/../api/tickets',
      '/%2573tatic/x.js',
      '//static/x.js',
    ])('%s answers 404, not the app page and not a 500', async (url) => {
      const res = await raw(url, client);
      expect(res.statusCode, res.body).toBe(404);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expectAppHeaders(res, url);
    });

    it('a malformed escape answers 400 with a message', async () => {
      for (const url of ['/%ZZpi/tickets', '/api/%E0%A4%A', '/%61pi/%E0%A4%A']) {
        const res = await raw(url, client);
        expect(res.statusCode, url).toBe(400);
        expect(typeof JSON.parse(res.body).message, url).toBe('string');
      }
    });
  });
});
