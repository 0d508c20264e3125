import { sql } from 'kysely';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.ts';
import type { Db } from '../db/database.ts';
import { HttpError, ValidationError } from '../http/errors.ts';
import { linkOrigin } from '../mail/link-origin.ts';
import { enqueueMail } from '../mail/enqueue.ts';
import { MAIL_LOCALES, passwordResetMail, type MailLocale } from '../mail/password-reset-mail.ts';
import type { Authenticator } from './authenticate.ts';
import { retryAfterSeconds, waitText, type AttemptLimiterOptions } from './rate-limit.ts';
import { weakPasswordProblem } from './password-policy.ts';
import { SharedAttemptLimiter } from './shared-attempts.ts';
import type { PasswordHashing } from './password-hashing.ts';
import { messageResponse } from './schemas.ts';
import { randomToken, tokenHash } from './tokens.ts';
import { AUTH_DOCS } from '../docs/fixed-schemas.ts';
import { errorResponses } from '../docs/error-answers.ts';
import { serverText } from '../../common/server-texts.ts';

export const RESET_REQUESTED =
  'If we know this e-mail address, you will receive an e-mail with a link shortly.';
export const RESET_INVALID = 'This password reset link is invalid or has expired.';
export const RESET_DONE = 'Your password has been reset.';
export const CONFIRMATION_MISMATCH = serverText('password_confirmation_mismatch');
export const RESET_TOKEN_MINUTES = 60;

/** The spec's min-length message: '{subject} must be at least {length} characters long.' */
export function minLengthMessage(subject: string, length: number): string {
  return `${subject} must be at least ${length} characters long.`;
}

export const forgotBody = {
  type: 'object',
  additionalProperties: false,
  properties: {
    email: { type: 'string', maxLength: 255 },
    locale: { type: 'string', enum: [...MAIL_LOCALES] },
  },
} as const;

export const resetBody = {
  type: 'object',
  additionalProperties: false,
  properties: {
    token: { type: 'string', maxLength: 200 },
    password: { type: 'string', maxLength: 1024 },
    password_confirmation: { type: 'string', maxLength: 1024 },
  },
} as const;

interface ForgotBody {
  email?: string;
  locale?: MailLocale;
}

interface ResetBody {
  token?: string;
  password?: string;
  password_confirmation?: string;
}

/** What the forgot route needs: 0 and counted when allowed, else the milliseconds to wait. */
export interface ResetLimiter {
  take(tenantId: number, email: string, address: string): number | Promise<number>;
}

/**
 * Reset requests, limited like login attempts (every request counts: there is no success to take one
 * back): an address is locked out of an account after 5 and of all after 20 in 15 minutes; an account
 * asked for from anywhere is only slowed down, so a stranger cannot keep its owner from a new link.
 * Counted in the database (shared-attempts.ts), shared by every instance.
 */
export class SharedPasswordResetRateLimiter implements ResetLimiter {
  private readonly limiter: SharedAttemptLimiter;

  constructor(db: Db, options: AttemptLimiterOptions = {}) {
    this.limiter = new SharedAttemptLimiter(db, 'reset', options);
  }

  async take(tenantId: number, email: string, address: string): Promise<number> {
    const attempt = await this.limiter.begin(tenantId, email, address);
    return attempt.allowed ? 0 : attempt.retryAfterMs;
  }
}

export function tooManyResetRequestsMessage(retryAfterMs: number): string {
  return `Too many password reset requests. Please try again in ${waitText(retryAfterMs)}.`;
}

export interface PasswordResetRoutesOptions {
  db: Db;
  config: Pick<Config, 'publicUrl' | 'passwordMinLength'>;
  authenticator: Authenticator;
  limiter?: ResetLimiter;
  hashing: PasswordHashing;
}

/**
 * `POST /api/auth/password/forgot` and `POST /api/auth/password/reset`. The forgot call answers the
 * same, at once, whether or not the address is known: the lookup, the token and the e-mail happen after
 * the answer (awaited when the app closes), so neither the text nor the timing tells.
 */
export async function passwordResetRoutes(
  app: FastifyInstance,
  options: PasswordResetRoutesOptions,
): Promise<void> {
  const { db, config, authenticator, hashing } = options;
  const limiter = options.limiter ?? new SharedPasswordResetRateLimiter(db);
  const pending = new Set<Promise<void>>();
  app.addHook('onClose', async () => {
    await Promise.allSettled([...pending]);
  });

  async function sendResetLink(tenantId: number, email: string, origin: string, locale?: MailLocale) {
    const user = await db
      .selectFrom('users')
      .select(['id', 'email', 'full_name'])
      .where('tenant_id', '=', tenantId)
      .where(sql`lower(email)`, '=', email)
      .where('archived_at', 'is', null)
      // A contact without a password has no portal login: a reset link must not become one.
      .where('password_hash', 'is not', null)
      .executeTakeFirst();
    if (!user?.email) return;
    const userId = Number(user.id);
    const to = user.email;
    const name = user.full_name ?? user.email;
    const token = randomToken();
    const now = new Date();
    // The link's mail is queued with the link: both or neither.
    await db.transaction().execute(async (trx) => {
      // One open link per user: a new request makes the earlier ones useless.
      await trx
        .updateTable('password_resets')
        .set({ used_at: now })
        .where('tenant_id', '=', tenantId)
        .where('user_id', '=', userId)
        .where('used_at', 'is', null)
        .execute();
      await trx
        .insertInto('password_resets')
        .values({
          tenant_id: tenantId,
          user_id: userId,
          token_hash: tokenHash(token),
          expires_at: new Date(now.getTime() + RESET_TOKEN_MINUTES * 60_000),
          created_at: now,
        })
        .execute();
      await enqueueMail(
        trx,
        passwordResetMail({
          to,
          name,
          link: `${origin}/app/password/reset/${token}`,
          minutes: RESET_TOKEN_MINUTES,
          locale,
        }),
        { tenantId },
      );
    });
    app.outbox.wake();
  }

  app.post(
    '/api/auth/password/forgot',
    {
      schema: {
        ...AUTH_DOCS.forgot,
        tags: ['auth'],
        body: forgotBody,
        response: { 200: { description: 'Done.', ...messageResponse }, ...errorResponses(422, 429) },
      },
    },
    async (request, reply) => {
      const body = (request.body ?? {}) as ForgotBody;
      const email = body.email?.trim().toLowerCase();
      if (!email) throw new ValidationError({ email: ['The email field is required.'] });
      const tenant = request.tenant;
      // Before the limit: a request that can mail nothing uses up nobody's requests.
      const origin = linkOrigin(request, config);
      const wait = await limiter.take(tenant.id, email, request.ip);
      if (wait > 0) {
        request.server.metrics?.rateLimitRefusals.inc({ limit: 'password_reset' });
        reply.header('retry-after', retryAfterSeconds(wait));
        throw new HttpError(429, tooManyResetRequestsMessage(wait));
      }
      const log = request.log;
      const work = sendResetLink(tenant.id, email, origin, body.locale)
        .catch((error: unknown) => log.error({ err: error }, 'password reset: sending the link failed'))
        .finally(() => pending.delete(work));
      pending.add(work);
      return { message: RESET_REQUESTED };
    },
  );

  app.post(
    '/api/auth/password/reset',
    {
      schema: {
        ...AUTH_DOCS.reset,
        tags: ['auth'],
        body: resetBody,
        response: { 200: { description: 'Done.', ...messageResponse }, ...errorResponses(422, 429, 503) },
      },
    },
    async (request) => {
      const body = (request.body ?? {}) as ResetBody;
      const tenantId = request.tenant.id;
      const invalid = () => new ValidationError({ token: [RESET_INVALID] });

      // The link first: an expired link should say so, not ask for a better password.
      const row = body.token
        ? await db
            .selectFrom('password_resets as r')
            .innerJoin('users as u', 'u.id', 'r.user_id')
            .select(['r.id', 'r.user_id', 'r.expires_at', 'r.used_at', 'u.email'])
            .where('r.tenant_id', '=', tenantId)
            .where('r.token_hash', '=', tokenHash(body.token))
            .executeTakeFirst()
        : undefined;
      if (!row || row.used_at || new Date(row.expires_at).getTime() <= Date.now()) throw invalid();

      const password = body.password ?? '';
      if ([...password].length < config.passwordMinLength) {
        throw new ValidationError({
          password: [minLengthMessage('The password', config.passwordMinLength)],
        });
      }
      const weak = weakPasswordProblem(password, row.email);
      if (weak) throw new ValidationError({ password: [weak] });
      if (body.password_confirmation !== password) {
        throw new ValidationError({ password_confirmation: [CONFIRMATION_MISMATCH] });
      }

      // The link is valid: its holder is served before anonymous logins (503 if even that lane is full).
      const hash = await hashing.hash(password, 'trusted');
      const userId = Number(row.user_id);
      await db.transaction().execute(async (trx) => {
        const now = new Date();
        // The claim makes the link single use even when two resets race.
        const claimed = await trx
          .updateTable('password_resets')
          .set({ used_at: now })
          .where('id', '=', row.id)
          .where('used_at', 'is', null)
          .where('expires_at', '>', now)
          .returning('id')
          .executeTakeFirst();
        if (!claimed) throw invalid();
        const updated = await trx
          .updateTable('users')
          // A client has no session_id; an operator's current session ends here.
          .set({ password_hash: hash, session_id: null, updated_at: now })
          .where('id', '=', userId)
          .where('tenant_id', '=', tenantId)
          .where('archived_at', 'is', null)
          .returning('id')
          .executeTakeFirst();
        if (!updated) throw invalid();
        await trx
          .updateTable('refresh_tokens')
          .set({ revoked_at: now })
          .where('tenant_id', '=', tenantId)
          .where('user_id', '=', userId)
          .where('revoked_at', 'is', null)
          .execute();
        await trx
          .updateTable('password_resets')
          .set({ used_at: now })
          .where('tenant_id', '=', tenantId)
          .where('user_id', '=', userId)
          .where('used_at', 'is', null)
          .execute();
      });
      authenticator.cache.forgetUser(tenantId, userId);
      request.log.info({ userId }, 'password reset');
      return { message: RESET_DONE };
    },
  );
}
