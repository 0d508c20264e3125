import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, targets, type TestApp } from './harness.ts';
import { configFromEnv, type MsGraphConfig } from '../../server/config.ts';

const NOT_CONFIGURED = 'Single sign-on is not configured.';
const FAILED = 'Single sign-on failed.';

/** What the fake Graph `me` answers per access token. */
const PEOPLE: Record<string, { status: number; body: object }> = {
  'at-client': { status: 200, body: { mail: 'Client@Example.com', userPrincipalName: 'pj@contoso.test' } },
  'at-upn': { status: 200, body: { mail: null, userPrincipalName: 'client@example.com' } },
  'at-stranger': { status: 200, body: { mail: 'stranger@example.com' } },
  'at-operator': { status: 200, body: { mail: 'operator@example.com' } },
  'at-broken': { status: 500, body: { error: { code: 'InternalServerError' } } },
};

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (c: Buffer) => chunks.push(c));
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}

/**
 * A fake Microsoft identity platform and Graph on loopback: the code `x` exchanges for the access token
 * `at-x`, except `bad` (400 invalid_grant); `me` answers per access token (PEOPLE).
 */
async function startFakeMicrosoft(): Promise<{
  base: string;
  tokenRequests: URLSearchParams[];
  server: Server;
}> {
  const tokenRequests: URLSearchParams[] = [];
  const server = createServer((request, response) => {
    const send = (status: number, body: object) => {
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(JSON.stringify(body));
    };
    if (request.method === 'POST' && request.url === '/contoso/oauth2/v2.0/token') {
      void readBody(request).then((raw) => {
        const form = new URLSearchParams(raw);
        tokenRequests.push(form);
        const code = form.get('code') ?? '';
        if (code === 'bad' || request.headers['content-type'] !== 'application/x-www-form-urlencoded') {
          send(400, { error: 'invalid_grant', error_description: 'AADSTS70008: expired code' });
        } else {
          send(200, { token_type: 'Bearer', access_token: `at-${code}`, expires_in: 3600 });
        }
      });
      return;
    }
    if (request.method === 'GET' && request.url === '/v1.0/me') {
      const token = (request.headers.authorization ?? '').replace(/^Bearer /, '');
      const person = PEOPLE[token] ?? {
        status: 401,
        body: { error: { code: 'InvalidAuthenticationToken' } },
      };
      send(person.status, person.body);
      return;
    }
    send(404, { error: 'not found' });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { base: `http://127.0.0.1:${port}`, tokenRequests, server };
}

describe.each(targets)('Microsoft single sign-on on $name', (target) => {
  let t: TestApp;
  let plain: TestApp;
  let fake: Awaited<ReturnType<typeof startFakeMicrosoft>>;

  beforeAll(async () => {
    fake = await startFakeMicrosoft();
    const msgraph: MsGraphConfig = {
      clientId: 'client-id-123',
      clientSecret: 'client-secret-456',
      tenant: 'contoso',
      authorizeUrl: `${fake.base}/contoso/oauth2/v2.0/authorize`,
      tokenUrl: `${fake.base}/contoso/oauth2/v2.0/token`,
      meUrl: `${fake.base}/v1.0/me`,
    };
    t = await buildTestApp(target, { config: { msgraph } });
    plain = await buildTestApp(target);
  });

  afterAll(async () => {
    await t?.close();
    await plain?.close();
    await new Promise((resolve) => fake?.server.close(resolve));
  });

  const ssoLogin = (app: TestApp, code: string, portal = true) =>
    app.app.inject({ method: 'POST', url: '/api/auth/login', payload: { code, portal } });

  it('logs the client in with the e-mail address Graph gives for the code', async () => {
    const res = await ssoLogin(t, 'client');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.user.email).toBe('client@example.com');
    expect(body.user.is_operator).toBe(0);
    expect(body.token_type).toBe('Bearer');
    const cookies = [res.headers['set-cookie'] ?? []].flat();
    const refresh = cookies.find((c) => c.startsWith('refresh_token='));
    expect(refresh).toMatch(/HttpOnly/i);
    expect(refresh).toMatch(/Path=\/api\/auth/);

    const form = fake.tokenRequests.at(-1)!;
    expect(Object.fromEntries(form)).toEqual({
      client_id: 'client-id-123',
      client_secret: 'client-secret-456',
      grant_type: 'authorization_code',
      code: 'client',
      redirect_uri: 'http://localhost:80/app/msgraph/code',
      scope: 'User.Read',
    });

    const me = await t.app.inject({
      method: 'GET',
      url: '/api/auth/me',
      headers: { authorization: `Bearer ${body.access_token}` },
    });
    expect(me.statusCode).toBe(200);
    expect(me.json().user.email).toBe('client@example.com');

    const renewed = await t.app.inject({
      method: 'POST',
      url: '/api/auth/refresh',
      headers: { cookie: refresh!.split(';')[0]! },
    });
    expect(renewed.statusCode).toBe(200);
  });

  it('falls back to userPrincipalName when Graph has no mail', async () => {
    const res = await ssoLogin(t, 'upn');
    expect(res.statusCode).toBe(200);
    expect(res.json().user.email).toBe('client@example.com');
  });

  it.each([
    ['an e-mail address of nobody in the tenant', 'stranger'],
    ['an operator on the portal', 'operator'],
    ['a token endpoint error', 'bad'],
    ['a Graph error', 'broken'],
    ['an access token Graph refuses', 'unknown'],
  ])('answers 422 without details for %s', async (_what, code) => {
    const res = await ssoLogin(t, code);
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({ message: FAILED, errors: { code: [FAILED] } });
    expect(res.body).not.toMatch(/AADSTS|stranger|invalid_grant|InternalServerError/);
    expect(res.headers['set-cookie']).toBeUndefined();
  });

  it('answers 422 when the identity server cannot be reached', async () => {
    const unreachable = await buildTestApp(target, {
      config: {
        msgraph: {
          ...configFromEnv({}).msgraph,
          clientId: 'client-id-123',
          tokenUrl: 'http://127.0.0.1:1/token',
        },
      },
      seed: 'demo',
    });
    try {
      const res = await ssoLogin(unreachable, 'client');
      expect(res.statusCode).toBe(422);
      expect(res.json().message).toBe(FAILED);
    } finally {
      await unreachable.close();
    }
  });

  it('says when single sign-on is not configured', async () => {
    const res = await ssoLogin(plain, 'client');
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({ message: NOT_CONFIGURED, errors: { code: [NOT_CONFIGURED] } });
  });

  it('tells the login page whether to show the Microsoft button', async () => {
    const off = await plain.app.inject({ method: 'GET', url: '/api/auth/sso' });
    expect(off.statusCode).toBe(200);
    expect(off.json()).toEqual({ enabled: false });

    const on = await t.app.inject({ method: 'GET', url: '/api/auth/sso' });
    expect(on.statusCode).toBe(200);
    const body = on.json();
    expect(body.enabled).toBe(true);
    const url = new URL(body.authorize_url);
    expect(`${url.origin}${url.pathname}`).toBe(`${fake.base}/contoso/oauth2/v2.0/authorize`);
    expect(Object.fromEntries(url.searchParams)).toEqual({
      client_id: 'client-id-123',
      response_type: 'code',
      redirect_uri: 'http://localhost:80/app/msgraph/code',
      response_mode: 'query',
      scope: 'User.Read',
    });
  });
});

describe('Microsoft single sign-on settings', () => {
  it('builds the endpoints from MSGRAPH_TENANT and takes overrides', () => {
    const defaults = configFromEnv({
      MSGRAPH_CLIENT_ID: 'id',
      MSGRAPH_TENANT: 'contoso.onmicrosoft.com',
    }).msgraph;
    expect(defaults).toMatchObject({
      clientId: 'id',
      tokenUrl: 'https://login.microsoftonline.com/contoso.onmicrosoft.com/oauth2/v2.0/token',
      authorizeUrl: 'https://login.microsoftonline.com/contoso.onmicrosoft.com/oauth2/v2.0/authorize',
      meUrl: 'https://graph.microsoft.com/v1.0/me',
      redirectUri: undefined,
    });
    expect(configFromEnv({}).msgraph.clientId).toBeUndefined();
    const custom = configFromEnv({
      MSGRAPH_TOKEN_URL: 'http://idp.test/token',
      MSGRAPH_ME_URL: 'http://graph.test/me',
      MSGRAPH_REDIRECT_URI: 'https://desk.test/app/msgraph/code',
    }).msgraph;
    expect(custom).toMatchObject({
      tokenUrl: 'http://idp.test/token',
      meUrl: 'http://graph.test/me',
      redirectUri: 'https://desk.test/app/msgraph/code',
    });
  });
});
