/**
 * Issue 12, sign-in and accounts: failed logins lock an address out, never the account's owner
 * (finding 6); TRUST_PROXY decides whether X-Forwarded-* headers count (finding 8).
 */
import Fastify, { type FastifyInstance, type LightMyRequestResponse } from 'fastify';
import cookie from '@fastify/cookie';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { targets, type TestApp } from './harness.ts';
import type { LoopbackSmtp } from './smtp.ts';
import { openHardeningWorld } from './auth-hardening-world.ts';
import { buildApp } from '../../server/app.ts';
import { configFromEnv } from '../../server/config.ts';
import { installErrorHandler } from '../../server/http/error-handler.ts';
import { registry } from '../../server/schema/registry.ts';
import { tenancyPlugin } from '../../server/tenancy/plugin.ts';
import { authPlugin } from '../../server/auth/plugin.ts';
import { SharedLoginRateLimiter } from '../../server/auth/shared-attempts.ts';
import { SharedPasswordResetRateLimiter } from '../../server/auth/password-reset.ts';
import { answerSerializers } from '../../server/http/answer-serializers.ts';

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
    ({ t, smtp } = await openHardeningWorld(target));
  });

  afterAll(async () => {
    await t?.close();
    await smtp?.close();
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
