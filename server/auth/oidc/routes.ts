/**
 * OpenID Connect single sign-on per tenant (issue 38, item 2): the login pages' list of providers, the
 * start (a flow row, then the provider's authorize address with PKCE S256, state and nonce) and the
 * callback (the flow taken once, the code exchanged and the ID token checked by openid-client, the
 * address mapped to an account), which signs in exactly as a password login does: `logIn` of routes.ts.
 * All three are public and find the tenant by Host, as the login does. A failed callback answers the
 * generic 'Single sign-on failed.'; why goes to the log and to the audit log's failed sign-in entry.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import * as client from 'openid-client';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/database.ts';
import { HttpError, TooManyRequests } from '../../http/errors.ts';
import { FixedWindowCounter } from '../../http/fixed-window.ts';
import { linkOrigin } from '../../mail/link-origin.ts';
import { decryptPassword } from '../../mail/inbound/secret.ts';
import { serverText } from '../../../common/server-texts.ts';
import { audit } from '../../audit/audit.ts';
import { PUBLIC } from '../../docs/components.ts';
import { errorResponses } from '../../docs/error-answers.ts';
import { tooManyAttemptsMessage } from '../rate-limit.ts';
import { tokenResponse } from '../schemas.ts';
import { accountOf, domainAllowed, servesApp, verifiedEmail } from './account.ts';
import { createFlow, hashBinding, newBinding, takeFlow, type AppName } from './flows.ts';
import { OidcError, discover } from './issuer.ts';

/** Ties a flow to the browser that started it (flows.ts); only the start and the callback read it. */
export const BINDING_COOKIE = 'sso_binding';
const BINDING_PATH = '/api/auth/sso';
const BINDING_FORM = /^[A-Za-z0-9_-]{43}$/;
const RETRY_AFTER_SECONDS = 30;
const DISCOVERY_CACHE_MS = 5 * 60_000;
const DISCOVERY_CACHE_SIZE = 500;
/**
 * Starts one address may make in a minute, per tenant: each start stores a flow for ten minutes, and the
 * route needs no login, so a flood must not fill sso_flows. An office behind one address signing in at
 * nine stays well within it.
 */
export const SSO_STARTS_PER_MINUTE = 30;

const FAILED = serverText('sso_failed');
const UNKNOWN = serverText('sso_provider_unknown');
const UNREACHABLE = serverText('sso_provider_unreachable');

export type LogIn = (
  request: FastifyRequest,
  reply: FastifyReply,
  userId: number,
  isStaff: boolean,
) => Promise<unknown>;

export interface OidcRoutesOptions {
  db: Db;
  config: Pick<Config, 'publicUrl' | 'ssoAllowPrivateIssuers'>;
  logIn: LogIn;
}

const appParam = { type: 'string', enum: ['portal', 'backoffice'] } as const;

/** Where the provider sends the browser back: the callback page of the app that started. */
export const callbackPath = (app: AppName) => `${app === 'portal' ? '/app' : ''}/sso/callback`;

export async function oidcRoutes(app: FastifyInstance, options: OidcRoutesOptions): Promise<void> {
  const { db, config } = options;
  const allowPrivate = config.ssoAllowPrivateIssuers === true;
  const starts = new FixedWindowCounter<string>(SSO_STARTS_PER_MINUTE, 60_000);

  async function activeProvider(tenantId: number, id: number) {
    return db
      .selectFrom('sso_providers')
      .selectAll()
      .where('tenant_id', '=', tenantId)
      .where('id', '=', id)
      .where('active', '=', true)
      .executeTakeFirst();
  }

  type Provider = NonNullable<Awaited<ReturnType<typeof activeProvider>>>;

  // Discovery answers per provider version for a few minutes: the start is public, and each call must
  // not make this server fetch the issuer again. A changed row (updated_at) is discovered afresh.
  const discovered = new Map<string, { at: number; configuration: client.Configuration }>();

  async function configurationOf(tenantId: number, provider: Provider) {
    const key = `${provider.id}:${provider.updated_at.getTime()}`;
    const cached = discovered.get(key);
    if (cached && Date.now() - cached.at < DISCOVERY_CACHE_MS) return cached.configuration;
    const secret = provider.client_secret_encrypted
      ? await decryptPassword(db, tenantId, provider.client_secret_encrypted)
      : undefined;
    const configuration = await discover(
      { issuer: provider.issuer, clientId: provider.client_id, clientSecret: secret },
      allowPrivate,
    );
    if (discovered.size >= DISCOVERY_CACHE_SIZE) discovered.clear();
    discovered.set(key, { at: Date.now(), configuration });
    return configuration;
  }

  function unreachable(request: FastifyRequest, reply: FastifyReply, error: OidcError): HttpError {
    request.log.warn({ reason: error.message }, 'single sign-on: the provider could not be reached');
    reply.header('retry-after', String(RETRY_AFTER_SECONDS));
    return new HttpError(503, UNREACHABLE);
  }

  app.get(
    '/api/auth/sso/providers',
    {
      schema: {
        operationId: 'ssoProviders',
        summary: 'The single sign-on providers of this tenant for one app (names only)',
        security: PUBLIC,
        tags: ['auth'],
        querystring: {
          type: 'object',
          required: ['app'],
          additionalProperties: false,
          properties: { app: appParam },
        },
        response: {
          200: {
            description: 'The login buttons to show, in name order.',
            type: 'object',
            required: ['data'],
            properties: {
              data: {
                type: 'array',
                items: {
                  type: 'object',
                  required: ['id', 'name'],
                  properties: { id: { type: 'integer' }, name: { type: 'string' } },
                },
              },
            },
          },
          ...errorResponses(422),
        },
      },
    },
    async (request) => {
      const { app: which } = request.query as { app: AppName };
      const rows = await db
        .selectFrom('sso_providers')
        .select(['id', 'name', 'audience'])
        .where('tenant_id', '=', request.tenant.id)
        .where('active', '=', true)
        .orderBy('name')
        .orderBy('id')
        .execute();
      return {
        data: rows.filter((r) => servesApp(r.audience, which)).map((r) => ({ id: r.id, name: r.name })),
      };
    },
  );

  app.post(
    '/api/auth/sso/providers/:id/start',
    {
      schema: {
        operationId: 'ssoStart',
        summary: 'Start a single sign-on: where to send the browser',
        description:
          'Stores the sign-in (state, nonce, PKCE verifier) for ten minutes and sets the `sso_binding` ' +
          'cookie (HttpOnly, path `/api/auth/sso`) that the callback must bring back.',
        security: PUBLIC,
        tags: ['auth'],
        params: {
          type: 'object',
          required: ['id'],
          properties: { id: { type: 'integer', minimum: 1, maximum: 2147483647 } },
        },
        body: {
          type: 'object',
          required: ['app'],
          additionalProperties: false,
          properties: { app: appParam },
        },
        response: {
          200: {
            description: "The provider's authorization address.",
            type: 'object',
            required: ['authorize_url'],
            properties: { authorize_url: { type: 'string' } },
          },
          ...errorResponses(404, 422, 429, 503),
        },
      },
    },
    async (request, reply) => {
      const tenantId = request.tenant.id;
      const wait = starts.hit(`${tenantId}:${request.ip}`, Date.now());
      if (wait > 0) throw new TooManyRequests(tooManyAttemptsMessage(wait), wait);
      const { id } = request.params as { id: number };
      const { app: which } = request.body as { app: AppName };
      const provider = await activeProvider(tenantId, id);
      if (!provider || !servesApp(provider.audience, which)) throw new HttpError(404, UNKNOWN);
      let configuration: client.Configuration;
      try {
        configuration = await configurationOf(tenantId, provider);
      } catch (error) {
        if (error instanceof OidcError) throw unreachable(request, reply, error);
        throw error;
      }
      const presented = request.cookies[BINDING_COOKIE];
      // One binding per browser: a second tab's sign-in keeps the first one's valid.
      const binding = presented && BINDING_FORM.test(presented) ? presented : newBinding();
      const redirectUri = `${linkOrigin(request, config)}${callbackPath(which)}`;
      const flow = await createFlow(db, {
        tenantId,
        providerId: provider.id,
        app: which,
        redirectUri,
        binding,
      });
      reply.setCookie(BINDING_COOKIE, binding, {
        httpOnly: true,
        // Lax: the callback page's own call is same-site, and a provider's redirect is a top-level GET.
        sameSite: 'lax',
        path: BINDING_PATH,
        secure: request.protocol === 'https',
        maxAge: 600,
      });
      const url = client.buildAuthorizationUrl(configuration, {
        redirect_uri: redirectUri,
        scope: 'openid email profile',
        response_type: 'code',
        code_challenge: await client.calculatePKCECodeChallenge(flow.codeVerifier),
        code_challenge_method: 'S256',
        state: flow.state,
        nonce: flow.nonce,
      });
      return { authorize_url: url.href };
    },
  );

  app.post(
    '/api/auth/sso/callback',
    {
      schema: {
        operationId: 'ssoCallback',
        summary: 'Finish a single sign-on: sign in with what the provider sent back',
        description:
          '`query` is the query string the provider appended to the callback page (`code`, `state`, ' +
          '`iss`, or `error`). Needs the `sso_binding` cookie of the start. Signs in as `POST /auth/login` does.',
        security: PUBLIC,
        tags: ['auth'],
        body: {
          type: 'object',
          required: ['query'],
          additionalProperties: false,
          properties: { query: { type: 'string', maxLength: 8192 } },
        },
        response: {
          200: { description: 'Signed in, as a password login answers.', ...tokenResponse },
          ...errorResponses(422, 503),
        },
      },
    },
    async (request, reply) => {
      const tenantId = request.tenant.id;
      const params = new URLSearchParams((request.body as { query: string }).query.replace(/^\?/, ''));
      // What the failure entry names, as far as the callback got.
      const seen: { provider?: Provider; email?: string } = {};

      const fail = async (reason: string) => {
        request.log.warn({ reason, provider: seen.provider?.id }, 'single sign-on failed');
        request.server.metrics?.loginFailures.inc({ method: 'sso' });
        const who = { tenantId, userId: null, ip: request.ip };
        await audit(db, who, {
          action: 'auth.login_failed',
          actor: seen.email,
          changes: { method: 'sso', provider: seen.provider?.name ?? null, reason },
        });
        return new HttpError(422, FAILED, { code: [FAILED] });
      };

      const state = params.get('state');
      if (!state) throw await fail('the callback has no state');
      const flow = await takeFlow(db, tenantId, state);
      if (!flow) throw await fail('unknown or used state');
      const provider = await activeProvider(tenantId, flow.providerId);
      seen.provider = provider;
      if (!provider) throw await fail('the provider is gone or switched off');
      if (flow.expiresAt.getTime() < Date.now()) throw await fail('the sign-in took too long');
      const binding = request.cookies[BINDING_COOKIE];
      if (!binding || hashBinding(binding) !== flow.bindingHash)
        throw await fail('the callback came to another browser than the start');
      const providerError = params.get('error');
      if (providerError) throw await fail(`the provider answered ${providerError.slice(0, 100)}`);

      let claims: Record<string, unknown>;
      try {
        const configuration = await configurationOf(tenantId, provider);
        const tokens = await client.authorizationCodeGrant(
          configuration,
          new URL(`${flow.redirectUri}?${params.toString()}`),
          {
            pkceCodeVerifier: flow.codeVerifier,
            expectedState: flow.state,
            expectedNonce: flow.nonce,
            idTokenExpected: true,
          },
        );
        claims = { ...tokens.claims() };
        if (claims.email === undefined) {
          // Some providers keep the address out of the ID token: the userinfo of the same subject.
          const info = await client.fetchUserInfo(configuration, tokens.access_token, String(claims.sub));
          claims = { ...info, ...claims };
        }
      } catch (error) {
        if (error instanceof OidcError && error.unreachable) {
          await fail(error.message);
          throw unreachable(request, reply, error);
        }
        throw await fail(`the code exchange failed: ${describe(error)}`);
      }

      try {
        const email = verifiedEmail(claims);
        seen.email = email;
        if (!domainAllowed(email, provider.email_domains)) throw new OidcError('the domain is not allowed');
        if (!servesApp(provider.audience, flow.app))
          throw new OidcError(`the provider does not serve the ${flow.app}`);
        const user = await accountOf(db, tenantId, email, flow.app, provider.create_clients);
        return await options.logIn(request, reply, user.id, user.isStaff);
      } catch (error) {
        if (error instanceof OidcError) throw await fail(error.message);
        throw error;
      }
    },
  );
}

/**
 * An openid-client error in a line: the codes and messages down its causes (openid-client wraps
 * oauth4webapi's, which names the claim), and the provider's error code; never a token.
 */
function describe(error: unknown): string {
  const parts: string[] = [];
  let current: unknown = error;
  for (let depth = 0; depth < 3 && current && typeof current === 'object'; depth += 1) {
    const e = current as {
      code?: unknown;
      error?: unknown;
      message?: unknown;
      claim?: unknown;
      cause?: unknown;
    };
    for (const part of [e.code, e.error, e.message, e.claim && `(claim ${String(e.claim)})`])
      if (typeof part === 'string' && part && !parts.includes(part)) parts.push(part);
    current = e.cause;
  }
  return (parts.length > 0 ? parts.join(' ') : String(error)).slice(0, 300);
}
