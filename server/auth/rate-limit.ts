/**
 * Failed-login counting in memory. One process serves the API (DESIGN section 2), so an in-memory
 * sliding window is exact; a scaled-out deployment would move these counters to a shared store.
 */

/** Milliseconds since the epoch; injectable so tests can move time without waiting. */
export type Clock = () => number;

export interface SlidingWindowOptions {
  /** Failures allowed inside the window; the next attempt is refused. */
  max: number;
  windowMs: number;
  clock?: Clock;
  /** Bound on remembered keys, so a flood of distinct e-mail addresses cannot exhaust memory. */
  maxKeys?: number;
}

/** Counts failures per key over a sliding window (a log of timestamps, at most `max` per key). */
export class SlidingWindowCounter {
  private readonly failures = new Map<string, number[]>();
  private readonly max: number;
  private readonly windowMs: number;
  private readonly clock: Clock;
  private readonly maxKeys: number;

  constructor({ max, windowMs, clock = Date.now, maxKeys = 100_000 }: SlidingWindowOptions) {
    this.max = max;
    this.windowMs = windowMs;
    this.clock = clock;
    this.maxKeys = maxKeys;
  }

  /** 0 when the key may try again now; otherwise the milliseconds until it may. */
  retryAfterMs(key: string): number {
    const recent = this.recent(key);
    if (recent.length < this.max) return 0;
    // The oldest failure that still counts has to leave the window before one more attempt fits.
    const oldest = recent[recent.length - this.max]!;
    return oldest + this.windowMs - this.clock();
  }

  /** Counts a failure now; returns its timestamp, which `remove` takes back. */
  recordFailure(key: string): number {
    const at = this.clock();
    const recent = this.recent(key);
    recent.push(at);
    // Only the newest `max` matter for the decision; older ones would only cost memory.
    if (recent.length > this.max) recent.splice(0, recent.length - this.max);
    this.failures.delete(key); // re-insert: Map order then runs from least to most recently failed
    this.failures.set(key, recent);
    this.evictOverflow();
    return at;
  }

  /** Takes back one failure recorded at `at` (an attempt that turned out to succeed). */
  remove(key: string, at: number): void {
    const list = this.failures.get(key);
    const index = list?.indexOf(at) ?? -1;
    if (!list || index === -1) return;
    list.splice(index, 1);
    if (list.length === 0) this.failures.delete(key);
  }

  clear(key: string): void {
    this.failures.delete(key);
  }

  /** Number of keys remembered (tests, metrics). */
  get size(): number {
    return this.failures.size;
  }

  private recent(key: string): number[] {
    const list = this.failures.get(key);
    if (!list) return [];
    const since = this.clock() - this.windowMs;
    const kept = list.filter((t) => t > since);
    if (kept.length === 0) this.failures.delete(key);
    else if (kept.length !== list.length) this.failures.set(key, kept);
    return kept;
  }

  private evictOverflow(): void {
    while (this.failures.size > this.maxKeys) {
      const first = this.failures.keys().next();
      if (first.done) return;
      this.failures.delete(first.value);
    }
  }
}

export interface LoginRateLimiterOptions {
  clock?: Clock;
  perAccount?: number;
  perAddress?: number;
  windowMs?: number;
}

export const LOGIN_WINDOW_MS = 15 * 60_000;

/**
 * At most 5 failed attempts per account (tenant + e-mail) and 20 per client address in 15 minutes.
 * The account limit stops guessing one password; the address limit stops trying one password on many
 * accounts. A successful login clears the account's counter but not the address's.
 */
export class LoginRateLimiter {
  private readonly accounts: SlidingWindowCounter;
  private readonly addresses: SlidingWindowCounter;

  constructor({
    clock,
    perAccount = 5,
    perAddress = 20,
    windowMs = LOGIN_WINDOW_MS,
  }: LoginRateLimiterOptions = {}) {
    this.accounts = new SlidingWindowCounter({ max: perAccount, windowMs, clock });
    this.addresses = new SlidingWindowCounter({ max: perAddress, windowMs, clock });
  }

  /**
   * Starts a login attempt. The attempt counts as failed from this moment, so a burst of parallel
   * guesses cannot all pass the check while the first password hashes are still being verified;
   * `succeeded()` takes it back and clears the account's counter; `abandoned()` (the server failed,
   * the password was never judged) only takes it back.
   */
  begin(tenantId: number, email: string, address: string): LoginAttempt {
    const account = accountKey(tenantId, email);
    const retryAfterMs = Math.max(this.accounts.retryAfterMs(account), this.addresses.retryAfterMs(address));
    if (retryAfterMs > 0) return { allowed: false, retryAfterMs };
    const accountAt = this.accounts.recordFailure(account);
    const addressAt = this.addresses.recordFailure(address);
    return {
      allowed: true,
      succeeded: () => {
        this.accounts.clear(account);
        this.addresses.remove(address, addressAt);
      },
      abandoned: () => {
        this.accounts.remove(account, accountAt);
        this.addresses.remove(address, addressAt);
      },
    };
  }
}

export type LoginAttempt =
  { allowed: false; retryAfterMs: number } | { allowed: true; succeeded(): void; abandoned(): void };

function accountKey(tenantId: number, email: string): string {
  return `${tenantId}:${email.trim().toLowerCase()}`;
}

/** The 429 text: whole minutes, rounded up, never 0. */
export function tooManyAttemptsMessage(retryAfterMs: number): string {
  const minutes = Math.max(1, Math.ceil(retryAfterMs / 60_000));
  return `Too many login attempts. Please try again in ${minutes} minutes.`;
}
