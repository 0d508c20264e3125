/**
 * What the auth plugin makes of a credential: a JWT forged, expired or signed with another secret is a
 * 401, and a quote token opens its one quote as a record-token context but no login.
 */
import { createHmac, randomBytes } from 'node:crypto';
import Fastify, { type FastifyInstance } from 'fastify';
import cookie from '@fastify/cookie';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { targets, type TestApp } from './harness.ts';
import { claimsOf, openAuthWorld } from './auth-world.ts';
import { configFromEnv } from '../../server/config.ts';
import type { Db } from '../../server/db/database.ts';
import { installErrorHandler } from '../../server/http/error-handler.ts';
import { registry } from '../../server/schema/registry.ts';
import { tenancyPlugin } from '../../server/tenancy/plugin.ts';
import { authPlugin, createRecordToken } from '../../server/auth/plugin.ts';
import { answerSerializers } from '../../server/http/answer-serializers.ts';

function base64url(value: object): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}

/** An HS256 JWT signed with `secret`: the test's stand-in for a forger or an old token. */
function signJwt(payload: object, secret: string, header: object = { alg: 'HS256', typ: 'JWT' }): string {
  const unsigned = `${base64url(header)}.${base64url(payload)}`;
  return `${unsigned}.${createHmac('sha256', secret).update(unsigned).digest('base64url')}`;
}

/**
 * The two auth plugins alone, with a known JWT secret and a route that shows what `getAuth()` makes of
 * a request: to forge and expire tokens, and to see a quote token's context (no route of the app
 * returns it).
 */
async function buildAuthOnlyApp(db: Db, jwtSecret: string): Promise<FastifyInstance> {
  const app = Fastify({ schemaController: answerSerializers() });
  installErrorHandler(app);
  await app.register(cookie);
  // As wide a budget of failed logins as the file's app has (auth-world.ts): it shares its database.
  const config = { ...configFromEnv({}), jwtSecret, loginFailuresPerMinute: 100 };
  await app.register(tenancyPlugin, { db, config });
  await app.register(authPlugin, { db, config, registry: registry() });
  app.get('/api/test/whoami', async (request) => {
    const auth = await request.getAuth();
    return { ...auth, permissions: [...auth.permissions].sort() };
  });
  await app.ready();
  return app;
}

describe.each(targets)('auth on $name', (target) => {
  let t: TestApp;
  let app: FastifyInstance;
  let acmeId: number;

  beforeAll(async () => {
    ({ t, app, acmeId } = await openAuthWorld(target));
  });
  afterAll(async () => {
    await t?.close();
  });

  describe('access tokens and quote tokens', () => {
    let authApp: FastifyInstance;
    const secret = 'auth-test-secret-' + randomBytes(8).toString('hex');
    let clientId: number;
    let sessionId: string;

    beforeAll(async () => {
      authApp = await buildAuthOnlyApp(t.db, secret);
      const res = await authApp.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { username: 'client@example.com', password: 'demo' },
      });
      expect(res.statusCode).toBe(200);
      clientId = res.json().user.id;
      sessionId = claimsOf(res.json().access_token).sid as string;
    });
    afterAll(async () => {
      await authApp?.close();
    });

    const whoami = (headers: Record<string, string>) =>
      authApp.inject({ method: 'GET', url: '/api/test/whoami', headers });
    const now = () => Math.floor(Date.now() / 1000);

    it('accepts a valid token of this secret', async () => {
      const token = signJwt(
        { sub: String(clientId), tid: acmeId, sid: sessionId, iat: now(), exp: now() + 60 },
        secret,
      );
      const res = await whoami({ authorization: `Bearer ${token}` });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ kind: 'client', userId: clientId, tenantId: acmeId, isOperator: 0 });
      expect(res.json().companyIds).toHaveLength(1);
    });

    it('refuses an expired token', async () => {
      const token = signJwt(
        { sub: String(clientId), tid: acmeId, sid: sessionId, iat: now() - 120, exp: now() - 60 },
        secret,
      );
      const res = await whoami({ authorization: `Bearer ${token}` });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ message: 'Unauthenticated.' });
    });

    it('refuses a token signed with another secret, or not signed', async () => {
      const claims = { sub: String(clientId), tid: acmeId, sid: sessionId, iat: now(), exp: now() + 60 };
      expect(
        (await whoami({ authorization: `Bearer ${signJwt(claims, 'another-secret')}` })).statusCode,
      ).toBe(401);
      const unsigned = `${base64url({ alg: 'none', typ: 'JWT' })}.${base64url(claims)}.`;
      expect((await whoami({ authorization: `Bearer ${unsigned}` })).statusCode).toBe(401);
      // The test app's tokens (another secret) are not valid here either.
      const { token } = await t.login('client@example.com');
      expect((await whoami({ authorization: `Bearer ${token}` })).statusCode).toBe(401);
    });

    it('a quote token opens its one quote as a record-token context, but no login', async () => {
      const quote = await t.db
        .selectFrom('quotes')
        .select(['id', 'company_id'])
        .where('tenant_id', '=', acmeId)
        .orderBy('id')
        .executeTakeFirstOrThrow();
      const token = await createRecordToken(t.db, acmeId, 'quotes', Number(quote.id), 30);
      const stored = await t.db
        .selectFrom('record_tokens')
        .select('token_hash')
        .where('record_id', '=', quote.id)
        .execute();
      expect(stored.map((r) => r.token_hash)).not.toContain(token);

      const res = await whoami({ 'x-quote-token': token });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({
        kind: 'record-token',
        // No Accept-Language: the tenant lists read in Dutch.
        language: 'nl',
        // Where the call came from, for the audit log (issue 38, item 5).
        ip: '127.0.0.1',
        userId: null,
        tenantId: acmeId,
        isOperator: 0,
        // The quote's lines are a list of their own on the portal's quote page (x-record-link).
        permissions: [
          'portal.quote-lines.index',
          'portal.quote-lines.show',
          'portal.quotes.accept',
          'portal.quotes.download',
          'portal.quotes.show',
        ],
        companyIds: [Number(quote.company_id)],
        companyRoles: [],
        categoryIds: [],
        recordToken: {
          resource: 'quotes',
          id: Number(quote.id),
          relations: ['lines', 'company', 'client'].map(
            (name) => registry().require('quotes').relations[name],
          ),
        },
      });

      const meRes = await app.inject({
        method: 'GET',
        url: '/api/auth/me',
        headers: { 'x-quote-token': token },
      });
      expect(meRes.statusCode).toBe(401);
      // Another tenant's host does not know the token.
      expect((await whoami({ 'x-quote-token': token, host: 'beta.localhost' })).statusCode).toBe(401);
    });

    it('refuses an expired, unknown or unregistered quote token', async () => {
      const quote = await t.db
        .selectFrom('quotes')
        .select('id')
        .where('tenant_id', '=', acmeId)
        .executeTakeFirstOrThrow();
      const expired = await createRecordToken(t.db, acmeId, 'quotes', Number(quote.id), -1);
      expect((await whoami({ 'x-quote-token': expired })).statusCode).toBe(401);
      expect((await whoami({ 'x-quote-token': randomBytes(32).toString('base64url') })).statusCode).toBe(401);
      const unregistered = await createRecordToken(t.db, acmeId, 'no-such-resource', 1);
      expect((await whoami({ 'x-quote-token': unregistered })).statusCode).toBe(401);
    });
  });
});
