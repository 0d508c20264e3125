import fp from 'fastify-plugin';
import fastifyJwt, { type JWT } from '@fastify/jwt';
import cookie from '@fastify/cookie';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Config } from '../config.ts';
import type { Db } from '../db/database.ts';
import { registry as schemaRegistry, type Registry } from '../schema/registry.ts';
import type { AuthContext } from './context.ts';
import { AccessTokens } from './access-tokens.ts';
import { staticKeyRing, type KeyRing } from '../db/signing-keys.ts';
import { Authenticator } from './authenticate.ts';
import type { LoginLimiter } from './rate-limit.ts';
import { SharedLoginRateLimiter } from './shared-attempts.ts';
import { SessionEvents } from './session-events.ts';
import type { Listener } from '../db/listener.ts';
import { requestLanguage } from '../http/language.ts';
import { authRoutes } from './routes.ts';
import { addAuthSchemas } from './schemas.ts';
import { passwordResetRoutes, type ResetLimiter } from './password-reset.ts';
import { PasswordHashing } from './password-hashing.ts';
import { KnownDevices } from './known-devices.ts';

export { createRecordToken } from './record-tokens.ts';

export interface AuthPluginOptions {
  db: Db;
  config: Config;
  /** The keys access tokens are signed with; default: config.jwtSecret as the one key. */
  jwtKeys?: KeyRing;
  /** Resolves a record token's resource to its table; default: the schemas folder. */
  registry?: Registry;
  /**
   * Injectable for tests (a fake clock); default: 5 per account, 20 per address in 15 minutes, counted
   * in the database so every instance on it shares the counts.
   */
  rateLimiter?: LoginLimiter;
  /** Default: 5 password reset requests per account, 20 per address in 15 minutes, in the database. */
  resetLimiter?: ResetLimiter;
  /**
   * PostgreSQL: the instance's LISTEN connection, on which it hears the auth changes other instances
   * make (session-events.ts); absent (PGlite, one process): this process's own changes are all there are.
   */
  listener?: Listener;
}

/** Login limits as configured: the tenant's budget from LOGIN_FAILURES_PER_MINUTE. */
function loginLimiter(db: Db, config: Config): LoginLimiter {
  return new SharedLoginRateLimiter(db, { perTenantPerMinute: config.loginFailuresPerMinute });
}

/**
 * Authentication: `request.getAuth()` for every route, and the login, refresh, logout, me and system
 * status calls. Needs the tenancy plugin (request.tenant) registered before it.
 */
async function auth(app: FastifyInstance, options: AuthPluginOptions): Promise<void> {
  const { db, config } = options;
  const keys = options.jwtKeys ?? (config.jwtSecret ? staticKeyRing(config.jwtSecret) : undefined);
  if (!keys) throw new Error('auth plugin: config.jwtSecret or jwtKeys is required');
  const registeredKey = (await keys.current()).key;
  if (!app.hasRequestDecorator('cookies')) await app.register(cookie);

  // @fastify/jwt is registered in a scope of its own: only this plugin signs and verifies access
  // tokens, and the rest of the app keeps no `request.user` or `app.jwt` it should not rely on.
  let jwt: JWT | undefined;
  await app.register(async (scope) => {
    await scope.register(fastifyJwt, {
      secret: registeredKey,
      sign: { algorithm: 'HS256', expiresIn: config.accessTokenSeconds },
      verify: { algorithms: ['HS256'] },
    });
    jwt = scope.jwt;
  });
  if (!jwt) throw new Error('auth plugin: @fastify/jwt did not load');

  const tokens = new AccessTokens(jwt, config.accessTokenSeconds, keys, registeredKey);
  const authenticator = new Authenticator({
    db,
    tokens,
    registry: () => options.registry ?? schemaRegistry(),
    apiTokensPerMinute: config.apiTokenRequestsPerMinute,
  });

  // The live streams (server/live) check their caller again at every heartbeat: a logout, an expired
  // token or an archived account ends the stream.
  app.decorate('authenticator', authenticator);
  if (options.listener)
    app.decorate('sessionEvents', new SessionEvents(options.listener, authenticator.cache));

  // One resolution per request, however many hooks and handlers ask.
  const resolved = new WeakMap<FastifyRequest, Promise<AuthContext>>();
  app.decorateRequest('getAuth', function getAuth(this: FastifyRequest): Promise<AuthContext> {
    let pending = resolved.get(this);
    if (!pending) {
      const language = requestLanguage(this.headers['accept-language']);
      // The context may be shared across requests (context-cache.ts); the language and address are this request's.
      const ip = this.ip;
      pending = authenticator.authenticate(this).then((auth) => ({ ...auth, language, ip }));
      resolved.set(this, pending);
    }
    return pending;
  });

  // One queue for every argon2 hash and verify of this app (password-hashing.ts); the records API's
  // password fields use it too.
  const hashing = new PasswordHashing(config.passwordHashing);
  app.decorate('passwordHashing', hashing);

  addAuthSchemas(app);
  await app.register(authRoutes, {
    db,
    config,
    tokens,
    authenticator,
    limiter: options.rateLimiter ?? loginLimiter(db, config),
    registry: options.registry ?? schemaRegistry(),
    hashing,
    devices: new KnownDevices(keys),
  });
  await app.register(passwordResetRoutes, {
    db,
    config,
    authenticator,
    limiter: options.resetLimiter,
    hashing,
  });
}

export const authPlugin = fp(auth, { name: 'auth', fastify: '5.x', dependencies: ['tenancy'] });

declare module 'fastify' {
  interface FastifyInstance {
    /** PostgreSQL with a listen URL only: what hears other instances' auth changes. */
    sessionEvents?: SessionEvents;
    /** Turns a bearer token into the caller, as every request does. */
    authenticator: Authenticator;
    /** Every argon2 hash and verify of this app, in its bounded slots (password-hashing.ts). */
    passwordHashing: PasswordHashing;
  }
}
