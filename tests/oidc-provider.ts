/**
 * A real OpenID provider for the single sign-on tests (issue 38): the certified `oidc-provider` package,
 * started in the test's process on a loopback port, never a hand-made stand-in. Its development
 * interactions serve the login form (any login name, any password: the name is the account, whose
 * e-mail address it is); consent is given at once (`loadExistingGrant`). `signIn` walks that form as a
 * browser would, with a cookie jar, and answers the address the provider sends back to.
 */
import type { AddressInfo } from 'node:net';
import { createServer, type RequestListener } from 'node:http';
import Provider from 'oidc-provider';

export interface TestClient {
  client_id: string;
  client_secret: string;
  redirect_uris: string[];
}

/** Addresses whose provider says they are not verified; every other login is a verified address. */
export const UNVERIFIED = new Set(['unverified@example.com']);

/** A client whose authorization codes expire after one second (the 'expired code' test). */
export const SHORT_CODE_CLIENT = 'desk-short';

export interface TestProvider {
  issuer: string;
  close(): Promise<void>;
}

export async function startOidcProvider(clients: TestClient[], port = 0): Promise<TestProvider> {
  // The issuer names the port, known once the server listens: the provider's handler is set after.
  const route: { handler?: RequestListener } = {};
  const server = createServer((req, res) => route.handler?.(req, res));
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const provider = new Provider(issuer, {
    clients: clients.map((c) => ({ ...c, grant_types: ['authorization_code'], response_types: ['code'] })),
    claims: { email: ['email', 'email_verified'], profile: ['name'] },
    async findAccount(_ctx, id) {
      return {
        accountId: id,
        async claims() {
          return { sub: id, email: id, email_verified: !UNVERIFIED.has(id), name: id };
        },
      };
    },
    // Consent at once: the test is about the desk's side, not the provider's screens.
    async loadExistingGrant(ctx) {
      const { session, client } = ctx.oidc;
      if (!session?.accountId || !client) return undefined;
      const grant = new ctx.oidc.provider.Grant({ clientId: client.clientId, accountId: session.accountId });
      grant.addOIDCScope('openid email profile');
      await grant.save();
      return grant;
    },
    ttl: {
      AuthorizationCode: (_ctx, _token, client) => (client.clientId === SHORT_CODE_CLIENT ? 1 : 60),
    },
  });
  route.handler = provider.callback() as RequestListener;
  return {
    issuer,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Cookies by name, as a browser keeps them for one site (paths do not matter here). */
class Jar {
  private readonly cookies = new Map<string, string>();
  take(response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const at = pair!.indexOf('=');
      this.cookies.set(pair!.slice(0, at).trim(), pair!.slice(at + 1).trim());
    }
  }
  header(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }
}

/**
 * Signs in at the provider as `login` from `authorizeUrl` and answers the address it sends the browser
 * back to (the app's callback page with `code`, `state` and `iss`).
 */
export async function signIn(authorizeUrl: string, login: string): Promise<URL> {
  const jar = new Jar();
  let url = new URL(authorizeUrl);
  const origin = url.origin;
  let body: URLSearchParams | undefined;
  for (let hop = 0; hop < 10; hop += 1) {
    const response = await fetch(url, {
      method: body ? 'POST' : 'GET',
      headers: {
        cookie: jar.header(),
        ...(body ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      },
      body,
      redirect: 'manual',
    });
    jar.take(response);
    body = undefined;
    const location = response.headers.get('location');
    if (location) {
      url = new URL(location, url);
      if (url.origin !== origin) return url;
      continue;
    }
    const html = await response.text();
    const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
    if (!action || !html.includes('name="login"'))
      throw new Error(`the provider answered ${response.status} without a login form: ${html.slice(0, 300)}`);
    url = new URL(action.replace(/&amp;/g, '&'), url);
    body = new URLSearchParams({ prompt: 'login', login, password: 'any' });
  }
  throw new Error('the provider never sent the browser back');
}
