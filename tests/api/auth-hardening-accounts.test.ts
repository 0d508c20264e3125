/**
 * Issue 12, sign-in and accounts: password rules, bounded settings, and who may write whose settings
 * and give which role (finding 8).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { targets, type TestApp } from './harness.ts';
import type { LoopbackSmtp } from './smtp.ts';
import { openHardeningWorld } from './auth-hardening-world.ts';
import { tokenHash } from '../../server/auth/tokens.ts';

describe.each(targets)('sign-in and account hardening on $name', (target) => {
  let t: TestApp;
  let smtp: LoopbackSmtp;

  beforeAll(async () => {
    ({ t, smtp } = await openHardeningWorld(target));
  });

  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  describe('accounts (finding 8)', () => {
    const REPEATED = 'The password may not be one character repeated.';
    const COMMON = 'The password is one of the most common passwords. Choose another.';
    const HAS_EMAIL = 'The password may not contain the e-mail address or its name part.';
    let roles: { operators: number; secondLine: number; clients: number };
    let ids: { admin: number; operator: number; client: number };

    const call = async (method: 'POST' | 'PUT' | 'DELETE', url: string, who: string, payload?: object) =>
      t.app.inject({ method, url, headers: await t.as(who), payload });

    beforeAll(async () => {
      const role = async (name: string) =>
        Number(
          (await t.db.selectFrom('roles').select('id').where('name', '=', name).executeTakeFirstOrThrow()).id,
        );
      roles = {
        secondLine: await role('Tweede lijn'),
        operators: await role('Eerste lijn'),
        clients: await role('Klant'),
      };
      const user = async (email: string) =>
        Number(
          (await t.db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirstOrThrow())
            .id,
        );
      // An operator has one session (the failed logins elsewhere may have made one): a new one now.
      await t.login('admin@example.com');
      await t.login('operator@example.com');
      ids = {
        admin: await user('admin@example.com'),
        operator: await user('operator@example.com'),
        client: await user('client@example.com'),
      };
    });

    it('refuses a repeated character, a common password and one holding the e-mail, saying which', async () => {
      const cases: [object, string][] = [
        [{ password: 'aaaaaaaa' }, REPEATED],
        [{ password: 'football' }, COMMON],
        [{ password: 'Password1' }, COMMON],
        [{ password: 'my-operator-pw' }, HAS_EMAIL],
        [{ password: 'x operator@example.com' }, HAS_EMAIL],
      ];
      for (const [body, message] of cases) {
        const res = await call('PUT', `/api/operators/${ids.operator}`, 'admin@example.com', body);
        expect(res.statusCode, JSON.stringify(body)).toBe(422);
        expect(res.json()).toMatchObject({ message, errors: { password: [message] } });
      }
      // A new client: checked against the address sent with it.
      const created = await call('POST', '/api/clients', 'admin@example.com', {
        first_name: 'Nieuw',
        last_name: 'Klant',
        email: 'jansen.nieuw@example.com',
        password: 'jansen.nieuw2026',
      });
      expect(created.statusCode).toBe(422);
      expect(created.json().errors).toEqual({ password: [HAS_EMAIL] });
      const fine = await call('PUT', `/api/operators/${ids.operator}`, 'admin@example.com', {
        password: 'Correct-Horse-42',
      });
      expect(fine.statusCode, fine.body).toBe(200);
      expect((await t.login('operator@example.com', 'Correct-Horse-42')).body.user.email).toBe(
        'operator@example.com',
      );
    });

    /** The token of the first mail after `count` whose reset link is still open, waiting for it. */
    async function openResetLink(count: number): Promise<string> {
      for (let seen = count; ; seen += 1) {
        const mail = await smtp.next(seen);
        const token = /\/app\/password\/reset\/([A-Za-z0-9_-]{43})/.exec(mail.text ?? '')?.[1];
        if (!token) continue;
        const open = await t.db
          .selectFrom('password_resets')
          .select('id')
          .where('token_hash', '=', tokenHash(token))
          .where('used_at', 'is', null)
          .executeTakeFirst();
        if (open) return token;
      }
    }

    it('a password reset applies the same rules, in the order the form shows them', async () => {
      const before = smtp.received.length;
      const asked = await t.app.inject({
        method: 'POST',
        url: '/api/auth/password/forgot',
        payload: { email: 'other@example.com', locale: 'en' },
        remoteAddress: '10.65.0.1',
      });
      expect(asked.statusCode).toBe(200);
      // The outbox may still deliver reset mails that earlier tests asked for: this request's is the
      // one whose link is the account's open one (a new request makes the earlier links useless).
      const token = await openResetLink(before);
      const reset = (password: string) =>
        t.app.inject({
          method: 'POST',
          url: '/api/auth/password/reset',
          payload: { token, password, password_confirmation: password },
        });
      for (const [password, message] of [
        ['aaaaaaaa', REPEATED],
        ['baseball', COMMON],
        ['other-is-me', HAS_EMAIL],
      ] as const) {
        const res = await reset(password);
        expect(res.statusCode).toBe(422);
        expect(res.json()).toMatchObject({ message, errors: { password: [message] } });
      }
      expect((await reset('Lange-Zin-Met-7-Woorden')).statusCode).toBe(200);
    });

    it('POST /api/auth/me bounds a setting: depth, size and count answer 422 and write nothing', async () => {
      const save = (configs: { name: string; value: unknown }[]) =>
        call('POST', '/api/auth/me', 'client@example.com', { relationships: { configs } });
      // Written as text: 5,000 levels are more than JSON.stringify in the test itself can take.
      const nested = `${'['.repeat(5_000)}"bottom"${']'.repeat(5_000)}`;
      const deep = await t.app.inject({
        method: 'POST',
        url: '/api/auth/me',
        headers: { ...(await t.as('client@example.com')), 'content-type': 'application/json' },
        payload: `{"relationships":{"configs":[{"name":"deep","value":${nested}}]}}`,
      });
      expect(deep.statusCode).toBe(422);
      expect(deep.json()).toEqual({
        message: 'A setting may be nested at most 32 levels deep.',
        errors: { 'relationships.configs.0.value': ['A setting may be nested at most 32 levels deep.'] },
      });
      const large = await save([{ name: 'large', value: 'x'.repeat(20_000) }]);
      expect(large.statusCode).toBe(422);
      expect(large.json().message).toBe('A setting may be at most 16384 bytes of JSON.');

      const countOf = async () =>
        (await t.db.selectFrom('user_configs').select('id').where('user_id', '=', ids.client).execute())
          .length;
      const before = await countOf();
      const names = (from: number, n: number) =>
        Array.from({ length: n }, (_, i) => ({ name: `setting.${from + i}`, value: i }));
      // 100 per call (the body's own bound); the third call would pass 200 in all.
      expect((await save(names(0, 100))).statusCode).toBe(200);
      expect((await save(names(100, 100 - before))).statusCode).toBe(200);
      const over = await save(names(500, 1));
      expect(over.statusCode).toBe(422);
      expect(over.json().message).toBe('A user may keep at most 200 settings.');
      expect(await countOf()).toBe(200);
      // Changing a setting one has stays possible at the bound.
      expect((await save([{ name: 'setting.0', value: 'changed' }])).statusCode).toBe(200);
    });

    it("a first-line operator writes only their own user-configs; an operators' manager any", async () => {
      const own = await call('POST', '/api/user-configs', 'operator@example.com', {
        user_id: ids.operator,
        name: 'own.setting',
        value: '1',
      });
      expect(own.statusCode, own.body).toBe(201);
      const others = await call('POST', '/api/user-configs', 'operator@example.com', {
        user_id: ids.admin,
        name: 'planted',
        value: '1',
      });
      expect(others.statusCode).toBe(403);
      expect(others.json()).toEqual({ message: 'You may only change your own settings.' });
      const adminConfig = await t.db
        .selectFrom('user_configs')
        .select(['id', 'value'])
        .where('user_id', '=', ids.admin)
        .where('name', '=', 'locale')
        .executeTakeFirstOrThrow();
      const url = `/api/user-configs/${adminConfig.id}`;
      expect((await call('PUT', url, 'operator@example.com', { value: 'en' })).statusCode).toBe(403);
      expect((await call('DELETE', url, 'operator@example.com')).statusCode).toBe(403);
      const moved = await call('PUT', `/api/user-configs/${own.json().id}`, 'operator@example.com', {
        user_id: ids.admin,
      });
      expect(moved.statusCode).toBe(403);
      const after = await t.db
        .selectFrom('user_configs')
        .select(['value', 'user_id'])
        .where('id', '=', adminConfig.id)
        .executeTakeFirstOrThrow();
      expect(after.value).toBe(adminConfig.value);
      expect(
        await t.db.selectFrom('user_configs').select('id').where('name', '=', 'planted').execute(),
      ).toHaveLength(0);

      const byAdmin = await call('POST', '/api/user-configs', 'admin@example.com', {
        user_id: ids.operator,
        name: 'set.up.by.admin',
        value: '1',
      });
      expect(byAdmin.statusCode).toBe(201);
    });

    it("an operators' role never goes to a client, nor a client's to an operator", async () => {
      const toClient = await call('PUT', `/api/clients/${ids.client}`, 'operator@example.com', {
        role_id: roles.secondLine,
      });
      expect(toClient.statusCode).toBe(422);
      expect(toClient.json()).toMatchObject({
        errors: { role_id: ['The selected role is for operators, not for clients.'] },
      });
      const newClient = await call('POST', '/api/clients', 'admin@example.com', {
        first_name: 'Rol',
        last_name: 'Test',
        role_id: roles.operators,
      });
      expect(newClient.statusCode).toBe(422);
      const toOperator = await call('PUT', `/api/operators/${ids.operator}`, 'admin@example.com', {
        role_id: roles.clients,
      });
      expect(toOperator.statusCode).toBe(422);
      expect(toOperator.json().errors).toEqual({
        role_id: ['The selected role is for clients, not for operators.'],
      });
      const client = await t.db
        .selectFrom('users')
        .select('role_id')
        .where('id', '=', ids.client)
        .executeTakeFirstOrThrow();
      expect(Number(client.role_id)).toBe(roles.clients);
      // Nor does a held role change kind under its holders; a role nobody holds may.
      const turned = await call('PUT', `/api/roles/${roles.operators}`, 'admin@example.com', {
        is_operator: false,
      });
      expect(turned.statusCode).toBe(422);
      expect(turned.json().errors).toEqual({
        is_operator: ['A role held by accounts cannot change between operators and clients.'],
      });
      const fresh = await call('POST', '/api/roles', 'admin@example.com', {
        name: 'Nieuw',
        is_operator: true,
      });
      expect(fresh.statusCode, fresh.body).toBe(201);
      const flipped = await call('PUT', `/api/roles/${fresh.json().id}`, 'admin@example.com', {
        is_operator: false,
      });
      expect(flipped.statusCode, flipped.body).toBe(200);
      // The client's own role stays assignable by first line.
      const same = await call('PUT', `/api/clients/${ids.client}`, 'operator@example.com', {
        role_id: roles.clients,
      });
      expect(same.statusCode, same.body).toBe(200);
    });

    it('nobody gives a role with back-office permissions they do not hold', async () => {
      const acme = await t.db
        .selectFrom('users')
        .select('tenant_id')
        .where('id', '=', ids.client)
        .executeTakeFirstOrThrow();
      const inserted = await t.db
        .insertInto('roles')
        .values({ tenant_id: acme.tenant_id, name: 'Klant met facturen', is_operator: false })
        .returning('id')
        .executeTakeFirstOrThrow();
      const invoices = await t.db
        .selectFrom('permissions')
        .select('id')
        .where('name', '=', 'tenant.invoices.destroy')
        .executeTakeFirstOrThrow();
      await t.db
        .insertInto('permission_role')
        .values({ role_id: inserted.id, permission_id: invoices.id })
        .execute();
      const res = await call('PUT', `/api/clients/${ids.client}`, 'operator@example.com', {
        role_id: Number(inserted.id),
      });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({
        message: 'You may not give a role with permissions you do not hold yourself.',
      });
      // Second line holds every permission: it may.
      const admin = await call('PUT', `/api/clients/${ids.client}`, 'admin@example.com', {
        role_id: Number(inserted.id),
      });
      expect(admin.statusCode, admin.body).toBe(200);
      await call('PUT', `/api/clients/${ids.client}`, 'admin@example.com', { role_id: roles.clients });
    });
  });
});
