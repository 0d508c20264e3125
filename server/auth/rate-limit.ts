/**
 * Failed-login counting: the rules, and an in-memory sliding window (exact for one process). The app
 * counts in the database instead (shared-attempts.ts), so instances on one database share the counts.
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

  /** The failures of a key still inside the window, and the time of the newest (0 when none). */
  recentFailures(key: string): { count: number; last: number } {
    const recent = this.recent(key);
    return { count: recent.length, last: recent[recent.length - 1] ?? 0 };
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

export interface AttemptLimiterOptions {
  clock?: Clock;
  /** Failures one address may make for one account before it is locked out of it for the window. */
  perAccountAddress?: number;
  /** Failures one address may make across all accounts before it is locked out of all. */
  perAddress?: number;
  /** Failures an account takes from anywhere before each further attempt waits. */
  perAccount?: number;
  windowMs?: number;
  /** The longest wait between two attempts on one account. */
  maxDelayMs?: number;
}

export const LOGIN_WINDOW_MS = 15 * 60_000;
const FIRST_DELAY_MS = 1_000;
export const MAX_DELAY_MS = 30_000;

/**
 * Failures counted per account and address, per address, and per account. An address that keeps
 * failing is locked out (of that account after 5, of every account after 20, for 15 minutes). An
 * account failing from anywhere is only slowed down: after 5 failures each further attempt waits
 * 1, 2, 4 … seconds after the last, at most 30. So no stranger can lock the owner out, and a guesser
 * spread over many addresses still gets at most two guesses a minute.
 */
export class AttemptLimiter {
  private readonly pairs: SlidingWindowCounter;
  private readonly addresses: SlidingWindowCounter;
  private readonly accounts: SlidingWindowCounter;
  private readonly clock: Clock;
  private readonly perAccount: number;
  private readonly maxDelayMs: number;

  constructor({
    clock = Date.now,
    perAccountAddress = 5,
    perAddress = 20,
    perAccount = 5,
    windowMs = LOGIN_WINDOW_MS,
    maxDelayMs = MAX_DELAY_MS,
  }: AttemptLimiterOptions = {}) {
    this.clock = clock;
    this.perAccount = perAccount;
    this.maxDelayMs = maxDelayMs;
    this.pairs = new SlidingWindowCounter({ max: perAccountAddress, windowMs, clock });
    this.addresses = new SlidingWindowCounter({ max: perAddress, windowMs, clock });
    // Remembers enough failures for the delay to reach its cap; older ones would not change it.
    const doublings = Math.ceil(Math.log2(maxDelayMs / FIRST_DELAY_MS)) + 1;
    this.accounts = new SlidingWindowCounter({ max: perAccount + doublings, windowMs, clock });
  }

  /**
   * Starts an attempt. It counts as failed from this moment, so a burst of parallel guesses cannot all
   * pass the check while the first are still being judged; `succeeded()` takes it back and clears the
   * account's failures; `abandoned()` (the server failed, nothing was judged) only takes it back.
   */
  begin(account: string, address: string): Attempt {
    const pair = `${account}\n${address}`;
    const retryAfterMs = Math.max(
      this.pairs.retryAfterMs(pair),
      this.addresses.retryAfterMs(address),
      this.accountDelayMs(account),
    );
    if (retryAfterMs > 0) return { allowed: false, retryAfterMs };
    const pairAt = this.pairs.recordFailure(pair);
    const addressAt = this.addresses.recordFailure(address);
    const accountAt = this.accounts.recordFailure(account);
    return {
      allowed: true,
      succeeded: () => {
        this.pairs.clear(pair);
        this.accounts.clear(account);
        this.addresses.remove(address, addressAt);
      },
      abandoned: () => {
        this.pairs.remove(pair, pairAt);
        this.addresses.remove(address, addressAt);
        this.accounts.remove(account, accountAt);
      },
    };
  }

  private accountDelayMs(account: string): number {
    const { count, last } = this.accounts.recentFailures(account);
    if (count < this.perAccount) return 0;
    const delay = Math.min(this.maxDelayMs, FIRST_DELAY_MS * 2 ** (count - this.perAccount));
    return Math.max(0, last + delay - this.clock());
  }
}

export type Attempt =
  | { allowed: false; retryAfterMs: number }
  | { allowed: true; succeeded(): void | Promise<void>; abandoned(): void | Promise<void> };

/** What the login route needs: in memory (`LoginRateLimiter`) or in the database (shared-attempts.ts). */
export interface LoginLimiter {
  begin(tenantId: number, email: string, address: string): Attempt | Promise<Attempt>;
}

/** Login attempts: an `AttemptLimiter` whose account is tenant + e-mail. */
export class LoginRateLimiter implements LoginLimiter {
  private readonly limiter: AttemptLimiter;

  constructor(options: AttemptLimiterOptions = {}) {
    this.limiter = new AttemptLimiter(options);
  }

  begin(tenantId: number, email: string, address: string): Attempt {
    return this.limiter.begin(accountKey(tenantId, email), address);
  }
}

export function accountKey(tenantId: number, email: string): string {
  return `${tenantId}:${email.trim().toLowerCase()}`;
}

/** How long to wait, as the 429 texts say it: whole seconds under a minute, else whole minutes; never 0. */
export function waitText(retryAfterMs: number): string {
  if (retryAfterMs < 60_000) return `${Math.max(1, Math.ceil(retryAfterMs / 1000))} seconds`;
  return `${Math.ceil(retryAfterMs / 60_000)} minutes`;
}

/** The Retry-After header: whole seconds, rounded up. */
export function retryAfterSeconds(retryAfterMs: number): string {
  return String(Math.max(1, Math.ceil(retryAfterMs / 1000)));
}

/** The login 429 text (the apps read the number and its unit from it). */
export function tooManyAttemptsMessage(retryAfterMs: number): string {
  return `Too many login attempts. Please try again in ${waitText(retryAfterMs)}.`;
}
