import argon2 from 'argon2';
import { sql } from 'kysely';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Config } from '../config.ts';
import type { Db } from '../db/database.ts';
import { HttpError, ValidationError } from '../http/errors.ts';
import type { Mailer } from '../mail/mailer.ts';
import { MAIL_LOCALES, passwordResetMail, type MailLocale } from '../mail/password-reset-mail.ts';
import type { Authenticator } from './authenticate.ts';
import { LOGIN_WINDOW_MS, SlidingWindowCounter, type Clock } from './rate-limit.ts';
import { messageResponse } from './schemas.ts';
import { randomToken, tokenHash } from './tokens.ts';

export const RESET_REQUESTED =
  'If we know this e-mail address, you will receive an e-mail with a link shortly.';
export const RESET_INVALID = 'This password reset link is invalid or has expired.';
export const RESET_DONE = 'Your password has been reset.';
export const CONFIRMATION_MISMATCH = 'The password confirmation does not match.';
export const RESET_TOKEN_MINUTES = 60;

/** The spec's min-length message: '{subject} must be at least {length} characters long.' */
export function minLengthMessage(subject: string, length: number): string {
  return `${subject} must be at least ${length} characters long.`;
}

/**
 * Origin of links that leave the server (e-mails, the SSO redirect URI): PUBLIC_URL when set, else the
 * request's protocol and Host. Set PUBLIC_URL in production: a Host header is chosen by the caller.
 */
export function publicOrigin(request: FastifyRequest, config: Pick<Config, 'publicUrl'>): string {
  return config.publicUrl ?? `${request.protocol}://${request.host}`;
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

/**
 * Reset requests per account (tenant + e-mail) and per client address, like login: every request
 * counts, at most 5 per account and 20 per address in 15 minutes.
 */
export class PasswordResetRateLimiter {
  private readonly accounts: SlidingWindowCounter;
  private readonly addresses: SlidingWindowCounter;

  constructor({
    clock,
    perAccount = 5,
    perAddress = 20,
    windowMs = LOGIN_WINDOW_MS,
  }: { clock?: Clock; perAccount?: number; perAddress?: number; windowMs?: number } = {}) {
    this.accounts = new SlidingWindowCounter({ max: perAccount, windowMs, clock });
    this.addresses = new SlidingWindowCounter({ max: perAddress, windowMs, clock });
  }

  /** 0 and counted when allowed; else the milliseconds until the next request is. */
  take(tenantId: number, email: string, address: string): number {
    const account = `${tenantId}:${email}`;
    const wait = Math.max(this.accounts.retryAfterMs(account), this.addresses.retryAfterMs(address));
    if (wait > 0) return wait;
    this.accounts.recordFailure(account);
    this.addresses.recordFailure(address);
    return 0;
  }
}

export function tooManyResetRequestsMessage(retryAfterMs: number): string {
  const minutes = Math.max(1, Math.ceil(retryAfterMs / 60_000));
  return `Too many password reset requests. Please try again in ${minutes} minutes.`;
}

export interface PasswordResetRoutesOptions {
  db: Db;
  config: Pick<Config, 'publicUrl' | 'passwordMinLength'>;
  mailer: Mailer;
  authenticator: Authenticator;
  limiter?: PasswordResetRateLimiter;
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
  const { db, config, mailer, authenticator } = options;
  const limiter = options.limiter ?? new PasswordResetRateLimiter();
  const pending = new Set<Promise<void>>();
  app.addHook('onClose', async () => {
    await Promise.allSettled([...pending]);
    mailer.close();
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
    const token = randomToken();
    const now = new Date();
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
    });
    await mailer.send(
      passwordResetMail({
        to: user.email,
        name: user.full_name ?? user.email,
        link: `${origin}/app/password/reset/${token}`,
        minutes: RESET_TOKEN_MINUTES,
        locale,
      }),
    );
  }

  app.post(
    '/api/auth/password/forgot',
    { schema: { tags: ['auth'], body: forgotBody, response: { 200: messageResponse } } },
    async (request, reply) => {
      const body = (request.body ?? {}) as ForgotBody;
      const email = body.email?.trim().toLowerCase();
      if (!email) throw new ValidationError({ email: ['The email field is required.'] });
      const tenant = request.tenant;
      const wait = limiter.take(tenant.id, email, request.ip);
      if (wait > 0) {
        reply.header('retry-after', String(Math.ceil(wait / 1000)));
        throw new HttpError(429, tooManyResetRequestsMessage(wait));
      }
      const log = request.log;
      const work = sendResetLink(tenant.id, email, publicOrigin(request, config), body.locale)
        .catch((error: unknown) => log.error({ err: error }, 'password reset: sending the link failed'))
        .finally(() => pending.delete(work));
      pending.add(work);
      return { message: RESET_REQUESTED };
    },
  );

  app.post(
    '/api/auth/password/reset',
    { schema: { tags: ['auth'], body: resetBody, response: { 200: messageResponse } } },
    async (request) => {
      const body = (request.body ?? {}) as ResetBody;
      const tenantId = request.tenant.id;
      const invalid = () => new ValidationError({ token: [RESET_INVALID] });

      // The link first: an expired link should say so, not ask for a better password.
      const row = body.token
        ? await db
            .selectFrom('password_resets')
            .select(['id', 'user_id', 'expires_at', 'used_at'])
            .where('tenant_id', '=', tenantId)
            .where('token_hash', '=', tokenHash(body.token))
            .executeTakeFirst()
        : undefined;
      if (!row || row.used_at || new Date(row.expires_at).getTime() <= Date.now()) throw invalid();

      const password = body.password ?? '';
      if ([...password].length < config.passwordMinLength) {
        throw new ValidationError({
          password: [minLengthMessage('The password', config.passwordMinLength)],
        });
      }
      if (body.password_confirmation !== password) {
        throw new ValidationError({ password_confirmation: [CONFIRMATION_MISMATCH] });
      }

      const hash = await argon2.hash(password);
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
