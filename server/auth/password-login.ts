/**
 * The password half of `POST /api/auth/login` (routes.ts): the limits, then the one argon2 verify in
 * the app's hashing queue, then a cheaper hash stored when the old one cost more. Everything here runs
 * before a session exists; routes.ts starts it and gives the known-device cookie.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Db } from '../db/database.ts';
import { HttpError, ValidationError } from '../http/errors.ts';
import type { KnownDevices } from './known-devices.ts';
import { HashingBusy, type PasswordHashing } from './password-hashing.ts';
import { retryAfterSeconds, tooManyAttemptsMessage, type LoginLimiter } from './rate-limit.ts';
import { findLoginUser, replacePasswordHash } from './user.ts';
import { audit } from '../audit/audit.ts';
import { twoFactorState } from './two-factor/store.ts';

export const BAD_CREDENTIALS = 'These credentials do not match our records.';

export interface PasswordLoginDeps {
  db: Db;
  limiter: LoginLimiter;
  hashing: PasswordHashing;
  devices: KnownDevices;
}

/** Who signed in, and the nonce of the known device it came from (to keep in its renewed cookie). */
export interface CheckedLogin {
  userId: number;
  isStaff: boolean;
  device: string | undefined;
  /** Two-factor is on for the user, or their role requires it: no session before the second step. */
  secondStep: boolean;
}

/**
 * Checks `email` and `password` for the request's tenant: 429 with Retry-After when a limit or the
 * hashing queue refuses, 422 for wrong credentials (an unknown address costs the same verify).
 */
export async function checkPassword(
  deps: PasswordLoginDeps,
  request: FastifyRequest,
  reply: FastifyReply,
  email: string,
  password: string,
): Promise<CheckedLogin> {
  const { db, limiter, hashing, devices } = deps;
  const tenant = request.tenant;
  // A browser this account signed in on before (known-devices.ts) is held to its own limit only, and
  // served first by the hashing queue: a flood of guesses does not keep the owner out.
  const device = await devices.recognise(request, tenant.id, email);
  const refuse = (retryAfterMs: number, limit: 'login' | 'password_hashing') => {
    request.server.metrics?.rateLimitRefusals.inc({ limit });
    reply.header('retry-after', retryAfterSeconds(retryAfterMs));
    return new HttpError(429, tooManyAttemptsMessage(retryAfterMs));
  };
  const attempt = await limiter.begin(tenant.id, email, request.ip, device);
  if (!attempt.allowed) throw refuse(attempt.retryAfterMs, 'login');

  try {
    const user = await findLoginUser(db, tenant.id, email);
    const lane = device ? 'trusted' : 'anonymous';
    const verdict = await hashing.verify(user?.passwordHash ?? null, password, lane);
    if (verdict.unusable && user?.passwordHash)
      request.log.warn({ userId: user.id }, 'login: the stored password hash cannot be verified');
    if (!user || !user.passwordHash || !verdict.matches) {
      request.server.metrics?.loginFailures.inc({ method: 'password' });
      // The name tried, never the password; the user when the name is one (issue 38).
      const who = { tenantId: tenant.id, userId: user?.id ?? null, ip: request.ip };
      await audit(db, who, { action: 'auth.login_failed', actor: email });
      throw new ValidationError({ username: [BAD_CREDENTIALS] }, BAD_CREDENTIALS);
    }
    // An older hash costs more to verify than today's (password-hashing.ts): replaced as it matched.
    if (verdict.rehashed)
      await replacePasswordHash(db, tenant.id, user.id, user.passwordHash, verdict.rehashed);
    const twoFactor = await twoFactorState(db, tenant.id, user.id);
    const secondStep = twoFactor.enrolled || twoFactor.required;
    // A right password with a second step due clears no failures: only this attempt is taken back, so
    // wrong codes after it keep counting toward the lockout (two-factor/login-routes.ts).
    if (secondStep) await attempt.abandoned();
    else await attempt.succeeded();
    return { userId: user.id, isStaff: user.isStaff, device, secondStep };
  } catch (error) {
    // A full hashing queue judged nothing: the attempt is taken back, the caller told when to return.
    const busy = error instanceof HashingBusy;
    if (busy || !(error instanceof HttpError)) {
      // Taking the attempt back must not hide why it failed (the database may be what failed).
      await Promise.resolve()
        .then(() => attempt.abandoned())
        .catch((undo: unknown) => request.log.warn({ err: undo }, 'login: could not take back an attempt'));
    }
    if (busy) throw refuse(error.retryAfterMs, 'password_hashing');
    throw error;
  }
}
