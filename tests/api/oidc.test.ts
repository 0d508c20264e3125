/**
 * OpenID Connect single sign-on per tenant (issue 38, item 2) against a real provider (`oidc-provider`,
 * started here on loopback: tests/oidc-provider.ts): the sso-providers resource (write-only, encrypted
 * secret; audited without it), the login pages' list, the full flow for an operator and a client (PKCE
 * S256, state, nonce, the same session rule as a password), and every refusal: a wrong or used state, a
 * wrong nonce, an expired code, an unknown or unverified address, a domain not allowed, another browser,
 * the other app's account, the provider down and a private issuer by default.
 */
import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SSO_STARTS_PER_MINUTE } from '../../server/auth/oidc/routes.ts';
import { buildTestApp, targets, type TestApp } from './harness.ts';
import {
  SHORT_CODE_CLIENT,
  UNVERIFIED,
  signIn,
  startOidcProvider,
  type TestProvider,
} from '../oidc-provider.ts';

const ORIGIN = 'http://localhost';
const SECRET = `Idp-S3cret-${randomBytes(4).toString('hex')}`;
const REDIRECTS = [`${ORIGIN}/sso/callback`, `${ORIGIN}/app/sso/callback`];
const FAILED = 'Single sign-on failed.';
const UNREACHABLE = 'The sign-in provider could not be reached. Try again later.';

function cookiePair(res: LightMyRequestResponse, name: string): string | undefined {
  const all = res.headers['set-cookie'];
  const lines = Array.isArray(all) ? all : all ? [all] : [];
  return lines.map((l) => l.split(';')[0]!).find((pair) => pair.startsWith(`${name}=`));
}

describe.each(targets)('OpenID Connect single sign-on on $name', (target) => {
  let idp: TestProvider;
  let t: TestApp;
  let admin: Record<string, string>;
  let main: number;
  let short: number;
  let staffOnly: number;

  beforeAll(async () => {
    idp = await startOidcProvider([
      { client_id: 'desk', client_secret: SECRET, redirect_uris: REDIRECTS },
      { client_id: SHORT_CODE_CLIENT, client_secret: SECRET, redirect_uris: REDIRECTS },
    ]);
    t = await buildTestApp(target, { config: { publicUrl: ORIGIN, ssoAllowPrivateIssuers: true } });
    admin = await t.as('admin@example.com');
    const store = async (body: object) => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/sso-providers',
        headers: admin,
        payload: body,
      });
      expect(res.statusCode, res.body).toBe(201);
      return Number(res.json().data?.id ?? res.json().id);
    };
    const common = { issuer: idp.issuer, client_secret: SECRET, email_domains: 'Example.com' };
    main = await store({ ...common, name: 'Test IdP', client_id: 'desk', audience: 'both' });
    short = await store({ ...common, name: 'Quick IdP', client_id: SHORT_CODE_CLIENT, audience: 'both' });
    staffOnly = await store({ ...common, name: 'Staff IdP', client_id: 'desk', audience: 'operators' });
  });

  afterAll(async () => {
    await t?.close();
    await idp?.close();
  });

  async function start(provider: number, app: 'portal' | 'backoffice', on = t) {
    const res = await on.app.inject({
      method: 'POST',
      url: `/api/auth/sso/providers/${provider}/start`,
      payload: { app },
    });
    return { res, cookie: cookiePair(res, 'sso_binding') };
  }

  const callback = (query: string, cookie?: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/auth/sso/callback',
      headers: cookie ? { cookie } : {},
      payload: { query },
    });

  /** Start, sign in at the provider as `login`, and the address it sends back to. */
  async function throughProvider(login: string, app: 'portal' | 'backoffice', provider = main) {
    const { res, cookie } = await start(provider, app);
    expect(res.statusCode, res.body).toBe(200);
    const back = await signIn(res.json().authorize_url, login);
    return { back, cookie: cookie!, authorizeUrl: new URL(res.json().authorize_url) };
  }

  async function lastFailure(): Promise<{ actor: string | null; changes: any }> {
    const row = await t.db
      .selectFrom('audit_log')
      .select(['actor', 'changes'])
      .where('action', '=', 'auth.login_failed')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    return row as { actor: string | null; changes: any };
  }

  it('keeps the client secret encrypted and never answers or audits it', async () => {
    const shown = await t.app.inject({ method: 'GET', url: `/api/sso-providers/${main}`, headers: admin });
    expect(shown.statusCode).toBe(200);
    expect(shown.body).not.toContain(SECRET);
    expect(shown.body).not.toContain('client_secret');
    const row = await t.db
      .selectFrom('sso_providers')
      .select(['client_secret_encrypted', 'email_domains'])
      .where('id', '=', main)
      .executeTakeFirstOrThrow();
    expect(row.client_secret_encrypted).toMatch(/^v1\./);
    expect(row.client_secret_encrypted).not.toContain(SECRET);
    expect(row.email_domains).toBe('example.com');
    const entry = await t.db
      .selectFrom('audit_log')
      .select('changes')
      .where('action', '=', 'record.store')
      .where('resource', '=', 'sso-providers')
      .where('record_id', '=', main)
      .executeTakeFirstOrThrow();
    expect((entry.changes as Record<string, unknown>).client_secret).toBe('[hidden]');
    const { rows } = await sql<{ n: number }>`
      select count(*)::int as n from audit_log where changes::text like ${`%${SECRET}%`}`.execute(t.db);
    expect(rows[0]!.n).toBe(0);
  });

  it('is managed by second line only', async () => {
    const firstLine = await t.as('operator@example.com');
    const res = await t.app.inject({ method: 'GET', url: '/api/sso-providers', headers: firstLine });
    expect(res.statusCode).toBe(403);
  });

  it('lists the providers of each login page by name only', async () => {
    const portal = await t.app.inject({ method: 'GET', url: '/api/auth/sso/providers?app=portal' });
    expect(portal.statusCode).toBe(200);
    expect(portal.json()).toEqual({
      data: [
        { id: short, name: 'Quick IdP' },
        { id: main, name: 'Test IdP' },
      ],
    });
    const office = await t.app.inject({ method: 'GET', url: '/api/auth/sso/providers?app=backoffice' });
    expect(office.json().data.map((p: { name: string }) => p.name)).toEqual([
      'Quick IdP',
      'Staff IdP',
      'Test IdP',
    ]);
    const wrong = await t.app.inject({ method: 'GET', url: '/api/auth/sso/providers?app=admin' });
    expect(wrong.statusCode).toBe(422);
  });

  it('signs an operator in through the provider, ending the session of the password login', async () => {
    const before = await t.login('admin@example.com', 'demo');
    const { back, cookie, authorizeUrl } = await throughProvider('Admin@Example.com', 'backoffice');
    expect(authorizeUrl.searchParams.get('code_challenge_method')).toBe('S256');
    expect(authorizeUrl.searchParams.get('state')).toBeTruthy();
    expect(authorizeUrl.searchParams.get('nonce')).toBeTruthy();
    expect(authorizeUrl.searchParams.get('redirect_uri')).toBe(`${ORIGIN}/sso/callback`);
    expect(`${back.origin}${back.pathname}`).toBe(`${ORIGIN}/sso/callback`);

    const res = await callback(back.search, cookie);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.user.email).toBe('admin@example.com');
    expect(body.token_type).toBe('Bearer');
    expect(body.lists).toBeTypeOf('object');
    expect(cookiePair(res, 'refresh_token')).toBeTruthy();
    const me = await t.app.inject({
      method: 'GET',
      url: '/api/auth/me',
      headers: { authorization: `Bearer ${body.access_token}` },
    });
    expect(me.json().user.email).toBe('admin@example.com');
    // One session per operator (SPEC 8), as with a password: the earlier session's refresh is refused.
    const old = await t.app.inject({
      method: 'POST',
      url: '/api/auth/refresh',
      headers: { cookie: before.cookie },
    });
    expect(old.statusCode).toBe(401);
    const entry = await t.db
      .selectFrom('audit_log')
      .select(['action', 'user_id'])
      .where('action', '=', 'auth.login')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(entry.user_id).toBe(body.user.id);

    // The same answer again: the flow was single use.
    const replay = await callback(back.search, cookie);
    expect(replay.statusCode).toBe(422);
    expect(replay.json()).toEqual({ message: FAILED, errors: { code: [FAILED] } });
    expect((await lastFailure()).changes.reason).toBe('unknown or used state');
  });

  it('signs a client in to the portal', async () => {
    const { back, cookie } = await throughProvider('client@example.com', 'portal');
    expect(`${back.origin}${back.pathname}`).toBe(`${ORIGIN}/app/sso/callback`);
    const res = await callback(back.search, cookie);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().user.email).toBe('client@example.com');
    expect(res.json().user.is_operator).toBe(0);
  });

  it('refuses a wrong state', async () => {
    const { back, cookie } = await throughProvider('admin@example.com', 'backoffice');
    const query = new URLSearchParams(back.search);
    query.set('state', randomBytes(32).toString('base64url'));
    const res = await callback(`?${query}`, cookie);
    expect(res.statusCode).toBe(422);
    expect(res.json().message).toBe(FAILED);
    expect((await lastFailure()).changes).toMatchObject({ method: 'sso', reason: 'unknown or used state' });
  });

  it('refuses an ID token whose nonce is not the one of the flow', async () => {
    const { res: started, cookie } = await start(main, 'backoffice');
    const state = new URL(started.json().authorize_url).searchParams.get('state')!;
    await t.db.updateTable('sso_flows').set({ nonce: 'another-nonce' }).where('state', '=', state).execute();
    const back = await signIn(started.json().authorize_url, 'admin@example.com');
    const res = await callback(back.search, cookie);
    expect(res.statusCode).toBe(422);
    const failure = await lastFailure();
    expect(failure.changes.reason).toMatch(/^the code exchange failed: .*nonce/);
  });

  it('refuses an expired code', async () => {
    const { back, cookie } = await throughProvider('admin@example.com', 'backoffice', short);
    await new Promise((resolve) => setTimeout(resolve, 2100));
    const res = await callback(back.search, cookie);
    expect(res.statusCode).toBe(422);
    expect((await lastFailure()).changes.reason).toMatch(/invalid_grant/);
  });

  it('refuses a sign-in that stayed away longer than the flow lives', async () => {
    const { res: started, cookie } = await start(main, 'backoffice');
    const state = new URL(started.json().authorize_url).searchParams.get('state')!;
    await t.db
      .updateTable('sso_flows')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('state', '=', state)
      .execute();
    const back = await signIn(started.json().authorize_url, 'admin@example.com');
    expect((await callback(back.search, cookie)).statusCode).toBe(422);
    expect((await lastFailure()).changes.reason).toBe('the sign-in took too long');
  });

  it('refuses an address no account has, and says so only in the audit log', async () => {
    const { back, cookie } = await throughProvider('stranger@example.com', 'portal');
    const res = await callback(back.search, cookie);
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({ message: FAILED, errors: { code: [FAILED] } });
    const failure = await lastFailure();
    expect(failure.actor).toBe('stranger@example.com');
    expect(failure.changes).toEqual({ method: 'sso', provider: 'Test IdP', reason: 'unknown address' });
  });

  it('creates no client for an unknown address even when allowed: companies have no domain to join', async () => {
    // A provider of its own (the quick one's codes may expire while a busy machine answers).
    const { token } = await t.login('admin@example.com', 'demo');
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/sso-providers',
      headers: { authorization: `Bearer ${token}` },
      payload: {
        name: 'Open IdP',
        issuer: idp.issuer,
        client_id: 'desk',
        client_secret: SECRET,
        audience: 'clients',
        email_domains: 'example.com',
        create_clients: true,
      },
    });
    expect(res.statusCode, res.body).toBe(201);
    const open = Number(res.json().data?.id ?? res.json().id);
    const { back, cookie } = await throughProvider('newcomer@example.com', 'portal', open);
    expect((await callback(back.search, cookie)).statusCode).toBe(422);
    expect((await lastFailure()).changes.reason).toBe(
      'unknown address: no company can be found by its domain',
    );
    const made = await t.db
      .selectFrom('users')
      .select('id')
      .where(sql`lower(email)`, '=', 'newcomer@example.com')
      .execute();
    expect(made).toEqual([]);
  });

  it('refuses a domain that is not allowed', async () => {
    const { back, cookie } = await throughProvider('someone@elsewhere.test', 'portal');
    expect((await callback(back.search, cookie)).statusCode).toBe(422);
    expect((await lastFailure()).changes.reason).toBe('the domain is not allowed');
  });

  it('refuses an address the provider says is not verified', async () => {
    const [address] = [...UNVERIFIED];
    const { back, cookie } = await throughProvider(address!, 'portal');
    expect((await callback(back.search, cookie)).statusCode).toBe(422);
    expect((await lastFailure()).changes.reason).toBe('the e-mail address is not verified');
  });

  it("refuses a client on the operators' app", async () => {
    const { back, cookie } = await throughProvider('client@example.com', 'backoffice');
    expect((await callback(back.search, cookie)).statusCode).toBe(422);
    expect((await lastFailure()).changes.reason).toBe('the address is a client, not of the backoffice');
  });

  it('refuses the callback in another browser than the one that started', async () => {
    const { back } = await throughProvider('admin@example.com', 'backoffice');
    const res = await callback(back.search, `sso_binding=${randomBytes(32).toString('base64url')}`);
    expect(res.statusCode).toBe(422);
    expect((await lastFailure()).changes.reason).toBe('the callback came to another browser than the start');
  });

  it('does not start a provider of the other app, or one that does not exist', async () => {
    expect((await start(staffOnly, 'portal')).res.statusCode).toBe(404);
    const none = await start(999999, 'portal');
    expect(none.res.statusCode).toBe(404);
    expect(none.res.json()).toEqual({ message: 'This sign-in provider is not available.' });
    const malformed = await t.app.inject({
      method: 'POST',
      url: '/api/auth/sso/providers/abc/start',
      payload: { app: 'portal' },
    });
    expect(malformed.statusCode).toBe(422);
  });

  it('limits the starts one address makes in a minute, so a flood cannot fill the stored flows', async () => {
    const from = (remoteAddress: string) =>
      t.app.inject({
        method: 'POST',
        url: `/api/auth/sso/providers/${main}/start`,
        payload: { app: 'portal' },
        remoteAddress,
      });
    const live = () =>
      t.db
        .selectFrom('sso_flows')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('expires_at', '>', new Date())
        .executeTakeFirstOrThrow();
    const before = await live();
    for (let i = 0; i < SSO_STARTS_PER_MINUTE; i++) expect((await from('203.0.113.7')).statusCode).toBe(200);
    const refused = await from('203.0.113.7');
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(refused.json().message).toMatch(/^Too many login attempts\. Please try again in \d+ seconds\.$/);
    const after = await live();
    expect(Number(after.n) - Number(before.n)).toBe(SSO_STARTS_PER_MINUTE);
    // Another address is not held by it.
    expect((await from('203.0.113.8')).statusCode).toBe(200);
  });

  it('answers hostile callbacks with a 4xx', async () => {
    const long = await callback(`state=${'a'.repeat(9000)}`, 'sso_binding=x');
    expect(long.statusCode).toBe(422);
    expect(Object.keys(long.json().errors)).toEqual(['body.query']);
    const none = await t.app.inject({ method: 'POST', url: '/api/auth/sso/callback', payload: {} });
    expect(none.statusCode).toBe(422);
    const noState = await callback('code=abc');
    expect(noState.json()).toEqual({ message: FAILED, errors: { code: [FAILED] } });
    expect((await lastFailure()).changes.reason).toBe('the callback has no state');
  });

  it('answers a clear 503 when the provider cannot be reached', async () => {
    // The single sign-on above ended the cached session of admin: a new one.
    const { token } = await t.login('admin@example.com', 'demo');
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/sso-providers',
      headers: { authorization: `Bearer ${token}` },
      payload: {
        name: 'Down IdP',
        issuer: 'http://127.0.0.1:1',
        client_id: 'x',
        email_domains: 'example.com',
      },
    });
    expect(res.statusCode).toBe(201);
    const { res: started } = await start(Number(res.json().data?.id ?? res.json().id), 'portal');
    expect(started.statusCode).toBe(503);
    expect(started.json()).toEqual({ message: UNREACHABLE });
    expect(started.headers['retry-after']).toBe('30');
  });

  it('refuses an issuer on a private address unless the installation allows it', async () => {
    const strict = await buildTestApp(target, { config: { publicUrl: ORIGIN } });
    try {
      const headers = await strict.as('admin@example.com');
      const res = await strict.app.inject({
        method: 'POST',
        url: '/api/sso-providers',
        headers,
        payload: { name: 'Local IdP', issuer: idp.issuer, client_id: 'desk', email_domains: 'example.com' },
      });
      expect(res.statusCode).toBe(201);
      const { res: started } = await start(Number(res.json().data?.id ?? res.json().id), 'portal', strict);
      expect(started.statusCode).toBe(503);
      expect(started.json()).toEqual({ message: UNREACHABLE });
    } finally {
      await strict.close();
    }
  });
});
