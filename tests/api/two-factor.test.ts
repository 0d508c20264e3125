/**
 * Two-factor sign-in (issue 38, item 1): enrolment with a real RFC 6238 code (computed here with
 * otpauth from the secret the API hands out), the two-step login with a code and with a recovery code,
 * no code or recovery code taken twice (also when sent at once), wrong codes counting toward the login
 * lockout, a role that requires two-factor, the reset as a permission (second line yes, first line no)
 * and the audit entries, with no secret in the audit log, the logs or the table.
 */
import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import { Secret, TOTP } from 'otpauth';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REDACTED_LOG_PATHS } from '../../server/app.ts';
import { buildSecondInstance, buildTestApp, targets, type TestApp } from './harness.ts';

const MARK = randomBytes(3).toString('hex');
const PASSWORD = `Tw0-Factor-${MARK}-pass!`;

/** The code an authenticator app shows for `secret`, `steps` 30-second steps from now. */
function codeOf(secret: string, steps = 0): string {
  const totp = new TOTP({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 });
  return totp.generate({ timestamp: Date.now() + steps * 30_000 });
}

describe.each(targets)('two-factor sign-in on $name', (target) => {
  let t: TestApp;
  let admin: Record<string, string>;
  let clientRoleId: number;
  /** Everything secret this test saw: none may appear in the audit log or the logs. */
  const secrets: string[] = [];
  const logLines: string[] = [];

  const post = (
    url: string,
    payload: object,
    headers: Record<string, string> = {},
    address = '198.51.100.1',
  ) => t.app.inject({ method: 'POST', url, payload, headers, remoteAddress: address });

  async function newClient(name: string): Promise<{ id: number; email: string }> {
    const email = `${name.toLowerCase()}-${MARK}@example.com`;
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/clients',
      headers: admin,
      payload: { first_name: name, last_name: 'Factor', email, password: PASSWORD, role_id: clientRoleId },
    });
    expect(res.statusCode, res.body).toBe(201);
    return { id: res.json().id, email };
  }

  async function bearer(email: string, address?: string) {
    const res = await post('/api/auth/login', { username: email, password: PASSWORD }, {}, address);
    expect(res.statusCode, res.body).toBe(200);
    return { authorization: `Bearer ${res.json().access_token}` };
  }

  /** Enrols the user signed in with `headers`: the secret and the recovery codes. */
  async function enrol(headers: Record<string, string>) {
    const start = await post('/api/auth/two-factor/start', {}, headers);
    expect(start.statusCode, start.body).toBe(200);
    const { secret } = start.json();
    const confirm = await post('/api/auth/two-factor/confirm', { code: codeOf(secret) }, headers);
    expect(confirm.statusCode, confirm.body).toBe(200);
    secrets.push(secret, ...confirm.json().recovery_codes);
    return { secret: secret as string, recoveryCodes: confirm.json().recovery_codes as string[] };
  }

  /** As if a minute and a half had passed: the codes accepted so far are of steps long gone. */
  async function laterSteps(userId: number) {
    await sql`update two_factor set last_step = last_step - 3 where user_id = ${userId}`.execute(t.db);
  }

  async function challengeOf(email: string, address?: string): Promise<string> {
    const res = await post('/api/auth/login', { username: email, password: PASSWORD }, {}, address);
    expect(res.statusCode, res.body).toBe(202);
    expect(res.json()).not.toHaveProperty('access_token');
    expect(res.headers['set-cookie'] ?? '').not.toContain('refresh_token');
    secrets.push(res.json().challenge);
    return res.json().challenge;
  }

  beforeAll(async () => {
    const stream = new Writable({
      write(chunk, _enc, done) {
        logLines.push(String(chunk));
        done();
      },
    });
    t = await buildTestApp(target, { logger: { level: 'debug', redact: REDACTED_LOG_PATHS, stream } });
    admin = await t.as('admin@example.com');
    const role = await t.db
      .selectFrom('roles')
      .select('id')
      .where('is_operator', '=', false)
      .orderBy('id')
      .executeTakeFirstOrThrow();
    clientRoleId = role.id;
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

  it('a role can require two-factor: its users enrol before the login completes and cannot turn it off', async () => {
    const firstLine = await t.as('operator@example.com');
    const operator = await t.db
      .selectFrom('users')
      .select(['id', 'role_id'])
      .where('email', '=', 'operator@example.com')
      .executeTakeFirstOrThrow();
    const roleId = operator.role_id!;
    // First line may not change roles; second line may, and it is audited.
    const refused = await t.app.inject({
      method: 'PUT',
      url: `/api/roles/${roleId}`,
      headers: firstLine,
      payload: { requires_two_factor: true },
    });
    expect(refused.statusCode).toBe(403);
    const set = await t.app.inject({
      method: 'PUT',
      url: `/api/roles/${roleId}`,
      headers: admin,
      payload: { requires_two_factor: true },
    });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json().requires_two_factor).toBe(true);
    const change = await t.db
      .selectFrom('audit_log')
      .selectAll()
      .where('action', '=', 'record.update')
      .where('resource', '=', 'roles')
      .where('record_id', '=', roleId)
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(change.changes).toMatchObject({ requires_two_factor: [false, true] });

    try {
      const login = await post('/api/auth/login', { username: 'operator@example.com', password: 'demo' });
      expect(login.statusCode, login.body).toBe(202);
      expect(login.json()).toMatchObject({ two_factor: true, enrol: true });
      const { challenge } = login.json();
      secrets.push(challenge);
      // No code without an enrolment: the challenge offers to enrol.
      const early = await post('/api/auth/login/two-factor', { challenge, code: '123456' });
      expect(early.statusCode).toBe(422);
      const enrolled = await post('/api/auth/login/two-factor/enrol', { challenge });
      expect(enrolled.statusCode, enrolled.body).toBe(200);
      const { secret } = enrolled.json();
      secrets.push(secret);
      const signedIn = await post('/api/auth/login/two-factor', { challenge, code: codeOf(secret, 1) });
      expect(signedIn.statusCode, signedIn.body).toBe(200);
      expect(signedIn.json().recovery_codes).toHaveLength(10);
      secrets.push(...signedIn.json().recovery_codes);
      const headers = { authorization: `Bearer ${signedIn.json().access_token}` };
      const state = await t.app.inject({ method: 'GET', url: '/api/auth/two-factor', headers });
      expect(state.json()).toMatchObject({ enabled: true, required: true, recovery_codes_left: 10 });
      const off = await post('/api/auth/two-factor/disable', { password: 'demo' }, headers);
      expect(off.statusCode).toBe(422);
      expect(off.json().errors.code).toEqual([
        'Your role requires two-factor sign-in: it cannot be turned off.',
      ]);
      // Now enrolled, the next login asks for a code, not an enrolment.
      const next = await post('/api/auth/login', { username: 'operator@example.com', password: 'demo' });
      expect(next.json()).toMatchObject({ two_factor: true, enrol: false });
    } finally {
      await t.app.inject({
        method: 'PUT',
        url: `/api/roles/${roleId}`,
        headers: admin,
        payload: { requires_two_factor: false },
      });
      const reset = await post(`/api/operators/${operator.id}/reset-two-factor`, {}, admin);
      expect(reset.statusCode, reset.body).toBe(200);
    }
    await t.login('operator@example.com');
  });

  it("resetting another user's second factor is second line's permission, and audited", async () => {
    const user = await newClient('Reset');
    await enrol(await bearer(user.email));
    const firstLine = await t.as('operator@example.com');
    const client = await t.as('client@example.com');
    expect((await post(`/api/clients/${user.id}/reset-two-factor`, {}, firstLine)).statusCode).toBe(403);
    expect((await post(`/api/clients/${user.id}/reset-two-factor`, {}, client)).statusCode).toBe(403);
    expect((await post(`/api/clients/99999999/reset-two-factor`, {}, admin)).statusCode).toBe(404);
    // An operator's id is no client: 404 on the clients' route.
    const adminRow = await t.db
      .selectFrom('users')
      .select('id')
      .where('email', '=', 'admin@example.com')
      .executeTakeFirstOrThrow();
    expect((await post(`/api/clients/${adminRow.id}/reset-two-factor`, {}, admin)).statusCode).toBe(404);
    await challengeOf(user.email);

    const reset = await post(`/api/clients/${user.id}/reset-two-factor`, {}, admin);
    expect(reset.statusCode, reset.body).toBe(200);
    expect(reset.json().id).toBe(user.id);
    await bearer(user.email); // the password alone signs in again
    const entry = await t.db
      .selectFrom('audit_log')
      .selectAll()
      .where('action', '=', 'two_factor.reset')
      .where('record_id', '=', user.id)
      .executeTakeFirstOrThrow();
    expect(entry).toMatchObject({ resource: 'clients', actor: 'admin@example.com', user_id: adminRow.id });
    expect(entry.changes).toEqual({ two_factor: [true, false] });
    const permissions = await t.db
      .selectFrom('permissions')
      .select('name')
      .where('name', 'in', ['tenant.clients.reset-two-factor', 'tenant.operators.reset-two-factor'])
      .execute();
    expect(permissions).toHaveLength(2);
  });

  it('turns off with a current code or the password, audited; a wrong one is refused', async () => {
    const user = await newClient('Disable');
    const headers = await bearer(user.email);
    const { secret } = await enrol(headers);
    expect((await post('/api/auth/two-factor/disable', {}, headers)).json().errors.code).toEqual([
      'Give a current code or your password.',
    ]);
    const wrong = await post('/api/auth/two-factor/disable', { password: 'not-it' }, headers);
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json().errors.password).toEqual(['The password is not right.']);
    expect((await post('/api/auth/two-factor/start', {}, headers)).statusCode).toBe(422);
    const off = await post('/api/auth/two-factor/disable', { code: codeOf(secret, 1) }, headers);
    expect(off.statusCode, off.body).toBe(200);
    await bearer(user.email);
    const entry = await t.db
      .selectFrom('audit_log')
      .selectAll()
      .where('action', '=', 'two_factor.disable')
      .where('user_id', '=', user.id)
      .executeTakeFirstOrThrow();
    expect(entry.changes).toEqual({ proof: 'code' });
    expect(
      await t.db
        .selectFrom('two_factor_recovery_codes')
        .select('id')
        .where('user_id', '=', user.id)
        .execute(),
    ).toEqual([]);
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
    expect(secrets.length).toBeGreaterThan(30);
    const entries = JSON.stringify(await t.db.selectFrom('audit_log').selectAll().execute());
    const logs = logLines.join('\n');
    expect(logs.length).toBeGreaterThan(1000);
    for (const secret of secrets) {
      expect(entries).not.toContain(secret);
      expect(logs).not.toContain(secret);
    }
  });
});
