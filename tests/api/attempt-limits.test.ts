/**
 * The login limits (SPEC 6, docs/security.md) against the one limiter that enforces them, counted in
 * the database (server/auth/shared-attempts.ts), on both engines. These ran against an in-memory copy
 * of the same window logic until 2026-11-24; the copy went, the tests stayed. Each test uses e-mail
 * addresses and source addresses of its own: the counts live in the file's database.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOGIN_WINDOW_MS } from '../../server/auth/rate-limit.ts';
import { SharedLoginRateLimiter } from '../../server/auth/shared-attempts.ts';
import { buildTestApp, targets, type TestApp } from './harness.ts';

/** A clock the test moves by hand. */
function fakeClock(start = Date.now()) {
  let now = start;
  return {
    now: () => now,
    advance(ms: number) {
      now += ms;
    },
  };
}

async function fail(limiter: SharedLoginRateLimiter, email: string, address: string, tenantId = 1) {
  const attempt = await limiter.begin(tenantId, email, address);
  if (!attempt.allowed) throw new Error(`attempt for ${email} refused`);
}

describe.each(targets)('the login limits on $name', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp(target);
  });
  afterAll(async () => {
    await t?.close();
  });
  const limiter = (clock = fakeClock()) => new SharedLoginRateLimiter(t.db, { clock: clock.now });

  it('allows 5 failed attempts per account in 15 minutes and refuses the 6th until the oldest leaves', async () => {
    const clock = fakeClock();
    const l = limiter(clock);
    for (let i = 0; i < 5; i++) {
      await fail(l, 'sixth@example.com', '10.90.0.1');
      clock.advance(60_000);
    }
    const sixth = await l.begin(1, 'sixth@example.com', '10.90.0.1');
    // The first failure was 5 minutes ago: it leaves the 15-minute window in 10 minutes.
    expect(sixth.allowed === false && sixth.retryAfterMs).toBe(LOGIN_WINDOW_MS - 5 * 60_000);
    clock.advance(LOGIN_WINDOW_MS - 5 * 60_000 - 1);
    expect((await l.begin(1, 'sixth@example.com', '10.90.0.1')).allowed).toBe(false);
    clock.advance(1);
    expect((await l.begin(1, 'sixth@example.com', '10.90.0.1')).allowed).toBe(true);
  });

  it('locks the failing address out of the account but only slows the owner elsewhere (1, 2, 4 … 30 s)', async () => {
    const clock = fakeClock();
    const l = limiter(clock);
    for (let i = 0; i < 5; i++) await fail(l, 'owner@example.com', '10.91.0.1');
    const waits: number[] = [];
    for (let i = 0; i < 8; i++) {
      const refused = await l.begin(1, 'owner@example.com', `10.91.1.${i}`);
      waits.push(refused.allowed ? 0 : refused.retryAfterMs);
      clock.advance(waits[i]!);
      await fail(l, 'owner@example.com', `10.91.1.${i}`);
    }
    expect(waits).toEqual([1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000, 30_000]);
    const attacker = await l.begin(1, 'owner@example.com', '10.91.0.1');
    expect(attacker.allowed === false && attacker.retryAfterMs).toBeGreaterThan(10 * 60_000);
  });

  it('treats the e-mail case-insensitively and tenants separately', async () => {
    const l = limiter();
    for (let i = 0; i < 5; i++) await fail(l, i % 2 ? 'Case@Example.com' : 'case@example.com ', '10.92.0.1');
    expect((await l.begin(1, 'CASE@example.com', '10.92.0.9')).allowed).toBe(false);
    expect((await l.begin(2, 'case@example.com', '10.92.0.9')).allowed).toBe(true);
  });

  it('leaves other accounts alone until the address reaches 20 failures', async () => {
    const l = limiter();
    for (let i = 0; i < 5; i++) await fail(l, 'first@example.com', '10.93.0.1');
    expect((await l.begin(1, 'first@example.com', '10.93.0.1')).allowed).toBe(false);
    for (let i = 0; i < 15; i++) await fail(l, `other${i % 3}@example.com`, '10.93.0.1');
    // 20 failures from this address now: every account is refused from it, not from elsewhere.
    expect((await l.begin(1, 'fresh@example.com', '10.93.0.1')).allowed).toBe(false);
    expect((await l.begin(1, 'fresh@example.com', '10.93.0.2')).allowed).toBe(true);
  });

  it("a successful login clears the account's earlier failures", async () => {
    const l = limiter();
    for (let i = 0; i < 4; i++) await fail(l, 'cleared@example.com', '10.94.0.1');
    const ok = await l.begin(1, 'cleared@example.com', '10.94.0.1');
    if (!ok.allowed) throw new Error('refused');
    await ok.succeeded();
    for (let i = 0; i < 5; i++) await fail(l, 'cleared@example.com', '10.94.0.1');
    expect((await l.begin(1, 'cleared@example.com', '10.94.0.1')).allowed).toBe(false);
  });

  it('successful logins do not use up the address limit', async () => {
    const l = limiter();
    for (let i = 0; i < 30; i++) {
      const attempt = await l.begin(1, `ok${i}@example.com`, '10.95.0.1');
      if (!attempt.allowed) throw new Error(`refused at ${i}`);
      await attempt.succeeded();
    }
    expect((await l.begin(1, 'another@example.com', '10.95.0.1')).allowed).toBe(true);
  });

  it('an abandoned attempt (server error) is not counted', async () => {
    const l = limiter();
    for (let i = 0; i < 10; i++) {
      const attempt = await l.begin(1, 'abandoned@example.com', '10.96.0.1');
      if (!attempt.allowed) throw new Error(`refused at ${i}`);
      await attempt.abandoned();
    }
    expect((await l.begin(1, 'abandoned@example.com', '10.96.0.1')).allowed).toBe(true);
  });
});
