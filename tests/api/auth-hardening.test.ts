/**
 * Issue 12, sign-in and accounts: mailed links only point at an origin the operator configured or at
 * this machine (finding 5); failed logins lock an address out, never the account's owner (finding 6);
 * TRUST_PROXY decides whether X-Forwarded-* headers count (finding 8).
 */
import Fastify, { type FastifyInstance, type LightMyRequestResponse } from 'fastify';
import cookie from '@fastify/cookie';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, targets, type TestApp } from './harness.ts';
import { startSmtp, type LoopbackSmtp } from './smtp.ts';
import { tokenHash } from '../../server/auth/tokens.ts';
import { buildApp } from '../../server/app.ts';
import { configFromEnv } from '../../server/config.ts';
import { installErrorHandler } from '../../server/http/error-handler.ts';
import { registry } from '../../server/schema/registry.ts';
import { tenancyPlugin } from '../../server/tenancy/plugin.ts';
import { authPlugin } from '../../server/auth/plugin.ts';
import { SharedLoginRateLimiter } from '../../server/auth/shared-attempts.ts';
import { SharedPasswordResetRateLimiter } from '../../server/auth/password-reset.ts';
import { answerSerializers } from '../../server/http/answer-serializers.ts';

const UNKNOWN_TENANT = { message: 'Unknown tenant.' };

/** A clock the test moves by hand, so waits are exact and nothing sleeps. */
function fakeClock(start = 1_700_000_000_000) {
  let now = start;
  return {
    now: () => now,
    advance(ms: number) {
      now += ms;
    },
  };
}

function refreshCookieHeader(res: LightMyRequestResponse): string {
  const all = res.headers['set-cookie'];
  return (Array.isArray(all) ? all : [all ?? '']).find((c) => c.startsWith('refresh_token=')) ?? '';
}

describe.each(targets)('sign-in and account hardening on $name', (target) => {
  let t: TestApp;
  let smtp: LoopbackSmtp;

  beforeAll(async () => {
    smtp = await startSmtp();
    // PUBLIC_URL unset: links come from the request's host, which is what finding 5 is about. The
    // address rules below fail 40 logins in seconds, more than the tenant's budget of failed logins a
    // minute allows (LOGIN_FAILURES_PER_MINUTE, tested in login-flood.test.ts): a wider one here.
    t = await buildTestApp(target, { config: { smtpUrl: smtp.url, loginFailuresPerMinute: 100 } });
  });

  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  describe('links in mail (finding 5)', () => {
    const forgot = (host: string, email = 'client@example.com') =>
      t.app.inject({
        method: 'POST',
        url: '/api/auth/password/forgot',
        headers: { host },
        payload: { email, locale: 'en' },
        remoteAddress: '10.50.0.1',
      });

    it('a password reset asked for through a foreign Host answers 404 and mails nothing', async () => {
      const resetsBefore = await t.db.selectFrom('password_resets').select('id').execute();
      const before = smtp.received.length;
      for (const host of ['attacker.com', 'acme.attacker.com', 'www.attacker.com:443', '203.0.113.9']) {
        const res = await forgot(host);
        expect(res.statusCode, host).toBe(404);
        expect(res.json()).toEqual(UNKNOWN_TENANT);
      }
      // A request through this machine's own name right after: its mail is the only one that arrives.
      const ok = await forgot('localhost:3000');
      expect(ok.statusCode).toBe(200);
      const mail = await smtp.next(before);
      expect(mail.text).toMatch(/http:\/\/localhost:3000\/app\/password\/reset\/[A-Za-z0-9_-]{43}/);
      expect(smtp.received.slice(before).map((m) => m.text ?? '')).not.toEqual(
        expect.arrayContaining([expect.stringContaining('attacker')]),
      );
      const resetsAfter = await t.db.selectFrom('password_resets').select('id').execute();
      expect(resetsAfter.length).toBe(resetsBefore.length + 1);
    });

    it('a tenant on a subdomain of localhost gets its link on that host', async () => {
      const before = smtp.received.length;
      const res = await forgot('acme.localhost:3000', 'other@example.com');
      expect(res.statusCode).toBe(200);
      const mail = await smtp.next(before);
      expect(mail.text).toContain('http://acme.localhost:3000/app/password/reset/');
    });

    it('a quote sent through a foreign Host is not sent: 404, status and tokens unchanged', async () => {
      const quote = await t.db
        .selectFrom('quotes')
        .select(['id', 'status_id'])
        .where('status_id', '=', 1)
        .orderBy('id')
        .executeTakeFirstOrThrow();
      const headers = { ...(await t.as('admin@example.com')), host: 'attacker.com' };
      const res = await t.app.inject({ method: 'POST', url: `/api/quotes/${quote.id}/send`, headers });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual(UNKNOWN_TENANT);
      const after = await t.db
        .selectFrom('quotes')
        .select('status_id')
        .where('id', '=', quote.id)
        .executeTakeFirstOrThrow();
      expect(Number(after.status_id)).toBe(1);
      const tokens = await t.db
        .selectFrom('record_tokens')
        .select('id')
        .where('resource', '=', 'quotes')
        .where('record_id', '=', quote.id)
        .execute();
      expect(tokens).toHaveLength(0);
    });

    it('an export asked for through a foreign Host is not queued', async () => {
      const headers = { ...(await t.as('admin@example.com')), host: 'attacker.com' };
      const admin = await t.db
        .selectFrom('users')
        .select('id')
        .where('email', '=', 'admin@example.com')
        .executeTakeFirstOrThrow();
      const jobsBefore = await t.db.selectFrom('export_jobs').select('id').execute();
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/exports',
        headers,
        payload: { userId: Number(admin.id), model: 'tickets', filter: [] },
      });
      expect(res.statusCode, res.body).toBe(404);
      expect(res.json()).toEqual(UNKNOWN_TENANT);
      const jobsAfter = await t.db.selectFrom('export_jobs').select('id').execute();
      expect(jobsAfter.length).toBe(jobsBefore.length);
    });
  });

  describe('failed logins (finding 6)', () => {
    let app: FastifyInstance;
    const clock = fakeClock();

    // The counters are shared in the database: failures counted on the real clock by other tests would
    // lie in this fake clock's future (and the reverse), so this group starts and leaves them empty.
    const clearCounters = () => t.db.deleteFrom('auth_failures').execute();

    beforeAll(async () => {
      await clearCounters();
      // The auth plugins with limiters on a clock the test moves: the waits are checked exactly.
      app = Fastify({ schemaController: answerSerializers() });
      installErrorHandler(app);
      await app.register(cookie);
      const config = { ...configFromEnv({}), jwtSecret: 'hardening-secret', smtpUrl: smtp.url };
      await app.register(tenancyPlugin, { db: t.db, config });
      await app.register(authPlugin, {
        db: t.db,
        config,
        registry: registry(),
        // Counted in the database, as the app does (shared by every instance on it).
        rateLimiter: new SharedLoginRateLimiter(t.db, { clock: clock.now }),
        resetLimiter: new SharedPasswordResetRateLimiter(t.db, { clock: clock.now }),
      });
      await app.ready();
    });

    afterAll(async () => {
      await app?.close();
      await clearCounters();
    });

    const login = (username: string, password: string, remoteAddress: string) =>
      app.inject({ method: 'POST', url: '/api/auth/login', payload: { username, password }, remoteAddress });

    it('locks out the address that keeps failing, never the owner coming from elsewhere', async () => {
      const attacker = '10.60.0.1';
      for (let i = 0; i < 5; i++) {
        expect((await login('admin@example.com', `guess${i}`, attacker)).statusCode).toBe(422);
      }
      const sixth = await login('admin@example.com', 'demo', attacker);
      expect(sixth.statusCode).toBe(429);
      expect(sixth.json()).toEqual({ message: 'Too many login attempts. Please try again in 15 minutes.' });
      expect(sixth.headers['retry-after']).toBe('900');

      // The owner, from another address, is asked to wait one second, then signs in.
      const owner = '10.60.0.2';
      const slowed = await login('admin@example.com', 'demo', owner);
      expect(slowed.statusCode).toBe(429);
      expect(slowed.headers['retry-after']).toBe('1');
      expect(slowed.json()).toEqual({ message: 'Too many login attempts. Please try again in 1 seconds.' });
      clock.advance(1_000);
      expect((await login('admin@example.com', 'demo', owner)).statusCode).toBe(200);
      // The attacker's address is still locked out of the account.
      expect((await login('admin@example.com', 'demo', attacker)).statusCode).toBe(429);
      clock.advance(15 * 60_000);
    });

    it('slows an account failing from many addresses by 1, 2, 4 … s, at most 30 s', async () => {
      const account = 'operator@example.com';
      for (let i = 0; i < 5; i++) {
        expect((await login(account, 'wrong', `10.61.0.${i}`)).statusCode).toBe(422);
      }
      const waits: string[] = [];
      for (let i = 0; i < 8; i++) {
        const refused = await login(account, 'wrong', `10.61.1.${i}`);
        expect(refused.statusCode).toBe(429);
        const seconds = refused.headers['retry-after'] as string;
        waits.push(seconds);
        expect(refused.json().message).toBe(
          `Too many login attempts. Please try again in ${seconds} seconds.`,
        );
        clock.advance(Number(seconds) * 1000 - 1);
        expect((await login(account, 'wrong', `10.61.2.${i}`)).statusCode).toBe(429);
        clock.advance(1);
        expect((await login(account, 'wrong', `10.61.3.${i}`)).statusCode).toBe(422);
      }
      expect(waits).toEqual(['1', '2', '4', '8', '16', '30', '30', '30']);
      // However long this goes on, the owner's wait is the capped one, never a lockout.
      const owner = await login(account, 'demo', '10.61.9.9');
      expect(owner.headers['retry-after']).toBe('30');
      clock.advance(30_000);
      expect((await login(account, 'demo', '10.61.9.9')).statusCode).toBe(200);
      clock.advance(15 * 60_000);
    });

    it('locks out an address failing across 20 accounts, for every account, from that address only', async () => {
      const address = '10.62.0.1';
      for (let i = 0; i < 20; i++) {
        expect((await login(`nobody${i}@example.com`, 'x', address)).statusCode).toBe(422);
      }
      const blocked = await login('client@example.com', 'demo', address);
      expect(blocked.statusCode).toBe(429);
      expect(blocked.json().message).toBe('Too many login attempts. Please try again in 15 minutes.');
      expect((await login('client@example.com', 'demo', '10.62.0.2')).statusCode).toBe(200);
      clock.advance(15 * 60_000);
    });

    it('password reset requests: the address is locked out, the owner from elsewhere only waits', async () => {
      const forgot = (remoteAddress: string) =>
        app.inject({
          method: 'POST',
          url: '/api/auth/password/forgot',
          payload: { email: 'other@example.com' },
          remoteAddress,
        });
      for (let i = 0; i < 5; i++) expect((await forgot('10.63.0.1')).statusCode).toBe(200);
      const locked = await forgot('10.63.0.1');
      expect(locked.statusCode).toBe(429);
      expect(locked.json().message).toBe('Too many password reset requests. Please try again in 15 minutes.');
      const owner = await forgot('10.63.0.2');
      expect(owner.statusCode).toBe(429);
      expect(owner.headers['retry-after']).toBe('1');
      expect(owner.json().message).toBe('Too many password reset requests. Please try again in 1 seconds.');
      clock.advance(1_000);
      expect((await forgot('10.63.0.2')).statusCode).toBe(200);
      clock.advance(15 * 60_000);
    });
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
      // The failed-login tests signed these operators in elsewhere: their one session is a new one now.
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

  describe('TRUST_PROXY (finding 8)', () => {
    let proxied: FastifyInstance;

    beforeAll(async () => {
      // The whole app once more over the same database, as a deployment behind a TLS proxy runs it.
      const config = {
        ...configFromEnv({ TRUST_PROXY: '127.0.0.1', LOGIN_FAILURES_PER_MINUTE: '100' }),
        jwtSecret: 'proxy-secret',
        smtpUrl: smtp.url,
      };
      proxied = await buildApp({ db: t.db, registry: registry(), config, fileSweepMs: 0 });
      await proxied.ready();
    });

    afterAll(async () => {
      await proxied?.close();
    });

    const login = (app: FastifyInstance, headers: Record<string, string>, username = 'client@example.com') =>
      app.inject({
        method: 'POST',
        url: '/api/auth/login',
        headers,
        payload: { username, password: username.startsWith('nobody') ? 'x' : 'demo' },
        remoteAddress: '127.0.0.1',
      });

    it('reads the setting as Fastify takes it', () => {
      expect(configFromEnv({}).trustProxy).toBe(false);
      expect(configFromEnv({ TRUST_PROXY: 'false' }).trustProxy).toBe(false);
      expect(configFromEnv({ TRUST_PROXY: 'true' }).trustProxy).toBe(true);
      expect(configFromEnv({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
      expect(configFromEnv({ TRUST_PROXY: '10.0.0.1, 192.168.0.0/16' }).trustProxy).toEqual([
        '10.0.0.1',
        '192.168.0.0/16',
      ]);
    });

    it('behind the proxy, a request it forwarded over HTTPS gets a Secure refresh cookie', async () => {
      const res = await login(proxied, { 'x-forwarded-proto': 'https', 'x-forwarded-for': '198.51.100.7' });
      expect(res.statusCode).toBe(200);
      expect(refreshCookieHeader(res)).toMatch(/;\s*Secure/i);
    });

    it('without TRUST_PROXY the forwarded headers are ignored: no Secure flag', async () => {
      const res = await login(t.app, { 'x-forwarded-proto': 'https' });
      expect(res.statusCode).toBe(200);
      expect(refreshCookieHeader(res)).not.toMatch(/;\s*Secure/i);
    });

    it('limits count the real client: behind the proxy per forwarded address, else per socket', async () => {
      // Behind the proxy: one client failing 20 times is locked out; the next client is not.
      for (let i = 0; i < 20; i++) {
        const res = await login(proxied, { 'x-forwarded-for': '198.51.100.20' }, `nobody-p${i}@example.com`);
        expect(res.statusCode).toBe(422);
      }
      expect((await login(proxied, { 'x-forwarded-for': '198.51.100.20' })).statusCode).toBe(429);
      expect((await login(proxied, { 'x-forwarded-for': '198.51.100.21' })).statusCode).toBe(200);

      // Without TRUST_PROXY a forged X-Forwarded-For per request changes nothing: the socket counts.
      const direct = (headers: Record<string, string>, username: string) =>
        t.app.inject({
          method: 'POST',
          url: '/api/auth/login',
          headers,
          payload: { username, password: 'x' },
          remoteAddress: '10.64.0.1',
        });
      for (let i = 0; i < 20; i++) {
        const res = await direct({ 'x-forwarded-for': `203.0.113.${i}` }, `nobody-d${i}@example.com`);
        expect(res.statusCode).toBe(422);
      }
      const forged = await direct({ 'x-forwarded-for': '203.0.113.99' }, 'nobody-d99@example.com');
      expect(forged.statusCode).toBe(429);
    });
  });
});
