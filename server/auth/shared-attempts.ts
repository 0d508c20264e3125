import { sql } from 'kysely';
import type { Db } from '../db/database.ts';
import {
  BUDGET_WINDOW_MS,
  FIRST_DELAY_MS,
  LOGIN_WINDOW_MS,
  MAX_DELAY_MS,
  accountKey,
  type Attempt,
  type AttemptLimiterOptions,
  type Clock,
  type LoginLimiter,
} from './rate-limit.ts';

/** Address rows count across tenants (migration 0012). */
const ALL_TENANTS = 0;

export interface Rule {
  tenantId: number;
  key: string;
  limit: number;
  keep: number;
  /** 0: locked out until the oldest counted failure leaves the window; else the first delay. */
  delayFirstMs: number;
  delayMaxMs: number;
  /** What a successful attempt does to this key's failures: forget them all, or only its own. */
  onSuccess: 'clear' | 'remove';
}

/** Refused, once `limit` failures are in the window, until the oldest of them leaves it. */
export function lockout(tenantId: number, key: string, limit: number, onSuccess: Rule['onSuccess']): Rule {
  return { tenantId, key, limit, keep: limit, delayFirstMs: 0, delayMaxMs: 0, onSuccess };
}

/**
 * The one sliding-window limiter of logins and reset requests. Failures counted per account and
 * address, per address, and per account. An address that keeps failing is locked out (of that account
 * after 5, of every account after 20, for 15 minutes). An account failing from anywhere is only slowed
 * down: after 5 failures each further attempt waits 1, 2, 4 … seconds after the last, at most 30. So
 * no stranger can lock the owner out, and a guesser spread over many addresses still gets at most two
 * guesses a minute.
 *
 * Counted in the database (table auth_failures, function auth_attempt_begin, migration 0012) so every
 * instance on one database shares them: one statement per attempt, one more when it succeeds or is
 * abandoned. An attempt counts as failed from its start, so a burst of parallel guesses cannot all pass
 * the check while the first are still being judged; `succeeded()` takes it back and clears the
 * account's failures; `abandoned()` (the server failed, nothing was judged) only takes it back.
 */
export class SharedAttemptLimiter {
  private readonly clock: Clock;
  private readonly perAccountAddress: number;
  private readonly perAddress: number;
  private readonly perAccount: number;
  private readonly windowMs: number;
  private readonly maxDelayMs: number;

  constructor(
    private readonly db: Db,
    /** 'login' or 'reset': each has counters of its own. */
    private readonly kind: string,
    {
      clock = Date.now,
      perAccountAddress = 5,
      perAddress = 20,
      perAccount = 5,
      windowMs = LOGIN_WINDOW_MS,
      maxDelayMs = MAX_DELAY_MS,
    }: AttemptLimiterOptions = {},
  ) {
    this.clock = clock;
    this.perAccountAddress = perAccountAddress;
    this.perAddress = perAddress;
    this.perAccount = perAccount;
    this.windowMs = windowMs;
    this.maxDelayMs = maxDelayMs;
  }

  async begin(tenantId: number, email: string, address: string): Promise<Attempt> {
    const account = accountKey(tenantId, email);
    // Remembers enough failures for the delay to reach its cap; older ones would not change it.
    const doublings = Math.ceil(Math.log2(this.maxDelayMs / FIRST_DELAY_MS)) + 1;
    return this.attempt(
      [
        lockout(tenantId, `account-address:${account} ${address}`, this.perAccountAddress, 'clear'),
        lockout(ALL_TENANTS, `address:${address}`, this.perAddress, 'remove'),
        {
          tenantId,
          key: `account:${account}`,
          limit: this.perAccount,
          keep: this.perAccount + doublings,
          delayFirstMs: FIRST_DELAY_MS,
          delayMaxMs: this.maxDelayMs,
          onSuccess: 'clear',
        },
      ],
      this.windowMs,
    );
  }

  /** Checks and counts one attempt against `rules`, all in one window, in one statement. */
  async attempt(rules: Rule[], windowMs: number): Promise<Attempt> {
    const now = this.clock();
    const { rows } = await sql<{ wait: number | string }>`
      select auth_attempt_begin(
        ${rules.map((r) => r.tenantId)}::integer[], ${this.kind}, ${rules.map((r) => r.key)}::text[],
        ${rules.map((r) => r.limit)}::integer[], ${rules.map((r) => r.keep)}::integer[],
        ${rules.map((r) => r.delayFirstMs)}::bigint[], ${rules.map((r) => r.delayMaxMs)}::bigint[],
        ${now}::bigint, ${windowMs}::bigint
      ) as wait`.execute(this.db);
    const wait = Number(rows[0]?.wait ?? 0);
    if (wait > 0) return { allowed: false, retryAfterMs: wait };
    return {
      allowed: true,
      succeeded: () => this.end(rules, now, (rule) => rule.onSuccess),
      abandoned: () => this.end(rules, now, () => 'remove'),
    };
  }

  /** Takes back this attempt's failure (`remove`) or every failure (`clear`) of each key, in one statement. */
  private async end(rules: Rule[], at: number, action: (rule: Rule) => 'clear' | 'remove'): Promise<void> {
    await sql`
      with u as (
        select * from unnest(
          ${rules.map((r) => r.tenantId)}::integer[], ${rules.map((r) => r.key)}::text[],
          ${rules.map(action)}::text[]) as u(t, k, a)
      ),
      cleared as (
        delete from auth_failures f using u
        where f.tenant_id = u.t and f.kind = ${this.kind} and f.key = u.k and u.a = 'clear'
      )
      update auth_failures f
      set failed_at = f.failed_at[1 : array_position(f.failed_at, ${at}::bigint) - 1]
        || f.failed_at[array_position(f.failed_at, ${at}::bigint) + 1 :]
      from u
      where f.tenant_id = u.t and f.kind = ${this.kind} and f.key = u.k and u.a = 'remove'
        and ${at}::bigint = any(f.failed_at)`.execute(this.db);
  }
}

/**
 * Login attempts counted in the database: the default of the auth plugin. On top of the per-account
 * and per-address rules, a budget per tenant that no spread of addresses or accounts escapes: once
 * `perTenantPerMinute` failures are in the last minute (the plugin passes LOGIN_FAILURES_PER_MINUTE,
 * 30; unset here: no budget, as the tests of the other rules want it), an attempt from an unknown device is
 * refused, before any password is hashed, until the oldest leaves the minute. A known device's attempt
 * (known-devices.ts) skips the budget and the account's slow-down and counts against its own limit
 * only (5 failures in 15 minutes), so the accounts' owners on their own browsers still sign in.
 */
export class SharedLoginRateLimiter implements LoginLimiter {
  private readonly limiter: SharedAttemptLimiter;
  private readonly perTenantPerMinute: number;
  private readonly perDevice: number;

  constructor(db: Db, options: AttemptLimiterOptions = {}) {
    this.limiter = new SharedAttemptLimiter(db, 'login', options);
    this.perTenantPerMinute = options.perTenantPerMinute ?? 0;
    this.perDevice = options.perDevice ?? 5;
  }

  async begin(tenantId: number, email: string, address: string, device?: string): Promise<Attempt> {
    if (device !== undefined) {
      const rule = lockout(tenantId, `device:${device}`, this.perDevice, 'clear');
      return this.limiter.attempt([rule], LOGIN_WINDOW_MS);
    }
    if (this.perTenantPerMinute === 0) return this.limiter.begin(tenantId, email, address);
    // The budget has a window of its own, so a statement of its own, and comes first: an attempt it
    // refuses creates no rows at all (a flood of new addresses and accounts leaves nothing behind); one
    // the other rules refuse gives its share of the budget back.
    const budget = await this.limiter.attempt(
      [lockout(tenantId, 'tenant', this.perTenantPerMinute, 'remove')],
      BUDGET_WINDOW_MS,
    );
    if (!budget.allowed) return budget;
    const attempt = await this.limiter.begin(tenantId, email, address);
    if (!attempt.allowed) {
      await budget.abandoned();
      return attempt;
    }
    return {
      allowed: true,
      succeeded: async () => {
        await attempt.succeeded();
        await budget.succeeded();
      },
      abandoned: async () => {
        await attempt.abandoned();
        await budget.abandoned();
      },
    };
  }
}
