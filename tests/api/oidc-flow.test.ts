/**
 * OpenID Connect single sign-on per tenant (issue 38, item 2) against a real provider (`oidc-provider`,
 * started here on loopback: tests/oidc-provider.ts), the sign-in: the full flow for an operator and a
 * client (PKCE S256, state, nonce, the same session rule as a password), and every refusal: a wrong or
 * used state, a wrong nonce, an expired code, an unknown or unverified address, a domain not allowed,
 * another browser, the other app's account and hostile callbacks.
 */
import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { targets, type TestApp } from './harness.ts';
import { UNVERIFIED, signIn, type TestProvider } from '../oidc-provider.ts';
import { FAILED, ORIGIN, SECRET, cookiePair, oidcCalls, openOidcWorld } from './oidc-world.ts';

describe.each(targets)('OpenID Connect single sign-on on $name', (target) => {
  let idp: TestProvider;
  let t: TestApp;
  let admin: Record<string, string>;
  let main: number;
  let short: number;
  let staffOnly: number;

  beforeAll(async () => {
    ({ idp, t, admin, main, short, staffOnly } = await openOidcWorld(target));
  });

  afterAll(async () => {
    await t?.close();
    await idp?.close();
  });

  const { start, callback, throughProvider, lastFailure } = oidcCalls(() => ({
    idp,
    t,
    admin,
    main,
    short,
    staffOnly,
  }));

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
});
