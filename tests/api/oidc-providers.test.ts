/**
 * OpenID Connect single sign-on per tenant (issue 38, item 2) against a real provider (`oidc-provider`,
 * started here on loopback: tests/oidc-provider.ts), its providers: the sso-providers resource
 * (write-only, encrypted secret; audited without it), the login pages' list, which starts are refused
 * or limited, the provider down and a private issuer by default.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SSO_STARTS_PER_MINUTE } from '../../server/auth/oidc/routes.ts';
import { buildTestApp, targets, type TestApp } from './harness.ts';
import type { TestProvider } from '../oidc-provider.ts';
import { ORIGIN, SECRET, UNREACHABLE, oidcCalls, openOidcWorld } from './oidc-world.ts';

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

  const { start } = oidcCalls(() => ({ idp, t, admin, main, short, staffOnly }));

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

  it('answers a clear 503 when the provider cannot be reached', async () => {
    // A single sign-on as admin may have ended the cached session (one per operator): a new one.
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
