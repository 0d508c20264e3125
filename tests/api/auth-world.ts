/**
 * Set-up shared by the auth API tests (auth-login, auth-sessions, auth-access-tokens): the demo app with
 * a wider budget of failed logins, two more tenants (one in its trial, one past it), an account of its
 * own for the rate-limit tests, and the calls and cookie readers those tests make.
 */
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { sql } from 'kysely';
import { buildTestApp, type Target, type TestApp } from './harness.ts';

export const BAD_CREDENTIALS = 'These credentials do not match our records.';
export const MULTIPLE_SESSIONS = 'You cannot have multiple login sessions per account.';

/** The `refresh_token=…` pair of a response's Set-Cookie, and its attributes. */
export function refreshCookie(res: LightMyRequestResponse): { pair: string; header: string } {
  const all = res.headers['set-cookie'];
  const header = (Array.isArray(all) ? all : [all ?? '']).find((c) => c.startsWith('refresh_token=')) ?? '';
  return { pair: header.split(';')[0] ?? '', header };
}

export function claimsOf(token: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8'));
}

export interface AuthWorld {
  t: TestApp;
  app: FastifyInstance;
  acmeId: number;
  login(payload: object, remoteAddress?: string): Promise<LightMyRequestResponse>;
  me(token: string, host?: string): Promise<LightMyRequestResponse>;
  refresh(cookiePair: string): Promise<LightMyRequestResponse>;
}

export async function openAuthWorld(target: Target): Promise<AuthWorld> {
  // The per-account and per-address rules fail 30 logins in a few seconds: more than the
  // tenant's budget of failed logins a minute (LOGIN_FAILURES_PER_MINUTE, tested in
  // login-flood.test.ts) allows, so this app's budget is wider.
  const t = await buildTestApp(target, { config: { loginFailuresPerMinute: 100 } });
  const app = t.app;
  const acme = await t.db
    .selectFrom('tenants')
    .select('id')
    .where('slug', '=', 'acme')
    .executeTakeFirstOrThrow();
  const acmeId = Number(acme.id);
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
  return {
    t,
    app,
    acmeId,
    login: (payload, remoteAddress = '127.0.0.1') =>
      app.inject({ method: 'POST', url: '/api/auth/login', payload, remoteAddress }),
    me: (token, host = 'localhost') =>
      app.inject({ method: 'GET', url: '/api/auth/me', headers: { authorization: `Bearer ${token}`, host } }),
    refresh: (cookiePair) =>
      app.inject({ method: 'POST', url: '/api/auth/refresh', headers: { cookie: cookiePair } }),
  };
}
