/**
 * Auth state shared by instances on one database (issue 15): failed-login counters in the database, and
 * logouts and logins heard by every instance through PostgreSQL notifications.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SharedLoginRateLimiter } from '../../server/auth/shared-attempts.ts';
import { buildSecondInstance, buildTestApp, targets, type TestApp } from './harness.ts';

/** Polls `check` until it is true or `ms` have passed; true when it became true in time. */
async function within(ms: number, check: () => Promise<boolean>): Promise<boolean> {
  const deadline = Date.now() + ms;
  for (;;) {
    if (await check()) return true;
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

function fakeClock(start: number) {
  let now = start;
  return {
    now: () => now,
    advance(ms: number) {
      now += ms;
    },
  };
}

describe.each(targets)('failed-login counters in the database on $name', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp(target);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('parallel attempts on one account and address: exactly 5 pass, the rest wait 15 minutes', async () => {
    const clock = fakeClock(Date.now());
    const limiters = [
      new SharedLoginRateLimiter(t.db, { clock: clock.now }),
      new SharedLoginRateLimiter(t.db),
    ];
    const attempts = await Promise.all(
      Array.from({ length: 12 }, (_, i) => limiters[i % 2]!.begin(1, 'parallel@example.com', '10.80.0.1')),
    );
    expect(attempts.filter((a) => a.allowed)).toHaveLength(5);
    for (const attempt of attempts) {
      if (!attempt.allowed) expect(attempt.retryAfterMs).toBeGreaterThan(14 * 60_000);
    }
  });

  it('a refused attempt leaves no row, and rows whose failures left the window are swept', async () => {
    const clock = fakeClock(Date.now() + 24 * 3_600_000);
    const limiter = new SharedLoginRateLimiter(t.db, { clock: clock.now });
    const rowsOf = async (needle: string) =>
      (await t.db.selectFrom('auth_failures').select('key').where('key', 'like', `%${needle}%`).execute())
        .length;
    for (let i = 0; i < 20; i++)
      expect((await limiter.begin(1, `flood${i}@example.com`, '10.81.0.1')).allowed).toBe(true);
    // A pair row per e-mail and the address row name the address (and an account row per e-mail).
    expect(await rowsOf('10.81.0.1')).toBe(21);
    // The address is locked out: a flood of new e-mail addresses from it adds nothing.
    for (let i = 20; i < 30; i++)
      expect((await limiter.begin(1, `flood${i}@example.com`, '10.81.0.1')).allowed).toBe(false);
    expect(await rowsOf('flood2')).toBe(2); // flood2@ only: its pair and account rows
    expect(await rowsOf('flood25')).toBe(0);
    // 15 minutes on, each counted failure sweeps up to 20 expired rows.
    clock.advance(15 * 60_000);
    for (let i = 0; i < 3; i++)
      expect((await limiter.begin(1, `later${i}@example.com`, '10.81.0.2')).allowed).toBe(true);
    expect(await rowsOf('flood')).toBe(0);
    expect(await rowsOf('10.81.0.1')).toBe(0);
  });
});

describe.each(targets.filter((t) => t.name === 'postgres'))(
  'two instances on one database on $name',
  (target) => {
    let a: TestApp;
    let b: TestApp;
    beforeAll(async () => {
      a = await buildTestApp(target);
      b = await buildSecondInstance(a);
    });
    afterAll(async () => {
      await b?.close();
      await a?.close();
    });

    it('both listen for auth changes', () => {
      expect(a.app.sessionEvents?.listening).toBe(true);
      expect(b.app.sessionEvents?.listening).toBe(true);
    });

    it('6 wrong passwords spread over both instances: the 6th is refused as on one instance', async () => {
      const login = (app: TestApp, password: string) =>
        app.app.inject({
          method: 'POST',
          url: '/api/auth/login',
          payload: { username: 'client@example.com', password },
          remoteAddress: '10.82.0.1',
        });
      for (let i = 0; i < 5; i++) {
        const res = await login(i % 2 === 0 ? a : b, `wrong${i}`);
        expect(res.statusCode, res.body).toBe(422);
      }
      const sixth = await login(b, 'demo');
      expect(sixth.statusCode).toBe(429);
      expect(sixth.json()).toEqual({ message: 'Too many login attempts. Please try again in 15 minutes.' });
      // 15 minutes from the first failure, a few seconds ago on the real clock.
      const retryAfter = Number(sixth.headers['retry-after']);
      expect(retryAfter).toBeLessThanOrEqual(900);
      expect(retryAfter).toBeGreaterThan(840);
      expect((await login(a, 'demo')).statusCode).toBe(429);
    });

    const me = (app: TestApp, token: string) =>
      app.app.inject({ method: 'GET', url: '/api/auth/me', headers: { authorization: `Bearer ${token}` } });

    it('a logout on A refuses the same token on B within 1 s', async () => {
      const { token, cookie } = await a.login('other@example.com');
      // B has the context cached (5 s TTL) before the logout.
      expect((await me(b, token)).statusCode).toBe(200);
      expect((await me(b, token)).statusCode).toBe(200);
      const logout = await a.app.inject({
        method: 'POST',
        url: '/api/auth/logout',
        headers: { authorization: `Bearer ${token}`, cookie },
      });
      expect(logout.statusCode).toBe(200);
      expect(await within(1_000, async () => (await me(b, token)).statusCode === 401)).toBe(true);
    });

    it('a new login of the operator on A refuses the old token on B within 1 s', async () => {
      const first = await a.login('admin@example.com');
      expect((await me(b, first.token)).statusCode).toBe(200);
      const second = await a.login('admin@example.com');
      expect(await within(1_000, async () => (await me(b, first.token)).statusCode === 401)).toBe(true);
      expect((await me(b, second.token)).statusCode).toBe(200);
    });

    it('a user archived through A (any code path: a trigger tells) is refused on B within 1 s', async () => {
      const { token } = await a.login('operator@example.com');
      expect((await me(b, token)).statusCode).toBe(200);
      await a.db
        .updateTable('users')
        .set({ archived_at: new Date() })
        .where('email', '=', 'operator@example.com')
        .execute();
      expect(await within(1_000, async () => (await me(b, token)).statusCode === 401)).toBe(true);
    });
  },
);
