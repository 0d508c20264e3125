/**
 * Two-factor sign-in (issue 38, item 1): enrolment with a real RFC 6238 code (computed here with
 * otpauth from the secret the API hands out), the two-step login with a code and with a recovery code,
 * no code or recovery code taken twice (also when sent at once, also on two instances), wrong codes
 * counting toward the login lockout, with no secret in the audit log, the logs or the table.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSecondInstance, targets, type TestApp } from './harness.ts';
import {
  PASSWORD,
  codeOf,
  expectNoSecretIn,
  openTwoFactorWorld,
  twoFactorCalls,
} from './two-factor-world.ts';

describe.each(targets)('two-factor sign-in on $name', (target) => {
  let t: TestApp;
  let admin: Record<string, string>;
  let clientRoleId: number;
  /** Everything secret this test saw: none may appear in the audit log or the logs. */
  const secrets: string[] = [];
  const logLines: string[] = [];
  const { post, newClient, bearer, enrol, laterSteps, challengeOf } = twoFactorCalls(
    () => ({ t, admin, clientRoleId }),
    secrets,
  );

  beforeAll(async () => {
    ({ t, admin, clientRoleId } = await openTwoFactorWorld(target, logLines));
  });
  afterAll(() => t?.close());

  it('enrols with a QR code and a first code, then signs in with a code; no code counts twice', async () => {
    const user = await newClient('Enrol');
    const headers = await bearer(user.email);
    const before = await t.app.inject({ method: 'GET', url: '/api/auth/two-factor', headers });
    expect(before.json()).toMatchObject({ enabled: false, required: false, recovery_codes_left: 0 });

    const start = await post('/api/auth/two-factor/start', {}, headers);
    expect(start.statusCode).toBe(200);
    const { secret, otpauth_url, qr_code } = start.json();
    secrets.push(secret);
    expect(otpauth_url).toContain(`secret=${secret}`);
    expect(otpauth_url).toContain(encodeURIComponent(user.email));
    expect(qr_code).toMatch(/^data:image\/svg\+xml;base64,/);
    expect(Buffer.from(qr_code.split(',')[1], 'base64').toString()).toContain('<svg');
    // Not on before it is confirmed: the password alone still signs in.
    await bearer(user.email);

    const wrong = await post('/api/auth/two-factor/confirm', { code: '000000' }, headers);
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json().errors.code).toEqual(['The code is not valid, or was used already.']);
    const first = codeOf(secret);
    const confirm = await post('/api/auth/two-factor/confirm', { code: first }, headers);
    expect(confirm.statusCode, confirm.body).toBe(200);
    const codes: string[] = confirm.json().recovery_codes;
    secrets.push(...codes);
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    const after = await t.app.inject({ method: 'GET', url: '/api/auth/two-factor', headers });
    expect(after.json()).toMatchObject({ enabled: true, recovery_codes_left: 10 });

    // The password now answers 202 with a challenge; the code that confirmed is spent.
    const challenge = await challengeOf(user.email);
    const reused = await post('/api/auth/login/two-factor', { challenge, code: first });
    expect(reused.statusCode).toBe(422);
    expect(reused.json().errors.code).toEqual(['The code is not valid, or was used already.']);
    const next = codeOf(secret, 1);
    const signedIn = await post('/api/auth/login/two-factor', { challenge, code: next });
    expect(signedIn.statusCode, signedIn.body).toBe(200);
    expect(signedIn.json()).toMatchObject({ token_type: 'Bearer', user: { email: user.email } });
    expect(signedIn.json().lists).toBeTypeOf('object');
    expect(String(signedIn.headers['set-cookie'])).toContain('refresh_token=');
    const me = await t.app.inject({
      method: 'GET',
      url: '/api/auth/me',
      headers: { authorization: `Bearer ${signedIn.json().access_token}` },
    });
    expect(me.statusCode).toBe(200);

    // The same code again, with a new challenge: refused. The challenge used: refused too.
    const again = await post('/api/auth/login/two-factor', {
      challenge: await challengeOf(user.email),
      code: next,
    });
    expect(again.statusCode).toBe(422);
    const spent = await post('/api/auth/login/two-factor', { challenge, code: codeOf(secret, 1) });
    expect(spent.statusCode).toBe(422);
    expect(spent.json().errors.challenge).toEqual(['This sign-in has expired: sign in again.']);
    const forged = await post('/api/auth/login/two-factor', { challenge: 'x'.repeat(43), code: next });
    expect(forged.statusCode).toBe(422);
    expect(forged.json().errors).toHaveProperty('challenge');

    // One fresh code sent twice at once, with two challenges: exactly one signs in.
    await laterSteps(user.id);
    const [a, b] = [await challengeOf(user.email), await challengeOf(user.email)];
    const now = codeOf(secret);
    const both = await Promise.all([
      post('/api/auth/login/two-factor', { challenge: a, code: now }),
      post('/api/auth/login/two-factor', { challenge: b, code: now }),
    ]);
    expect(both.map((r) => r.statusCode).sort()).toEqual([200, 422]);

    // The secret is stored encrypted: the table holds no base32 secret.
    const row = await t.db
      .selectFrom('two_factor')
      .selectAll()
      .where('user_id', '=', user.id)
      .executeTakeFirstOrThrow();
    expect(row.secret_encrypted).not.toContain(secret);
    expect(row.enrolled_at).not.toBeNull();
    const hashes = await t.db
      .selectFrom('two_factor_recovery_codes')
      .select('code_hash')
      .where('user_id', '=', user.id)
      .execute();
    expect(hashes).toHaveLength(10);
    for (const code of codes) expect(JSON.stringify(hashes)).not.toContain(code.replace('-', ''));

    const enabled = await t.db
      .selectFrom('audit_log')
      .selectAll()
      .where('action', '=', 'two_factor.enable')
      .where('user_id', '=', user.id)
      .execute();
    expect(enabled).toHaveLength(1);
    expect(enabled[0]!.ip).toBe('198.51.100.1');
  });

  it('signs in with a recovery code once; a used one is refused', async () => {
    const user = await newClient('Recover');
    const { recoveryCodes } = await enrol(await bearer(user.email));
    const code = recoveryCodes[3]!;
    const signedIn = await post('/api/auth/login/two-factor', {
      challenge: await challengeOf(user.email),
      // As typed: upper case, with spaces around.
      recovery_code: ` ${code.toUpperCase()} `,
    });
    expect(signedIn.statusCode, signedIn.body).toBe(200);
    expect(signedIn.json().user.email).toBe(user.email);
    const again = await post('/api/auth/login/two-factor', {
      challenge: await challengeOf(user.email),
      recovery_code: code,
    });
    expect(again.statusCode).toBe(422);
    expect(again.json().errors.recovery_code).toEqual([
      'The recovery code is not valid, or was used already.',
    ]);
    const state = await t.app.inject({
      method: 'GET',
      url: '/api/auth/two-factor',
      headers: { authorization: `Bearer ${signedIn.json().access_token}` },
    });
    expect(state.json().recovery_codes_left).toBe(9);
    const used = await t.db
      .selectFrom('audit_log')
      .selectAll()
      .where('action', '=', 'two_factor.recovery_code_used')
      .where('user_id', '=', user.id)
      .execute();
    expect(used).toHaveLength(1);
    const none = await post('/api/auth/login/two-factor', { challenge: await challengeOf(user.email) });
    expect(none.statusCode).toBe(422);
    expect(none.json().errors.code).toEqual(['Give a code from your authenticator app or a recovery code.']);
  });

  it('counts wrong codes as failed logins: five from one address lock it out, the right code too', async () => {
    const user = await newClient('Lockout');
    const { secret } = await enrol(await bearer(user.email));
    const address = '198.51.100.77';
    // A right password takes back only its own attempt: the wrong codes after it keep counting.
    const kept = await challengeOf(user.email, address);
    for (let i = 0; i < 5; i += 1) {
      const challenge = await challengeOf(user.email, address);
      const wrong = await post('/api/auth/login/two-factor', { challenge, code: '000000' }, {}, address);
      expect(wrong.statusCode).toBe(422);
    }
    const failed = await t.db
      .selectFrom('audit_log')
      .selectAll()
      .where('action', '=', 'auth.login_failed')
      .where('user_id', '=', user.id)
      .execute();
    expect(failed).toHaveLength(5);
    expect(failed.every((e) => (e.changes as any).second_step === 'code')).toBe(true);
    // Locked out from here: neither the right code nor the right password passes.
    const code = await post(
      '/api/auth/login/two-factor',
      { challenge: kept, code: codeOf(secret, 1) },
      {},
      address,
    );
    expect(code.statusCode).toBe(429);
    expect(code.json().message).toMatch(
      /^Too many login attempts\. Please try again in \d+ (seconds|minutes)\.$/,
    );
    const password = await post('/api/auth/login', { username: user.email, password: PASSWORD }, {}, address);
    expect(password.statusCode).toBe(429);
    expect(Number(password.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('a challenge takes five wrong codes, then it is spent', async () => {
    const user = await newClient('Worn');
    const { secret } = await enrol(await bearer(user.email));
    const challenge = await challengeOf(user.email);
    // From five addresses, so that no address is locked out first: the challenge's own bound counts.
    for (let i = 0; i < 5; i += 1) {
      const res = await post(
        '/api/auth/login/two-factor',
        { challenge, code: '000000' },
        {},
        `198.51.100.${10 + i}`,
      );
      expect(res.statusCode).toBe(422);
    }
    const right = await post(
      '/api/auth/login/two-factor',
      { challenge, code: codeOf(secret, 1) },
      {},
      '198.51.100.20',
    );
    expect(right.statusCode).toBe(422);
    expect(right.json().errors).toHaveProperty('challenge');
  });

  it.runIf(target.url)('takes one code once across two instances on one database', async () => {
    const second = await buildSecondInstance(t);
    try {
      const user = await newClient('Instances');
      const { secret } = await enrol(await bearer(user.email));
      await laterSteps(user.id);
      const [a, b] = [await challengeOf(user.email), await challengeOf(user.email)];
      const code = codeOf(secret);
      const step = (app: TestApp, challenge: string) =>
        app.app.inject({ method: 'POST', url: '/api/auth/login/two-factor', payload: { challenge, code } });
      const answers = await Promise.all([step(t, a), step(second, b)]);
      expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 422]);
    } finally {
      await second.close();
    }
  });

  it('keeps every secret out of the audit log and the logs', async () => {
    await expectNoSecretIn(t, secrets, logLines);
  });
});
