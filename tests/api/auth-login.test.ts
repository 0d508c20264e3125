/**
 * Signing in: the tenant a host names (GET /api/system/status), POST /api/auth/login's answer, cookie
 * and errors, and the per-account and per-address limits on failed logins.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { targets, type TestApp } from './harness.ts';
import { BAD_CREDENTIALS, claimsOf, openAuthWorld, refreshCookie, type AuthWorld } from './auth-world.ts';

describe.each(targets)('auth on $name', (target) => {
  let t: TestApp;
  let app: FastifyInstance;
  let acmeId: number;
  let login: AuthWorld['login'];

  beforeAll(async () => {
    ({ t, app, acmeId, login } = await openAuthWorld(target));
  });
  afterAll(async () => {
    await t?.close();
  });

  describe('GET /api/system/status', () => {
    it('answers for the default tenant on a bare host', async () => {
      for (const host of ['localhost:3000', '127.0.0.1']) {
        const res = await app.inject({ method: 'GET', url: '/api/system/status', headers: { host } });
        expect(res.statusCode).toBe(200);
        const body = res.json();
        expect(body).toMatchObject({ tenant_name: 'Acme IT', tenant: 'acme' });
        expect(typeof body.setup_completed).toBe('boolean');
        expect(Object.keys(body).sort()).toEqual([
          'setup_completed',
          'tenant',
          'tenant_name',
          'trial_ends_in',
        ]);
      }
    });

    it('answers for the tenant of a subdomain, with whole trial days (negative once ended)', async () => {
      const beta = await app.inject({
        method: 'GET',
        url: '/api/system/status',
        headers: { host: 'beta.localhost:3000' },
      });
      expect(beta.json()).toEqual({
        setup_completed: false,
        trial_ends_in: 2,
        tenant_name: 'Beta Support',
        tenant: 'beta',
      });
      const gamma = await app.inject({
        method: 'GET',
        url: '/api/system/status',
        headers: { host: 'gamma.example.com' },
      });
      expect(gamma.json()).toEqual({
        setup_completed: true,
        trial_ends_in: -1,
        tenant_name: 'Gamma Hosting',
        tenant: 'gamma',
      });
    });

    it('answers 404 for an unknown subdomain', async () => {
      const res = await app.inject({
        method: 'GET',
        url: '/api/system/status',
        headers: { host: 'nope.localhost:3000' },
      });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ message: 'Unknown tenant.' });
    });
  });

  describe('POST /api/auth/login', () => {
    it('returns the user, a bearer token and an httpOnly refresh cookie, and no password hash', async () => {
      const res = await login({ username: 'admin@example.com', password: 'demo' });
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expect(Object.keys(body).sort()).toEqual(['access_token', 'expires_in', 'lists', 'token_type', 'user']);
      expect(body.token_type).toBe('Bearer');
      expect(body.expires_in).toBe(900);
      expect(body.access_token.split('.')).toHaveLength(3);
      expect(Object.keys(body.user).sort()).toEqual(
        [
          'acronym',
          'categories',
          'companies',
          'configs',
          'email',
          'first_name',
          'full_name',
          'id',
          'is_operator',
          'last_name',
          'modules',
          'permissions_names',
        ].sort(),
      );
      expect(body.user).toMatchObject({ email: 'admin@example.com', is_operator: 2 });
      // grants_all: every back-office permission.
      expect(body.user.permissions_names).toEqual(
        expect.arrayContaining(['tenant.tickets.index', 'tenant.quotes.show']),
      );
      expect(res.body).not.toMatch(/argon2|password/i);

      const { header } = refreshCookie(res);
      expect(header).toMatch(/^refresh_token=[A-Za-z0-9_-]{43};/);
      expect(header).toMatch(/; HttpOnly/i);
      expect(header).toMatch(/; SameSite=Strict/i);
      expect(header).toMatch(/; Path=\/api\/auth(;|$)/);
      expect(header).toMatch(/; Max-Age=2592000(;|$)/);
      expect(header).not.toMatch(/; Secure/i); // plain http here

      const claims = claimsOf(body.access_token);
      expect(claims).toMatchObject({ sub: String(body.user.id), tid: acmeId });
      expect(typeof claims.sid).toBe('string');
      expect(Number(claims.exp) - Number(claims.iat)).toBe(900);
    });

    it("gives a client the companies and portal permissions of the client's role", async () => {
      const res = await login({ username: 'Client@Example.com', password: 'demo' });
      expect(res.statusCode).toBe(200);
      const user = res.json().user;
      expect(user.is_operator).toBe(0);
      // With what the client's company role there lets the portal offer (issue 39): the company admin's.
      expect(user.companies).toEqual([
        {
          id: expect.any(Number),
          name: 'Jansen BV',
          on_behalf: true,
          manage_access: true,
          grants_all: true,
          company_resources: [],
          own_resources: [],
        },
      ]);
      expect(user.permissions_names.every((p: string) => !p.startsWith('tenant.'))).toBe(true);
    });

    it('answers a wrong password with 422 and the field error', async () => {
      const res = await login({ username: 'client@example.com', password: 'wrong' }, '10.9.0.1');
      expect(res.statusCode).toBe(422);
      expect(res.json()).toEqual({ message: BAD_CREDENTIALS, errors: { username: [BAD_CREDENTIALS] } });
    });

    it('answers an unknown e-mail exactly as a wrong password', async () => {
      const res = await login({ username: 'nobody@example.com', password: 'demo' }, '10.9.0.2');
      expect(res.statusCode).toBe(422);
      expect(res.json()).toEqual({ message: BAD_CREDENTIALS, errors: { username: [BAD_CREDENTIALS] } });
    });

    it('answers single sign-on with 422 while it is not configured', async () => {
      const res = await login({ code: 'abc', portal: true }, '10.9.0.3');
      expect(res.statusCode).toBe(422);
      expect(res.json().message).toBe('Single sign-on is not configured.');
    });

    it('requires username and password', async () => {
      const res = await login({ username: 'client@example.com' }, '10.9.0.4');
      expect(res.statusCode).toBe(422);
      expect(res.json().errors).toEqual({ password: ['The password field is required.'] });
    });
  });

  describe('login rate limit', () => {
    it('refuses the 6th failed attempt for one account, then others once the address has 20', async () => {
      const address = '10.1.0.1';
      for (let i = 0; i < 5; i++) {
        expect(
          (await login({ username: 'ghost@example.com', password: `guess${i}` }, address)).statusCode,
        ).toBe(422);
      }
      const sixth = await login({ username: 'ghost@example.com', password: 'guess5' }, address);
      expect(sixth.statusCode).toBe(429);
      expect(sixth.json()).toEqual({ message: 'Too many login attempts. Please try again in 15 minutes.' });
      expect(Number(sixth.headers['retry-after'])).toBeGreaterThan(14 * 60);

      // Another account from the same address is not affected by the first one's limit...
      const other = await login({ username: 'limit@example.com', password: 'wrong' }, address);
      expect(other.statusCode).toBe(422);
      for (let i = 0; i < 14; i++) {
        expect((await login({ username: `ghost${i}@example.com`, password: 'x' }, address)).statusCode).toBe(
          422,
        );
      }
      // ...until the address has failed 20 times: then even a right password waits.
      const blocked = await login({ username: 'limit@example.com', password: 'demo' }, address);
      expect(blocked.statusCode).toBe(429);
      expect(blocked.json().message).toMatch(/^Too many login attempts\. Please try again in \d+ minutes\.$/);
      // The address limit holds only for that address. (The account from another address is only
      // slowed down, never locked out: tests/api/auth-hardening-logins.test.ts, on a clock it moves.)
      expect((await login({ username: 'limit@example.com', password: 'demo' }, '10.1.0.3')).statusCode).toBe(
        200,
      );
    });

    it("a successful login clears the account's failures", async () => {
      const address = '10.2.0.1';
      for (let i = 0; i < 4; i++) {
        expect((await login({ username: 'limit@example.com', password: 'wrong' }, address)).statusCode).toBe(
          422,
        );
      }
      expect((await login({ username: 'limit@example.com', password: 'demo' }, address)).statusCode).toBe(
        200,
      );
      for (let i = 0; i < 5; i++) {
        expect((await login({ username: 'limit@example.com', password: 'wrong' }, address)).statusCode).toBe(
          422,
        );
      }
      expect((await login({ username: 'limit@example.com', password: 'demo' }, address)).statusCode).toBe(
        429,
      );
    });
  });
});
