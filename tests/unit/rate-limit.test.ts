import { describe, expect, it } from 'vitest';
import {
  LOGIN_WINDOW_MS,
  LoginRateLimiter,
  SlidingWindowCounter,
  tooManyAttemptsMessage,
} from '../../server/auth/rate-limit.ts';

/** A clock the test moves by hand. */
function fakeClock(start = 1_700_000_000_000) {
  let now = start;
  return {
    now: () => now,
    advance(ms: number) {
      now += ms;
    },
  };
}

function fail(limiter: LoginRateLimiter, email: string, address = '10.0.0.1', tenantId = 1) {
  const attempt = limiter.begin(tenantId, email, address);
  if (!attempt.allowed) throw new Error(`attempt for ${email} refused`);
}

describe('SlidingWindowCounter', () => {
  it('refuses once max failures fall inside the window and frees one slot per expiring failure', () => {
    const clock = fakeClock();
    const counter = new SlidingWindowCounter({ max: 3, windowMs: 1_000, clock: clock.now });
    counter.recordFailure('k');
    clock.advance(100);
    counter.recordFailure('k');
    clock.advance(100);
    expect(counter.retryAfterMs('k')).toBe(0);
    counter.recordFailure('k');
    // The first failure (t=0) leaves the window at t=1000; now is t=200.
    expect(counter.retryAfterMs('k')).toBe(800);
    clock.advance(799);
    expect(counter.retryAfterMs('k')).toBe(1);
    clock.advance(1);
    expect(counter.retryAfterMs('k')).toBe(0);
  });

  it('forgets keys whose failures have all expired', () => {
    const clock = fakeClock();
    const counter = new SlidingWindowCounter({ max: 2, windowMs: 1_000, clock: clock.now });
    counter.recordFailure('k');
    expect(counter.size).toBe(1);
    clock.advance(1_000);
    expect(counter.retryAfterMs('k')).toBe(0);
    expect(counter.size).toBe(0);
  });

  it('keeps at most maxKeys keys, dropping the least recently failed', () => {
    const clock = fakeClock();
    const counter = new SlidingWindowCounter({ max: 1, windowMs: 1_000, clock: clock.now, maxKeys: 2 });
    counter.recordFailure('a');
    counter.recordFailure('b');
    counter.recordFailure('c');
    expect(counter.size).toBe(2);
    expect(counter.retryAfterMs('a')).toBe(0);
    expect(counter.retryAfterMs('b')).toBeGreaterThan(0);
    expect(counter.retryAfterMs('c')).toBeGreaterThan(0);
  });

  it('remove takes back exactly one recorded failure', () => {
    const clock = fakeClock();
    const counter = new SlidingWindowCounter({ max: 2, windowMs: 1_000, clock: clock.now });
    counter.recordFailure('k');
    const at = counter.recordFailure('k');
    expect(counter.retryAfterMs('k')).toBeGreaterThan(0);
    counter.remove('k', at);
    expect(counter.retryAfterMs('k')).toBe(0);
  });
});

describe('LoginRateLimiter', () => {
  it('allows 5 failed attempts per account in 15 minutes and refuses the 6th', () => {
    const clock = fakeClock();
    const limiter = new LoginRateLimiter({ clock: clock.now });
    for (let i = 0; i < 5; i++) {
      fail(limiter, 'client@example.com');
      clock.advance(60_000);
    }
    const sixth = limiter.begin(1, 'client@example.com', '10.0.0.1');
    expect(sixth.allowed).toBe(false);
    // The first failure was 5 minutes ago: it leaves the 15-minute window in 10 minutes.
    expect(sixth.allowed === false && sixth.retryAfterMs).toBe(LOGIN_WINDOW_MS - 5 * 60_000);
  });

  it('locks the failing address out of the account but only slows the owner elsewhere (1, 2, 4 … 30 s)', () => {
    const clock = fakeClock();
    const limiter = new LoginRateLimiter({ clock: clock.now });
    for (let i = 0; i < 5; i++) fail(limiter, 'admin@example.com', '10.0.0.1');
    const waits: number[] = [];
    for (let i = 0; i < 8; i++) {
      const refused = limiter.begin(1, 'admin@example.com', `10.0.1.${i}`);
      waits.push(refused.allowed ? 0 : refused.retryAfterMs);
      clock.advance(waits[i]!);
      fail(limiter, 'admin@example.com', `10.0.1.${i}`);
    }
    expect(waits).toEqual([1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000, 30_000]);
    const attacker = limiter.begin(1, 'admin@example.com', '10.0.0.1');
    expect(attacker.allowed === false && attacker.retryAfterMs).toBeGreaterThan(10 * 60_000);
  });

  it('treats the e-mail case-insensitively and tenants separately', () => {
    const limiter = new LoginRateLimiter({ clock: fakeClock().now });
    for (let i = 0; i < 5; i++) fail(limiter, i % 2 ? 'Client@Example.com' : 'client@example.com ');
    expect(limiter.begin(1, 'CLIENT@example.com', '10.0.0.9').allowed).toBe(false);
    expect(limiter.begin(2, 'client@example.com', '10.0.0.9').allowed).toBe(true);
  });

  it('leaves other accounts alone until the address reaches 20 failures', () => {
    const limiter = new LoginRateLimiter({ clock: fakeClock().now });
    for (let i = 0; i < 5; i++) fail(limiter, 'a@example.com');
    expect(limiter.begin(1, 'a@example.com', '10.0.0.1').allowed).toBe(false);
    for (let i = 0; i < 15; i++) fail(limiter, `user${i % 3}@example.com`);
    // 20 failures from this address now: every account is refused from it, not from elsewhere.
    expect(limiter.begin(1, 'fresh@example.com', '10.0.0.1').allowed).toBe(false);
    expect(limiter.begin(1, 'fresh@example.com', '10.0.0.2').allowed).toBe(true);
  });

  it('allows again once the window has passed', () => {
    const clock = fakeClock();
    const limiter = new LoginRateLimiter({ clock: clock.now });
    for (let i = 0; i < 5; i++) fail(limiter, 'a@example.com');
    expect(limiter.begin(1, 'a@example.com', '10.0.0.1').allowed).toBe(false);
    clock.advance(LOGIN_WINDOW_MS - 1);
    expect(limiter.begin(1, 'a@example.com', '10.0.0.1').allowed).toBe(false);
    clock.advance(1);
    expect(limiter.begin(1, 'a@example.com', '10.0.0.1').allowed).toBe(true);
  });

  it("a successful login clears the account's earlier failures", () => {
    const limiter = new LoginRateLimiter({ clock: fakeClock().now });
    for (let i = 0; i < 4; i++) fail(limiter, 'a@example.com');
    const ok = limiter.begin(1, 'a@example.com', '10.0.0.1');
    if (!ok.allowed) throw new Error('refused');
    ok.succeeded();
    for (let i = 0; i < 5; i++) fail(limiter, 'a@example.com');
    expect(limiter.begin(1, 'a@example.com', '10.0.0.1').allowed).toBe(false);
  });

  it('successful logins do not use up the address limit', () => {
    const limiter = new LoginRateLimiter({ clock: fakeClock().now });
    for (let i = 0; i < 50; i++) {
      const attempt = limiter.begin(1, `user${i}@example.com`, '10.0.0.1');
      if (!attempt.allowed) throw new Error(`refused at ${i}`);
      attempt.succeeded();
    }
    expect(limiter.begin(1, 'another@example.com', '10.0.0.1').allowed).toBe(true);
  });

  it('counts an attempt from its start, so parallel guesses cannot pass the check together', () => {
    const limiter = new LoginRateLimiter({ clock: fakeClock().now });
    const started = Array.from({ length: 8 }, () => limiter.begin(1, 'a@example.com', '10.0.0.1'));
    expect(started.filter((a) => a.allowed)).toHaveLength(5);
  });

  it('an abandoned attempt (server error) is not counted', () => {
    const limiter = new LoginRateLimiter({ clock: fakeClock().now });
    for (let i = 0; i < 10; i++) {
      const attempt = limiter.begin(1, 'a@example.com', '10.0.0.1');
      if (!attempt.allowed) throw new Error(`refused at ${i}`);
      attempt.abandoned();
    }
    expect(limiter.begin(1, 'a@example.com', '10.0.0.1').allowed).toBe(true);
  });
});

describe('tooManyAttemptsMessage', () => {
  it('says whole minutes from a minute on, else whole seconds, rounded up and never 0', () => {
    expect(tooManyAttemptsMessage(15 * 60_000)).toBe(
      'Too many login attempts. Please try again in 15 minutes.',
    );
    expect(tooManyAttemptsMessage(14 * 60_000 + 1)).toBe(
      'Too many login attempts. Please try again in 15 minutes.',
    );
    expect(tooManyAttemptsMessage(60_000)).toBe('Too many login attempts. Please try again in 1 minutes.');
    expect(tooManyAttemptsMessage(59_001)).toBe('Too many login attempts. Please try again in 60 seconds.');
    expect(tooManyAttemptsMessage(1_500)).toBe('Too many login attempts. Please try again in 2 seconds.');
    expect(tooManyAttemptsMessage(1)).toBe('Too many login attempts. Please try again in 1 seconds.');
  });
});
