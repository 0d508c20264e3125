/**
 * The second step of a password login (issue 38, item 1). POST /auth/login answers 202 with a challenge
 * when the user has two-factor on or their role requires it (routes.ts); here the challenge and a code
 * (or a recovery code) become the login's own answer. Wrong codes are failed logins: the same limiter
 * (shared-attempts.ts), so the same lockout and slow-down, and the password step took back only its
 * own attempt, so no right password wipes the count of wrong codes.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Db } from '../../db/database.ts';
import { HttpError, ValidationError } from '../../http/errors.ts';
import { serverText } from '../../../common/server-texts.ts';
import { audit } from '../../audit/audit.ts';
import type { KnownDevices } from '../known-devices.ts';
import { retryAfterSeconds, tooManyAttemptsMessage, type LoginLimiter } from '../rate-limit.ts';
import { otpauthUrl, qrDataUrl } from './codes.ts';
import {
  CHALLENGE_SECONDS,
  acceptCode,
  confirmEnrolment,
  consumeChallenge,
  createChallenge,
  failChallenge,
  openChallenge,
  startEnrolment,
  twoFactorState,
  useRecoveryCode,
} from './store.ts';
import { challengeAnswer, loginEnrolRoute, secondStepRoute, type SecondStepBody } from './schemas.ts';

export { challengeAnswer };

/** routes.ts's way to start a session and answer as the login does. */
export type LogIn = (
  request: FastifyRequest,
  reply: FastifyReply,
  userId: number,
  isStaff: boolean,
) => Promise<Record<string, unknown>>;

export interface TwoFactorLoginOptions {
  db: Db;
  limiter: LoginLimiter;
  devices: KnownDevices;
  logIn: LogIn;
}

/** The 202 answer of a password login whose second step is due. */
export async function challengeFor(db: Db, tenantId: number, userId: number) {
  const state = await twoFactorState(db, tenantId, userId);
  return {
    two_factor: true as const,
    challenge: await createChallenge(db, tenantId, userId),
    enrol: !state.enrolled,
    expires_in: CHALLENGE_SECONDS,
  };
}

const challengeGone = () => new ValidationError({ challenge: [serverText('two_factor_challenge_invalid')] });

/** The challenge's user, still active in the request's tenant; a 422 otherwise. */
async function challengeUser(db: Db, tenantId: number, token: string) {
  const challenge = await openChallenge(db, tenantId, token);
  if (!challenge) throw challengeGone();
  const user = await db
    .selectFrom('users')
    .select(['id', 'email', 'is_staff'])
    .where('id', '=', challenge.userId)
    .where('tenant_id', '=', tenantId)
    .where('archived_at', 'is', null)
    .executeTakeFirst();
  if (!user) throw challengeGone();
  return {
    challengeId: challenge.id,
    userId: user.id,
    email: String(user.email).toLowerCase(),
    isStaff: user.is_staff,
  };
}

export async function twoFactorLoginRoutes(
  app: FastifyInstance,
  options: TwoFactorLoginOptions,
): Promise<void> {
  const { db, limiter, devices, logIn } = options;

  app.post('/api/auth/login/two-factor', secondStepRoute, async (request, reply) => {
    const tenant = request.tenant;
    const body = request.body as SecondStepBody;
    const code = body.code?.trim() ?? '';
    const recovery = body.recovery_code?.trim() ?? '';
    if (!code && !recovery) throw new ValidationError({ code: [serverText('two_factor_code_missing')] });
    const user = await challengeUser(db, tenant.id, body.challenge);

    const device = await devices.recognise(request, tenant.id, user.email);
    const attempt = await limiter.begin(tenant.id, user.email, request.ip, device);
    if (!attempt.allowed) {
      request.server.metrics?.rateLimitRefusals.inc({ limit: 'login' });
      reply.header('retry-after', retryAfterSeconds(attempt.retryAfterMs));
      throw new HttpError(429, tooManyAttemptsMessage(attempt.retryAfterMs));
    }
    try {
      const state = await twoFactorState(db, tenant.id, user.userId);
      let recoveryCodes: string[] | null = null;
      let accepted: boolean;
      if (!state.enrolled) {
        // Enrolling at sign-in (the role requires it): the first code confirms the enrolment.
        recoveryCodes = code ? await confirmEnrolment(db, tenant.id, user.userId, code) : null;
        accepted = recoveryCodes !== null;
      } else if (code) accepted = await acceptCode(db, tenant.id, user.userId, code, true);
      else accepted = await useRecoveryCode(db, tenant.id, user.userId, recovery);

      const who = { tenantId: tenant.id, userId: user.userId, ip: request.ip };
      if (!accepted) {
        // The attempt stays counted as failed (it was from its start), and the challenge wears down.
        await failChallenge(db, user.challengeId);
        request.server.metrics?.loginFailures.inc({ method: 'two_factor' });
        await audit(db, who, {
          action: 'auth.login_failed',
          actor: user.email,
          changes: { second_step: code ? 'code' : 'recovery_code' },
        });
        const field = code ? 'code' : 'recovery_code';
        throw new ValidationError({
          [field]: [serverText(code ? 'two_factor_code_invalid' : 'two_factor_recovery_invalid')],
        });
      }
      if (!(await consumeChallenge(db, user.challengeId))) throw challengeGone();
      await attempt.succeeded();
      if (recoveryCodes) await audit(db, who, { action: 'two_factor.enable', changes: { at_sign_in: true } });
      else if (!code) await audit(db, who, { action: 'two_factor.recovery_code_used' });
      const answer = await logIn(request, reply, user.userId, user.isStaff);
      await devices.remember(request, reply, tenant.id, user.email, device);
      return recoveryCodes ? { ...answer, recovery_codes: recoveryCodes } : answer;
    } catch (error) {
      // Only a judged attempt counts: a failure of the server takes it back (as password-login.ts does).
      if (!(error instanceof HttpError))
        await Promise.resolve()
          .then(() => attempt.abandoned())
          .catch((undo: unknown) => request.log.warn({ err: undo }, 'login: could not take back an attempt'));
      throw error;
    }
  });

  app.post('/api/auth/login/two-factor/enrol', loginEnrolRoute, async (request) => {
    const tenant = request.tenant;
    const user = await challengeUser(db, tenant.id, (request.body as { challenge: string }).challenge);
    const state = await twoFactorState(db, tenant.id, user.userId);
    if (state.enrolled) throw new ValidationError({ challenge: [serverText('two_factor_already_on')] });
    const secret = await startEnrolment(db, tenant.id, user.userId);
    const url = otpauthUrl(secret, user.email, tenant.name);
    return { secret, otpauth_url: url, qr_code: await qrDataUrl(url) };
  });
}
