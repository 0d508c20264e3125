/**
 * Set-up shared by the two-factor tests (two-factor-sign-in, two-factor-on-off): the app logging at
 * debug level into lines the tests read, new clients with a password of this run, the code an
 * authenticator app shows, and the enrolment and challenge steps, each secret noted for the check that
 * none reaches the audit log or the logs.
 */
import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import { Secret, TOTP } from 'otpauth';
import { sql } from 'kysely';
import { expect } from 'vitest';
import { REDACTED_LOG_PATHS } from '../../server/app.ts';
import { buildTestApp, type Target, type TestApp } from './harness.ts';

export const MARK = randomBytes(3).toString('hex');
export const PASSWORD = `Tw0-Factor-${MARK}-pass!`;

/** The code an authenticator app shows for `secret`, `steps` 30-second steps from now. */
export function codeOf(secret: string, steps = 0): string {
  const totp = new TOTP({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 });
  return totp.generate({ timestamp: Date.now() + steps * 30_000 });
}

export interface TwoFactorWorld {
  t: TestApp;
  admin: Record<string, string>;
  clientRoleId: number;
}

/** The app, its log written into `logLines`, second line's session and the clients' role. */
export async function openTwoFactorWorld(target: Target, logLines: string[]): Promise<TwoFactorWorld> {
  const stream = new Writable({
    write(chunk, _enc, done) {
      logLines.push(String(chunk));
      done();
    },
  });
  const t = await buildTestApp(target, { logger: { level: 'debug', redact: REDACTED_LOG_PATHS, stream } });
  const admin = await t.as('admin@example.com');
  const role = await t.db
    .selectFrom('roles')
    .select('id')
    .where('is_operator', '=', false)
    .orderBy('id')
    .executeTakeFirstOrThrow();
  return { t, admin, clientRoleId: role.id };
}

/** The steps of the tests; every secret they see goes into `secrets`. */
export function twoFactorCalls(world: () => TwoFactorWorld, secrets: string[]) {
  const post = (
    url: string,
    payload: object,
    headers: Record<string, string> = {},
    address = '198.51.100.1',
  ) => world().t.app.inject({ method: 'POST', url, payload, headers, remoteAddress: address });

  async function newClient(name: string): Promise<{ id: number; email: string }> {
    const { t, admin, clientRoleId } = world();
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
    await sql`update two_factor set last_step = last_step - 3 where user_id = ${userId}`.execute(
      world().t.db,
    );
  }

  async function challengeOf(email: string, address?: string): Promise<string> {
    const res = await post('/api/auth/login', { username: email, password: PASSWORD }, {}, address);
    expect(res.statusCode, res.body).toBe(202);
    expect(res.json()).not.toHaveProperty('access_token');
    expect(res.headers['set-cookie'] ?? '').not.toContain('refresh_token');
    secrets.push(res.json().challenge);
    return res.json().challenge;
  }

  return { post, newClient, bearer, enrol, laterSteps, challengeOf };
}

/** None of `secrets` is in the audit log or in the lines logged. */
export async function expectNoSecretIn(t: TestApp, secrets: string[], logLines: string[]): Promise<void> {
  expect(secrets.length).toBeGreaterThan(30);
  const entries = JSON.stringify(await t.db.selectFrom('audit_log').selectAll().execute());
  const logs = logLines.join('\n');
  expect(logs.length).toBeGreaterThan(1000);
  for (const secret of secrets) {
    expect(entries).not.toContain(secret);
    expect(logs).not.toContain(secret);
  }
}
