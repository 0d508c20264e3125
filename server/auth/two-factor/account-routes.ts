/**
 * The signed-in user's own two-factor sign-in, operators and clients alike (issue 38, item 1): see it,
 * start (a secret and its QR code), confirm with a first code (ten recovery codes, shown once), turn it
 * off with a current code or the password. Codes checked here pass the login limiter too: a session
 * left open is no way to guess a code or a password without limit. Each change is audited, its secret never.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Db } from '../../db/database.ts';
import { HttpError, ValidationError, unauthenticated } from '../../http/errors.ts';
import { serverText } from '../../../common/server-texts.ts';
import { audit } from '../../audit/audit.ts';
import type { PasswordHashing } from '../password-hashing.ts';
import { retryAfterSeconds, tooManyAttemptsMessage, type LoginLimiter } from '../rate-limit.ts';
import { otpauthUrl, qrDataUrl } from './codes.ts';
import { acceptCode, confirmEnrolment, removeTwoFactor, startEnrolment, twoFactorState } from './store.ts';
import { confirmRoute, disableRoute, startRoute, stateRoute, type DisableBody } from './schemas.ts';

export interface TwoFactorAccountOptions {
  db: Db;
  limiter: LoginLimiter;
  hashing: PasswordHashing;
}

export async function twoFactorAccountRoutes(
  app: FastifyInstance,
  options: TwoFactorAccountOptions,
): Promise<void> {
  const { db, limiter, hashing } = options;

  /** The caller (a signed-in user, never a record link or an API token) and their address. */
  async function caller(request: FastifyRequest) {
    const auth = await request.getAuth();
    if (auth.userId === null || auth.kind === 'record-token' || auth.tokenId !== undefined)
      throw unauthenticated();
    const user = await db
      .selectFrom('users')
      .select(['email', 'password_hash'])
      .where('id', '=', auth.userId)
      .where('tenant_id', '=', auth.tenantId)
      .executeTakeFirst();
    if (!user) throw unauthenticated();
    return { auth, email: String(user.email).toLowerCase(), passwordHash: user.password_hash ?? null };
  }

  /** Runs `check` as one login attempt: a false answer stays counted as a failure. */
  async function limited(
    request: FastifyRequest,
    reply: FastifyReply,
    email: string,
    check: () => Promise<boolean>,
  ): Promise<boolean> {
    const tenantId = request.tenant.id;
    const attempt = await limiter.begin(tenantId, email, request.ip);
    if (!attempt.allowed) {
      reply.header('retry-after', retryAfterSeconds(attempt.retryAfterMs));
      throw new HttpError(429, tooManyAttemptsMessage(attempt.retryAfterMs));
    }
    let ok: boolean;
    try {
      ok = await check();
    } catch (error) {
      await attempt.abandoned();
      throw error;
    }
    if (ok) await attempt.succeeded();
    return ok;
  }

  app.get('/api/auth/two-factor', stateRoute, async (request) => {
    const { auth } = await caller(request);
    const state = await twoFactorState(db, auth.tenantId, auth.userId!);
    return {
      enabled: state.enrolled,
      enrolled_at: state.enrolledAt,
      required: state.required,
      recovery_codes_left: state.recoveryCodesLeft,
    };
  });

  app.post('/api/auth/two-factor/start', startRoute, async (request) => {
    const { auth, email } = await caller(request);
    const state = await twoFactorState(db, auth.tenantId, auth.userId!);
    if (state.enrolled) throw new ValidationError({ code: [serverText('two_factor_already_on')] });
    const secret = await startEnrolment(db, auth.tenantId, auth.userId!);
    const url = otpauthUrl(secret, email, request.tenant.name);
    return { secret, otpauth_url: url, qr_code: await qrDataUrl(url) };
  });

  app.post('/api/auth/two-factor/confirm', confirmRoute, async (request, reply) => {
    const { auth, email } = await caller(request);
    const { code } = request.body as { code: string };
    const state = await twoFactorState(db, auth.tenantId, auth.userId!);
    if (state.enrolled) throw new ValidationError({ code: [serverText('two_factor_already_on')] });
    let codes: string[] | null = null;
    const ok = await limited(request, reply, email, async () => {
      codes = await confirmEnrolment(db, auth.tenantId, auth.userId!, code);
      return codes !== null;
    });
    if (!ok || !codes) throw new ValidationError({ code: [serverText('two_factor_code_invalid')] });
    await audit(db, auth, { action: 'two_factor.enable' });
    return { recovery_codes: codes };
  });

  app.post('/api/auth/two-factor/disable', disableRoute, async (request, reply) => {
    const { auth, email, passwordHash } = await caller(request);
    const body = (request.body ?? {}) as DisableBody;
    const state = await twoFactorState(db, auth.tenantId, auth.userId!);
    if (!state.enrolled) throw new ValidationError({ code: [serverText('two_factor_not_on')] });
    if (state.required) throw new ValidationError({ code: [serverText('two_factor_required_by_role')] });
    const code = body.code?.trim();
    if (!code && !body.password)
      throw new ValidationError({ code: [serverText('two_factor_proof_missing')] });
    const ok = await limited(request, reply, email, async () =>
      code
        ? acceptCode(db, auth.tenantId, auth.userId!, code, true)
        : (await hashing.verify(passwordHash, body.password!, 'trusted')).matches,
    );
    if (!ok)
      throw code
        ? new ValidationError({ code: [serverText('two_factor_code_invalid')] })
        : new ValidationError({ password: [serverText('two_factor_password_invalid')] });
    await removeTwoFactor(db, auth.tenantId, auth.userId!);
    await audit(db, auth, { action: 'two_factor.disable', changes: { proof: code ? 'code' : 'password' } });
    return { message: 'Two-factor sign-in is off.' };
  });
}
