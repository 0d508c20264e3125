/**
 * Two-factor sign-in (issue 38, item 1), switched on and off: a role that requires two-factor, the reset
 * as a permission (second line yes, first line no), turning it off with a code or the password, and the
 * audit entries; no secret these steps saw reaches the audit log or the logs (checked after them).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { targets, type TestApp } from './harness.ts';
import { codeOf, expectNoSecretIn, openTwoFactorWorld, twoFactorCalls } from './two-factor-world.ts';

describe.each(targets)('two-factor sign-in on $name', (target) => {
  let t: TestApp;
  let admin: Record<string, string>;
  let clientRoleId: number;
  /** Everything secret this test saw: none may appear in the audit log or the logs. */
  const secrets: string[] = [];
  const logLines: string[] = [];
  const { post, newClient, bearer, enrol, challengeOf } = twoFactorCalls(
    () => ({ t, admin, clientRoleId }),
    secrets,
  );

  beforeAll(async () => {
    ({ t, admin, clientRoleId } = await openTwoFactorWorld(target, logLines));
  });
  afterAll(async () => {
    // What 'keeps every secret out of the audit log and the logs' (two-factor-sign-in) holds there.
    try {
      if (t) await expectNoSecretIn(t, secrets, logLines);
    } finally {
      await t?.close();
    }
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
});
