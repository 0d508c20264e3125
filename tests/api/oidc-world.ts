/**
 * Set-up shared by the single sign-on tests (oidc-providers, oidc-flow): a real OpenID provider
 * (`oidc-provider`, started here on loopback: tests/oidc-provider.ts) with a normal client and one whose
 * codes expire quickly, the tenant's three sso-providers on it, and the steps of a sign-in.
 */
import { randomBytes } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import { buildTestApp, type Target, type TestApp } from './harness.ts';
import { SHORT_CODE_CLIENT, signIn, startOidcProvider, type TestProvider } from '../oidc-provider.ts';

export const ORIGIN = 'http://localhost';
export const SECRET = `Idp-S3cret-${randomBytes(4).toString('hex')}`;
const REDIRECTS = [`${ORIGIN}/sso/callback`, `${ORIGIN}/app/sso/callback`];
export const FAILED = 'Single sign-on failed.';
export const UNREACHABLE = 'The sign-in provider could not be reached. Try again later.';

export function cookiePair(res: LightMyRequestResponse, name: string): string | undefined {
  const all = res.headers['set-cookie'];
  const lines = Array.isArray(all) ? all : all ? [all] : [];
  return lines.map((l) => l.split(';')[0]!).find((pair) => pair.startsWith(`${name}=`));
}

export interface OidcWorld {
  idp: TestProvider;
  t: TestApp;
  admin: Record<string, string>;
  /** The providers: for both apps, for both with quickly expiring codes, for operators only. */
  main: number;
  short: number;
  staffOnly: number;
}

export async function openOidcWorld(target: Target): Promise<OidcWorld> {
  const idp = await startOidcProvider([
    { client_id: 'desk', client_secret: SECRET, redirect_uris: REDIRECTS },
    { client_id: SHORT_CODE_CLIENT, client_secret: SECRET, redirect_uris: REDIRECTS },
  ]);
  const t = await buildTestApp(target, { config: { publicUrl: ORIGIN, ssoAllowPrivateIssuers: true } });
  const admin = await t.as('admin@example.com');
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
  const main = await store({ ...common, name: 'Test IdP', client_id: 'desk', audience: 'both' });
  const short = await store({ ...common, name: 'Quick IdP', client_id: SHORT_CODE_CLIENT, audience: 'both' });
  const staffOnly = await store({ ...common, name: 'Staff IdP', client_id: 'desk', audience: 'operators' });
  return { idp, t, admin, main, short, staffOnly };
}

export function oidcCalls(world: () => OidcWorld) {
  async function start(provider: number, app: 'portal' | 'backoffice', on = world().t) {
    const res = await on.app.inject({
      method: 'POST',
      url: `/api/auth/sso/providers/${provider}/start`,
      payload: { app },
    });
    return { res, cookie: cookiePair(res, 'sso_binding') };
  }

  const callback = (query: string, cookie?: string) =>
    world().t.app.inject({
      method: 'POST',
      url: '/api/auth/sso/callback',
      headers: cookie ? { cookie } : {},
      payload: { query },
    });

  /** Start, sign in at the provider as `login`, and the address it sends back to. */
  async function throughProvider(login: string, app: 'portal' | 'backoffice', provider = world().main) {
    const { res, cookie } = await start(provider, app);
    expect(res.statusCode, res.body).toBe(200);
    const back = await signIn(res.json().authorize_url, login);
    return { back, cookie: cookie!, authorizeUrl: new URL(res.json().authorize_url) };
  }

  async function lastFailure(): Promise<{ actor: string | null; changes: any }> {
    const { t } = world();
    const row = await t.db
      .selectFrom('audit_log')
      .select(['actor', 'changes'])
      .where('action', '=', 'auth.login_failed')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    return row as { actor: string | null; changes: any };
  }

  return { start, callback, throughProvider, lastFailure };
}
