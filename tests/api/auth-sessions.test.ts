/**
 * Sessions after signing in: refresh-token rotation and replay, logout, one session per operator, a
 * token bound to its tenant, and GET/POST /api/auth/me (the user, the login lists, the saved configs).
 */
import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { targets, type TestApp } from './harness.ts';
import { MULTIPLE_SESSIONS, claimsOf, openAuthWorld, refreshCookie, type AuthWorld } from './auth-world.ts';

describe.each(targets)('auth on $name', (target) => {
  let t: TestApp;
  let app: FastifyInstance;
  let me: AuthWorld['me'];
  let refresh: AuthWorld['refresh'];

  beforeAll(async () => {
    ({ t, app, me, refresh } = await openAuthWorld(target));
  });
  afterAll(async () => {
    await t?.close();
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
});
