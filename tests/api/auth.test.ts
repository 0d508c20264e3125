import { createHmac, randomBytes } from 'node:crypto';
import Fastify, { type FastifyInstance, type LightMyRequestResponse } from 'fastify';
import cookie from '@fastify/cookie';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, targets, type TestApp } from './harness.ts';
import { configFromEnv } from '../../server/config.ts';
import type { Db } from '../../server/db/database.ts';
import { installErrorHandler } from '../../server/http/error-handler.ts';
import { registry } from '../../server/schema/registry.ts';
import { tenancyPlugin } from '../../server/tenancy/plugin.ts';
import { authPlugin, createRecordToken } from '../../server/auth/plugin.ts';
import { answerSerializers } from '../../server/http/answer-serializers.ts';

const BAD_CREDENTIALS = 'These credentials do not match our records.';
const MULTIPLE_SESSIONS = 'You cannot have multiple login sessions per account.';

/** The `refresh_token=…` pair of a response's Set-Cookie, and its attributes. */
function refreshCookie(res: LightMyRequestResponse): { pair: string; header: string } {
  const all = res.headers['set-cookie'];
  const header = (Array.isArray(all) ? all : [all ?? '']).find((c) => c.startsWith('refresh_token=')) ?? '';
  return { pair: header.split(';')[0] ?? '', header };
}

function base64url(value: object): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}

/** An HS256 JWT signed with `secret`: the test's stand-in for a forger or an old token. */
function signJwt(payload: object, secret: string, header: object = { alg: 'HS256', typ: 'JWT' }): string {
  const unsigned = `${base64url(header)}.${base64url(payload)}`;
  return `${unsigned}.${createHmac('sha256', secret).update(unsigned).digest('base64url')}`;
}

function claimsOf(token: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8'));
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
  // As wide a budget of failed logins as the file's app has (see there): it shares its database.
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
    // The per-account and per-address rules below fail 30 logins in a few seconds: more than the
    // tenant's budget of failed logins a minute (LOGIN_FAILURES_PER_MINUTE, tested in
    // login-flood.test.ts) allows, so this app's budget is wider.
    t = await buildTestApp(target, { config: { loginFailuresPerMinute: 100 } });
    app = t.app;
    const acme = await t.db
      .selectFrom('tenants')
      .select('id')
      .where('slug', '=', 'acme')
      .executeTakeFirstOrThrow();
    acmeId = Number(acme.id);
    const day = 86_400_000;
    await t.db
      .insertInto('tenants')
      .values([
        {
          slug: 'beta',
          name: 'Beta Support',
          setup_completed: false,
          trial_ends_at: new Date(Date.now() + 2.5 * day),
        },
        {
          slug: 'gamma',
          name: 'Gamma Hosting',
          setup_completed: true,
          trial_ends_at: new Date(Date.now() - 3_600_000),
        },
      ])
      .execute();
    // An account of its own for the rate-limit tests, which leave it locked.
    const columns = [
      'tenant_id',
      'first_name',
      'last_name',
      'password_hash',
      'is_operator',
      'is_staff',
      'role_id',
    ] as const;
    await t.db
      .insertInto('users')
      .columns([...columns, 'email'])
      .expression((eb) =>
        eb
          .selectFrom('users')
          .select([...columns, sql<string>`'limit@example.com'`.as('email')])
          .where('email', '=', 'client@example.com'),
      )
      .execute();
  });
  afterAll(async () => {
    await t?.close();
  });

  const login = (payload: object, remoteAddress = '127.0.0.1') =>
    app.inject({ method: 'POST', url: '/api/auth/login', payload, remoteAddress });
  const me = (token: string, host = 'localhost') =>
    app.inject({ method: 'GET', url: '/api/auth/me', headers: { authorization: `Bearer ${token}`, host } });
  const refresh = (cookiePair: string) =>
    app.inject({ method: 'POST', url: '/api/auth/refresh', headers: { cookie: cookiePair } });

  describe('GET /api/system/status', () => {
    it('answers for the default tenant on a bare host', async () => {
      for (const host of ['localhost:3000', '127.0.0.1']) {
        const res = await app.inject({ method: 'GET', url: '/api/system/status', headers: { host } });
        expect(res.statusCode).toBe(200);
        const body = res.json();
        expect(body).toMatchObject({ tenant_name: 'Acme IT', tenant: 'acme' });
        expect(typeof body.setup_completed).toBe('boolean');
        expect(Object.keys(body).sort()).toEqual([
          'setup_completed',
          'tenant',
          'tenant_name',
          'trial_ends_in',
        ]);
      }
    });

    it('answers for the tenant of a subdomain, with whole trial days (negative once ended)', async () => {
      const beta = await app.inject({
        method: 'GET',
        url: '/api/system/status',
        headers: { host: 'beta.localhost:3000' },
      });
      expect(beta.json()).toEqual({
        setup_completed: false,
        trial_ends_in: 2,
        tenant_name: 'Beta Support',
        tenant: 'beta',
      });
      const gamma = await app.inject({
        method: 'GET',
        url: '/api/system/status',
        headers: { host: 'gamma.example.com' },
      });
      expect(gamma.json()).toEqual({
        setup_completed: true,
        trial_ends_in: -1,
        tenant_name: 'Gamma Hosting',
        tenant: 'gamma',
      });
    });

    it('answers 404 for an unknown subdomain', async () => {
      const res = await app.inject({
        method: 'GET',
        url: '/api/system/status',
        headers: { host: 'nope.localhost:3000' },
      });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ message: 'Unknown tenant.' });
    });
  });

  describe('POST /api/auth/login', () => {
    it('returns the user, a bearer token and an httpOnly refresh cookie, and no password hash', async () => {
      const res = await login({ username: 'admin@example.com', password: 'demo' });
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expect(Object.keys(body).sort()).toEqual(['access_token', 'expires_in', 'lists', 'token_type', 'user']);
      expect(body.token_type).toBe('Bearer');
      expect(body.expires_in).toBe(900);
      expect(body.access_token.split('.')).toHaveLength(3);
      expect(Object.keys(body.user).sort()).toEqual(
        [
          'acronym',
          'categories',
          'companies',
          'configs',
          'email',
          'first_name',
          'full_name',
          'id',
          'is_operator',
          'last_name',
          'modules',
          'permissions_names',
        ].sort(),
      );
      expect(body.user).toMatchObject({ email: 'admin@example.com', is_operator: 2 });
      // grants_all: every back-office permission.
      expect(body.user.permissions_names).toEqual(
        expect.arrayContaining(['tenant.tickets.index', 'tenant.quotes.show']),
      );
      expect(res.body).not.toMatch(/argon2|password/i);

      const { header } = refreshCookie(res);
      expect(header).toMatch(/^refresh_token=[A-Za-z0-9_-]{43};/);
      expect(header).toMatch(/; HttpOnly/i);
      expect(header).toMatch(/; SameSite=Strict/i);
      expect(header).toMatch(/; Path=\/api\/auth(;|$)/);
      expect(header).toMatch(/; Max-Age=2592000(;|$)/);
      expect(header).not.toMatch(/; Secure/i); // plain http here

      const claims = claimsOf(body.access_token);
      expect(claims).toMatchObject({ sub: String(body.user.id), tid: acmeId });
      expect(typeof claims.sid).toBe('string');
      expect(Number(claims.exp) - Number(claims.iat)).toBe(900);
    });

    it("gives a client the companies and portal permissions of the client's role", async () => {
      const res = await login({ username: 'Client@Example.com', password: 'demo' });
      expect(res.statusCode).toBe(200);
      const user = res.json().user;
      expect(user.is_operator).toBe(0);
      // With what the client's company role there lets the portal offer (issue 39): the company admin's.
      expect(user.companies).toEqual([
        {
          id: expect.any(Number),
          name: 'Jansen BV',
          on_behalf: true,
          manage_access: true,
          grants_all: true,
          company_resources: [],
          own_resources: [],
        },
      ]);
      expect(user.permissions_names.every((p: string) => !p.startsWith('tenant.'))).toBe(true);
    });

    it('answers a wrong password with 422 and the field error', async () => {
      const res = await login({ username: 'client@example.com', password: 'wrong' }, '10.9.0.1');
      expect(res.statusCode).toBe(422);
      expect(res.json()).toEqual({ message: BAD_CREDENTIALS, errors: { username: [BAD_CREDENTIALS] } });
    });

    it('answers an unknown e-mail exactly as a wrong password', async () => {
      const res = await login({ username: 'nobody@example.com', password: 'demo' }, '10.9.0.2');
      expect(res.statusCode).toBe(422);
      expect(res.json()).toEqual({ message: BAD_CREDENTIALS, errors: { username: [BAD_CREDENTIALS] } });
    });

    it('answers single sign-on with 422 while it is not configured', async () => {
      const res = await login({ code: 'abc', portal: true }, '10.9.0.3');
      expect(res.statusCode).toBe(422);
      expect(res.json().message).toBe('Single sign-on is not configured.');
    });

    it('requires username and password', async () => {
      const res = await login({ username: 'client@example.com' }, '10.9.0.4');
      expect(res.statusCode).toBe(422);
      expect(res.json().errors).toEqual({ password: ['The password field is required.'] });
    });
  });

  describe('login rate limit', () => {
    it('refuses the 6th failed attempt for one account, then others once the address has 20', async () => {
      const address = '10.1.0.1';
      for (let i = 0; i < 5; i++) {
        expect(
          (await login({ username: 'ghost@example.com', password: `guess${i}` }, address)).statusCode,
        ).toBe(422);
      }
      const sixth = await login({ username: 'ghost@example.com', password: 'guess5' }, address);
      expect(sixth.statusCode).toBe(429);
      expect(sixth.json()).toEqual({ message: 'Too many login attempts. Please try again in 15 minutes.' });
      expect(Number(sixth.headers['retry-after'])).toBeGreaterThan(14 * 60);

      // Another account from the same address is not affected by the first one's limit...
      const other = await login({ username: 'limit@example.com', password: 'wrong' }, address);
      expect(other.statusCode).toBe(422);
      for (let i = 0; i < 14; i++) {
        expect((await login({ username: `ghost${i}@example.com`, password: 'x' }, address)).statusCode).toBe(
          422,
        );
      }
      // ...until the address has failed 20 times: then even a right password waits.
      const blocked = await login({ username: 'limit@example.com', password: 'demo' }, address);
      expect(blocked.statusCode).toBe(429);
      expect(blocked.json().message).toMatch(/^Too many login attempts\. Please try again in \d+ minutes\.$/);
      // The address limit holds only for that address. (The account from another address is only
      // slowed down, never locked out: tests/api/auth-hardening.test.ts, on a clock it moves.)
      expect((await login({ username: 'limit@example.com', password: 'demo' }, '10.1.0.3')).statusCode).toBe(
        200,
      );
    });

    it("a successful login clears the account's failures", async () => {
      const address = '10.2.0.1';
      for (let i = 0; i < 4; i++) {
        expect((await login({ username: 'limit@example.com', password: 'wrong' }, address)).statusCode).toBe(
          422,
        );
      }
      expect((await login({ username: 'limit@example.com', password: 'demo' }, address)).statusCode).toBe(
        200,
      );
      for (let i = 0; i < 5; i++) {
        expect((await login({ username: 'limit@example.com', password: 'wrong' }, address)).statusCode).toBe(
          422,
        );
      }
      expect((await login({ username: 'limit@example.com', password: 'demo' }, address)).statusCode).toBe(
        429,
      );
    });
  });

  describe('POST /api/auth/refresh', () => {
    it('rotates the token; a used token presented again revokes the whole family', async () => {
      const first = await t.login('client@example.com');
      const second = await refresh(first.cookie);
      expect(second.statusCode).toBe(200);
      expect(second.json()).toMatchObject({ token_type: 'Bearer', user: { email: 'client@example.com' } });
      const secondCookie = refreshCookie(second).pair;
      expect(secondCookie).toMatch(/^refresh_token=.+/);
      expect(secondCookie).not.toBe(first.cookie);
      expect((await me(second.json().access_token)).statusCode).toBe(200);

      const third = await refresh(secondCookie);
      expect(third.statusCode).toBe(200);
      const thirdCookie = refreshCookie(third).pair;

      // The first token again: copied. Its family dies, including the newest token and its access.
      const replay = await refresh(first.cookie);
      expect(replay.statusCode).toBe(401);
      expect(replay.json()).toEqual({ message: 'Unauthenticated.' });
      expect((await refresh(thirdCookie)).statusCode).toBe(401);
      expect((await me(third.json().access_token)).statusCode).toBe(401);

      const userId = first.body.user.id;
      const family = await t.db
        .selectFrom('refresh_tokens')
        .select(['family', 'revoked_at'])
        .where('user_id', '=', userId)
        .where('session_id', '=', claimsOf(first.token).sid as string)
        .execute();
      expect(family).toHaveLength(3);
      expect(new Set(family.map((r) => r.family)).size).toBe(1);
      expect(family.every((r) => r.revoked_at !== null)).toBe(true);
    });

    it('answers 401 without a cookie or with an unknown one', async () => {
      const none = await app.inject({ method: 'POST', url: '/api/auth/refresh' });
      expect(none.statusCode).toBe(401);
      expect((await refresh(`refresh_token=${randomBytes(32).toString('base64url')}`)).statusCode).toBe(401);
    });

    it('answers 401 for an expired refresh token', async () => {
      const session = await t.login('other@example.com');
      await t.db
        .updateTable('refresh_tokens')
        .set({ expires_at: new Date(Date.now() - 1000) })
        .where('session_id', '=', claimsOf(session.token).sid as string)
        .execute();
      expect((await refresh(session.cookie)).statusCode).toBe(401);
    });
  });

  describe('POST /api/auth/logout', () => {
    it("revokes the cookie's session and clears the cookie", async () => {
      const session = await t.login('client@example.com');
      // Verified and kept in memory (access-tokens.ts) before the logout: still refused after it.
      expect((await me(session.token)).statusCode).toBe(200);
      const res = await app.inject({
        method: 'POST',
        url: '/api/auth/logout',
        headers: { cookie: session.cookie },
      });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ message: 'Logged out.' });
      const { header } = refreshCookie(res);
      expect(header).toMatch(/^refresh_token=;/);
      expect(header).toMatch(/Expires=Thu, 01 Jan 1970|Max-Age=0/);
      expect((await refresh(session.cookie)).statusCode).toBe(401);
      expect((await me(session.token)).statusCode).toBe(401);
    });

    it("ends an operator's session (users.session_id) and works with only the access token", async () => {
      const session = await t.login('operator@example.com');
      expect((await me(session.token)).statusCode).toBe(200);
      const res = await app.inject({
        method: 'POST',
        url: '/api/auth/logout',
        headers: { authorization: `Bearer ${session.token}` },
      });
      expect(res.statusCode).toBe(200);
      const user = await t.db
        .selectFrom('users')
        .select('session_id')
        .where('id', '=', session.body.user.id)
        .executeTakeFirstOrThrow();
      expect(user.session_id).toBeNull();
      const after = await me(session.token);
      expect(after.statusCode).toBe(401);
      expect(after.json()).toEqual({ message: 'Unauthenticated.' });
      expect((await refresh(session.cookie)).statusCode).toBe(401);
    });

    it('answers without any credentials', async () => {
      const res = await app.inject({ method: 'POST', url: '/api/auth/logout' });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ message: 'Logged out.' });
    });
  });

  describe('sessions', () => {
    it('an operator has one session: the older one gets the multiple-sessions 401', async () => {
      const first = await t.login('admin@example.com');
      expect((await me(first.token)).statusCode).toBe(200);
      const second = await t.login('admin@example.com');
      const old = await me(first.token);
      expect(old.statusCode).toBe(401);
      expect(old.json()).toEqual({ message: MULTIPLE_SESSIONS });
      expect((await me(second.token)).statusCode).toBe(200);
      const oldRefresh = await refresh(first.cookie);
      expect(oldRefresh.statusCode).toBe(401);
      expect(oldRefresh.json()).toEqual({ message: MULTIPLE_SESSIONS });
    });

    it('a client keeps several sessions', async () => {
      const first = await t.login('client@example.com');
      const second = await t.login('client@example.com');
      expect((await me(first.token)).statusCode).toBe(200);
      expect((await me(second.token)).statusCode).toBe(200);
    });

    it('a token of one tenant does not open another tenant', async () => {
      const session = await t.login('client@example.com');
      expect((await me(session.token, 'acme.localhost:3000')).statusCode).toBe(200);
      const res = await me(session.token, 'beta.localhost:3000');
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ message: 'Unauthenticated.' });
    });

    it('answers 401 Unauthenticated. without credentials', async () => {
      const res = await app.inject({ method: 'GET', url: '/api/auth/me' });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ message: 'Unauthenticated.' });
    });
  });

  describe('GET and POST /api/auth/me', () => {
    it('returns the user and the login lists', async () => {
      const session = await t.login('client@example.com');
      const res = await me(session.token);
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expect(Object.keys(body).sort()).toEqual(['lists', 'user']);
      expect(body.user).toEqual(session.body.user);
      expect(typeof body.lists).toBe('object');
      expect(res.body).not.toMatch(/argon2|password_hash/i);
    });

    it.each(['admin@example.com', 'operator@example.com', 'client@example.com'])(
      'the login of %s answers the lists GET /auth/me answers, in the language asked for',
      async (email) => {
        const headers = { 'accept-language': 'en' };
        const login = await app.inject({
          method: 'POST',
          url: '/api/auth/login',
          headers,
          payload: { username: email, password: 'demo' },
        });
        expect(login.statusCode).toBe(200);
        const answer = login.json();
        const res = await app.inject({
          method: 'GET',
          url: '/api/auth/me',
          headers: { ...headers, authorization: `Bearer ${answer.access_token}` },
        });
        expect(res.statusCode).toBe(200);
        expect(answer.user).toEqual(res.json().user);
        expect(answer.lists).toEqual(res.json().lists);
        expect(Object.keys(answer.lists).length).toBeGreaterThan(0);
      },
    );

    it('upserts the configs sent, one row per name', async () => {
      const { token } = await t.login('other@example.com');
      const save = (configs: unknown[]) =>
        app.inject({
          method: 'POST',
          url: '/api/auth/me',
          headers: { authorization: `Bearer ${token}` },
          payload: { relationships: { configs } },
        });
      const first = await save([
        { name: 'tickets.columns', value: ['id', 'reference'] },
        { name: 'tickets.perPage', value: 25 },
      ]);
      expect(first.statusCode).toBe(200);
      expect(first.json().user.configs).toEqual([
        { name: 'tickets.columns', value: ['id', 'reference'] },
        { name: 'tickets.perPage', value: 25 },
      ]);
      const second = await save([
        { name: 'tickets.perPage', value: { n: 50 } },
        { name: 'quotes.filter', value: 'open' },
        { name: 'quotes.filter', value: null },
      ]);
      expect(second.statusCode).toBe(200);
      expect(second.json().user.configs).toEqual([
        { name: 'quotes.filter', value: null },
        { name: 'tickets.columns', value: ['id', 'reference'] },
        { name: 'tickets.perPage', value: { n: 50 } },
      ]);
      expect((await me(token)).json().user.configs).toEqual(second.json().user.configs);
    });

    it('refuses more than 100 configs and names over 200 characters', async () => {
      const { token } = await t.login('other@example.com');
      const save = (configs: unknown[]) =>
        app.inject({
          method: 'POST',
          url: '/api/auth/me',
          headers: { authorization: `Bearer ${token}` },
          payload: { relationships: { configs } },
        });
      const many = Array.from({ length: 101 }, (_, i) => ({ name: `c${i}`, value: i }));
      expect((await save(many)).statusCode).toBe(422);
      expect((await save([{ name: 'x'.repeat(201), value: 1 }])).statusCode).toBe(422);
      expect((await save([{ name: 'x'.repeat(200), value: 1 }])).statusCode).toBe(200);
    });
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
