import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config.ts';
import type { Db } from '../db/database.ts';
import type { Registry } from '../schema/registry.ts';
import { HttpError, ValidationError, unauthenticated } from '../http/errors.ts';
import type { Tenant } from './context.ts';
import type { AccessTokens } from './access-tokens.ts';
import { MULTIPLE_SESSIONS_MESSAGE, bearerToken, type Authenticator } from './authenticate.ts';
import { CONFIG_LIMITS, checkConfigValues, tooManyConfigs } from './config-limits.ts';
import { loadLoginLists } from './lists.ts';
import { requestLanguage } from '../http/language.ts';
import { SsoError, authorizeUrl, emailOfCode, ssoEnabled } from './msgraph.ts';
import { linkOrigin } from '../mail/link-origin.ts';
import type { LoginLimiter } from './rate-limit.ts';
import type { PasswordHashing } from './password-hashing.ts';
import type { KnownDevices } from './known-devices.ts';
import { checkPassword } from './password-login.ts';
import {
  endSession,
  rotateRefreshToken,
  sessionOfRefreshToken,
  startSession,
  type IssuedSession,
  type SessionRef,
} from './sessions.ts';
import {
  loginBody,
  meResponse,
  messageResponse,
  saveConfigsBody,
  ssoResponse,
  statusResponse,
  tokenResponse,
  userResponse,
  type LoginBody,
  type SaveConfigsBody,
} from './schemas.ts';
import { findLoginUser, loadUserPayload } from './user.ts';
import { AUTH_DOCS } from '../docs/fixed-schemas.ts';
import { errorResponses } from '../docs/error-answers.ts';
import { serverText } from '../../common/server-texts.ts';
import { audit } from '../audit/audit.ts';
import { challengeAnswer, challengeFor, twoFactorLoginRoutes } from './two-factor/login-routes.ts';
import { twoFactorAccountRoutes } from './two-factor/account-routes.ts';
import { oidcRoutes } from './oidc/routes.ts';

export const REFRESH_COOKIE = 'refresh_token';
/** The refresh cookie only travels to the calls that use it. */
const REFRESH_COOKIE_PATH = '/api/auth';

export { BAD_CREDENTIALS } from './password-login.ts';
export const SSO_NOT_CONFIGURED = serverText('sso_not_configured');
export const SSO_FAILED = serverText('sso_failed');

export interface AuthRoutesOptions {
  db: Db;
  config: Pick<Config, 'refreshTokenDays' | 'msgraph' | 'publicUrl' | 'ssoAllowPrivateIssuers'>;
  tokens: AccessTokens;
  authenticator: Authenticator;
  limiter: LoginLimiter;
  registry: Registry;
  /** The app's one way to argon2 (password-hashing.ts). */
  hashing: PasswordHashing;
  devices: KnownDevices;
}

const DAY_MS = 86_400_000;

/** Whole days until the trial ends, floored: below 0 exactly when it has ended (spec route guard 3). */
export function trialEndsIn(trialEndsAt: Date | null, now = Date.now()): number | null {
  return trialEndsAt ? Math.floor((trialEndsAt.getTime() - now) / DAY_MS) : null;
}

export async function authRoutes(app: FastifyInstance, options: AuthRoutesOptions): Promise<void> {
  const { db, config, tokens, authenticator, devices } = options;
  const refreshSeconds = Math.round(config.refreshTokenDays * 86_400);

  function setRefreshCookie(request: FastifyRequest, reply: FastifyReply, token: string): void {
    reply.setCookie(REFRESH_COOKIE, token, {
      httpOnly: true,
      sameSite: 'strict',
      path: REFRESH_COOKIE_PATH,
      secure: request.protocol === 'https',
      maxAge: refreshSeconds,
    });
  }

  function clearRefreshCookie(request: FastifyRequest, reply: FastifyReply): void {
    reply.clearCookie(REFRESH_COOKIE, {
      httpOnly: true,
      sameSite: 'strict',
      path: REFRESH_COOKIE_PATH,
      secure: request.protocol === 'https',
    });
  }

  /** The login and refresh answer: the user, a new access token, and the refresh cookie. */
  async function sessionAnswer(
    request: FastifyRequest,
    reply: FastifyReply,
    tenant: Tenant,
    userId: number,
    session: IssuedSession,
  ) {
    const user = await loadUserPayload(db, tenant.id, userId);
    if (!user) throw unauthenticated();
    setRefreshCookie(request, reply, session.refreshToken);
    return {
      user,
      access_token: await tokens.sign({ userId, tenantId: tenant.id, sessionId: session.sessionId }),
      token_type: 'Bearer' as const,
      expires_in: tokens.lifetimeSeconds,
    };
  }

  app.get(
    '/api/system/status',
    {
      schema: {
        ...AUTH_DOCS.status,
        tags: ['system'],
        response: { 200: { description: 'The status.', ...statusResponse }, ...errorResponses(404) },
      },
    },
    async (request) => {
      const tenant = request.tenant;
      return {
        setup_completed: tenant.setupCompleted,
        trial_ends_in: trialEndsIn(tenant.trialEndsAt),
        tenant_name: tenant.name,
        tenant: tenant.slug,
      };
    },
  );

  /** Starts a session for a user whose credentials (password or SSO code) have been checked. */
  async function logIn(request: FastifyRequest, reply: FastifyReply, userId: number, isStaff: boolean) {
    const tenant = request.tenant;
    const session = await startSession(db, { tenantId: tenant.id, userId, isStaff }, config.refreshTokenDays);
    await audit(db, { tenantId: tenant.id, userId, ip: request.ip }, { action: 'auth.login' });
    authenticator.cache.forgetUser(tenant.id, userId);
    const answer = await sessionAnswer(request, reply, tenant, userId, session);
    // What GET /auth/me adds, so an app starts on one round trip instead of two (issue 17). The
    // context is the one the token's first call then reads from the cache.
    const auth = await authenticator.fromAccessToken(tenant, answer.access_token);
    const language = requestLanguage(request.headers['accept-language']);
    const lists = await loadLoginLists({ db, registry: options.registry }, { ...auth, language });
    return { ...answer, lists };
  }

  /**
   * `{code, portal: true}`: a Microsoft authorization code. The e-mail address Graph gives for it logs
   * in the client (the portal) with that address; without `portal`, the operator.
   */
  async function ssoLogin(request: FastifyRequest, reply: FastifyReply, body: LoginBody) {
    if (!ssoEnabled(config.msgraph)) {
      throw new HttpError(422, SSO_NOT_CONFIGURED, { code: [SSO_NOT_CONFIGURED] });
    }
    const failed = () => {
      request.server.metrics?.loginFailures.inc({ method: 'sso' });
      return new HttpError(422, SSO_FAILED, { code: [SSO_FAILED] });
    };
    if (!body.code) throw failed();
    let email: string;
    try {
      email = await emailOfCode(config.msgraph, body.code, linkOrigin(request, config), request.log);
    } catch (error) {
      if (error instanceof SsoError) throw failed();
      throw error;
    }
    const user = await findLoginUser(db, request.tenant.id, email);
    if (!user || user.isStaff !== (body.portal !== true)) {
      request.log.warn({ portal: body.portal === true }, 'single sign-on failed: no such user');
      const who = { tenantId: request.tenant.id, userId: user?.id ?? null, ip: request.ip };
      await audit(db, who, { action: 'auth.login_failed', actor: email });
      throw failed();
    }
    return logIn(request, reply, user.id, user.isStaff);
  }

  // OpenID Connect providers per tenant (issue 38) sign in through the same logIn as a password.
  await app.register(oidcRoutes, { db, config, logIn });

  app.get(
    '/api/auth/sso',
    {
      schema: {
        ...AUTH_DOCS.sso,
        tags: ['auth'],
        response: { 200: { description: '`{enabled, authorize_url?}`.', ...ssoResponse } },
      },
    },
    async (request) =>
      ssoEnabled(config.msgraph)
        ? { enabled: true, authorize_url: authorizeUrl(config.msgraph, linkOrigin(request, config)) }
        : { enabled: false },
  );

  app.post(
    '/api/auth/login',
    {
      schema: {
        ...AUTH_DOCS.login,
        tags: ['auth'],
        body: loginBody,
        response: {
          200: {
            description: 'Signed in: the user, an access token and the lists GET /auth/me answers.',
            ...tokenResponse,
          },
          202: challengeAnswer,
          ...errorResponses(400, 422, 429, 503),
        },
      },
    },
    async (request, reply) => {
      const body = (request.body ?? {}) as LoginBody;
      if (body.code !== undefined) return ssoLogin(request, reply, body);
      const missing: Record<string, string[]> = {};
      if (!body.username?.trim()) missing.username = ['The username field is required.'];
      if (!body.password) missing.password = ['The password field is required.'];
      if (Object.keys(missing).length > 0) throw new ValidationError(missing);
      const email = body.username!.trim().toLowerCase();
      const password = body.password!;

      const checked = await checkPassword(options, request, reply, email, password);
      if (checked.secondStep) {
        // No session yet: the second step (two-factor/login-routes.ts) answers as this route does.
        reply.code(202);
        return challengeFor(db, request.tenant.id, checked.userId);
      }
      const answer = await logIn(request, reply, checked.userId, checked.isStaff);
      await devices.remember(request, reply, request.tenant.id, email, checked.device);
      return answer;
    },
  );

  await twoFactorLoginRoutes(app, { db, limiter: options.limiter, devices, logIn });
  await twoFactorAccountRoutes(app, { db, limiter: options.limiter, hashing: options.hashing });

  // Refresh and logout read the cookie and take no body: clients send none or `{}`, and a body
  // schema would refuse the first (Fastify validates a missing body as `undefined`).
  app.post(
    '/api/auth/refresh',
    {
      schema: {
        ...AUTH_DOCS.refresh,
        tags: ['auth'],
        response: {
          200: { description: 'A new access token; the refresh cookie is rotated.', ...tokenResponse },
          ...errorResponses(401),
        },
      },
    },
    async (request, reply) => {
      const tenant = request.tenant;
      const presented = request.cookies[REFRESH_COOKIE];
      if (!presented) throw unauthenticated();
      const result = await rotateRefreshToken(db, tenant.id, presented, config.refreshTokenDays);
      if (!result.ok) {
        // A revoked family ends the session's access tokens too: drop them from the cache now.
        if (result.userId !== undefined) authenticator.cache.forgetUser(tenant.id, result.userId);
        clearRefreshCookie(request, reply);
        throw unauthenticated(result.reason === 'other-session' ? MULTIPLE_SESSIONS_MESSAGE : undefined);
      }
      return sessionAnswer(request, reply, tenant, result.userId, result);
    },
  );

  app.post(
    '/api/auth/logout',
    {
      schema: {
        ...AUTH_DOCS.logout,
        tags: ['auth'],
        response: { 200: { description: 'Signed out.', ...messageResponse } },
      },
    },
    async (request, reply) => {
      const tenant = request.tenant;
      let session: SessionRef | undefined;
      const presented = request.cookies[REFRESH_COOKIE];
      if (presented) session = await sessionOfRefreshToken(db, tenant.id, presented);
      if (!session) {
        // No usable cookie (another tab logged out first, cookies blocked): end the access token's session.
        const claims = await tokens.verify(bearerToken(request.headers.authorization) ?? '');
        if (claims && claims.tenantId === tenant.id) session = { ...claims };
      }
      if (session) {
        await endSession(db, session);
        await audit(
          db,
          { tenantId: tenant.id, userId: session.userId, ip: request.ip },
          { action: 'auth.logout' },
        );
        authenticator.cache.forgetUser(tenant.id, session.userId);
      }
      clearRefreshCookie(request, reply);
      return { message: 'Logged out.' };
    },
  );

  /** The signed-in user's id; a record token opens one record and is nobody's login. */
  async function signedInUser(request: FastifyRequest): Promise<number> {
    const auth = await request.getAuth();
    if (auth.userId === null) throw unauthenticated();
    return auth.userId;
  }

  app.get(
    '/api/auth/me',
    {
      schema: {
        ...AUTH_DOCS.me,
        tags: ['auth'],
        response: {
          200: { description: 'The caller and the lists the applications need.', ...meResponse },
          ...errorResponses(401),
        },
      },
    },
    async (request) => {
      const userId = await signedInUser(request);
      const user = await loadUserPayload(db, request.tenant.id, userId);
      if (!user) throw unauthenticated();
      return {
        user,
        lists: await loadLoginLists({ db, registry: options.registry }, await request.getAuth()),
      };
    },
  );

  app.post(
    '/api/auth/me',
    {
      schema: {
        ...AUTH_DOCS.saveConfigs,
        tags: ['auth'],
        body: saveConfigsBody,
        response: {
          200: { description: 'The caller, with the settings saved.', ...userResponse },
          ...errorResponses(401, 422),
        },
      },
    },
    async (request) => {
      const userId = await signedInUser(request);
      const tenantId = request.tenant.id;
      const { configs } = (request.body as SaveConfigsBody).relationships;
      checkConfigValues(configs);
      // One row per name; the last value sent wins (one upsert may not touch a row twice).
      const byName = new Map(configs.map((c) => [c.name, c.value]));
      if (byName.size > 0) {
        const now = new Date();
        await db.transaction().execute(async (trx) => {
          await trx
            .insertInto('user_configs')
            .values(
              [...byName].map(([name, value]) => ({
                tenant_id: tenantId,
                user_id: userId,
                name,
                value: JSON.stringify(value ?? null),
                created_at: now,
                updated_at: now,
              })),
            )
            .onConflict((oc) =>
              oc.columns(['user_id', 'name']).doUpdateSet((eb) => ({
                value: eb.ref('excluded.value'),
                updated_at: eb.ref('excluded.updated_at'),
              })),
            )
            .execute();
          // Counted after the write, in its transaction: new names past the bound roll it back.
          const { count } = await trx
            .selectFrom('user_configs')
            .select((eb) => eb.fn.countAll<number>().as('count'))
            .where('tenant_id', '=', tenantId)
            .where('user_id', '=', userId)
            .executeTakeFirstOrThrow();
          if (Number(count) > CONFIG_LIMITS.perUser) throw tooManyConfigs();
        });
      }
      const user = await loadUserPayload(db, tenantId, userId);
      if (!user) throw unauthenticated();
      return { user };
    },
  );
}
