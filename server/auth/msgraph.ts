import type { FastifyBaseLogger } from 'fastify';
import type { MsGraphConfig } from '../config.ts';

/** Microsoft single sign-on (authorization code flow): the code's owner's e-mail address, from Graph `me`. */

export const MSGRAPH_TIMEOUT_MS = 10_000;
const SCOPE = 'User.Read';

/** A failed exchange; `reason` goes to the log only, never to the caller. */
export class SsoError extends Error {}

export function ssoEnabled(config: MsGraphConfig): boolean {
  return Boolean(config.clientId);
}

export function redirectUri(config: MsGraphConfig, origin: string): string {
  return config.redirectUri ?? `${origin}/app/msgraph/code`;
}

/** Where the login page sends the browser to sign in with Microsoft. */
export function authorizeUrl(config: MsGraphConfig, origin: string): string {
  const url = new URL(config.authorizeUrl);
  url.searchParams.set('client_id', config.clientId ?? '');
  url.searchParams.set('response_type', 'code');
  url.searchParams.set('redirect_uri', redirectUri(config, origin));
  url.searchParams.set('response_mode', 'query');
  url.searchParams.set('scope', SCOPE);
  return url.toString();
}

async function readJson(response: Response): Promise<Record<string, unknown>> {
  try {
    const body: unknown = await response.json();
    return body && typeof body === 'object' ? (body as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** Exchanges the code for an access token and reads the user's e-mail address (lower case) from Graph. */
export async function emailOfCode(
  config: MsGraphConfig,
  code: string,
  origin: string,
  log: Pick<FastifyBaseLogger, 'warn'>,
): Promise<string> {
  let step = 'token';
  try {
    const tokenResponse = await fetch(config.tokenUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: new URLSearchParams({
        client_id: config.clientId ?? '',
        client_secret: config.clientSecret ?? '',
        grant_type: 'authorization_code',
        code,
        redirect_uri: redirectUri(config, origin),
        scope: SCOPE,
      }),
      signal: AbortSignal.timeout(MSGRAPH_TIMEOUT_MS),
    });
    const tokenBody = await readJson(tokenResponse);
    const accessToken = tokenBody.access_token;
    if (!tokenResponse.ok || typeof accessToken !== 'string' || !accessToken) {
      // The error code only: error_description may echo parts of the request.
      throw new SsoError(`token endpoint answered ${tokenResponse.status} ${String(tokenBody.error ?? '')}`);
    }

    step = 'graph';
    const meResponse = await fetch(config.meUrl, {
      headers: { authorization: `Bearer ${accessToken}`, accept: 'application/json' },
      signal: AbortSignal.timeout(MSGRAPH_TIMEOUT_MS),
    });
    const me = await readJson(meResponse);
    if (!meResponse.ok) throw new SsoError(`graph me answered ${meResponse.status}`);
    const email = [me.mail, me.userPrincipalName].find((v) => typeof v === 'string' && v.includes('@'));
    if (typeof email !== 'string') throw new SsoError('graph me has no mail or userPrincipalName');
    return email.trim().toLowerCase();
  } catch (error) {
    const reason = error instanceof SsoError ? error.message : `${step} request failed: ${String(error)}`;
    log.warn({ reason }, 'single sign-on failed');
    throw new SsoError(reason);
  }
}
