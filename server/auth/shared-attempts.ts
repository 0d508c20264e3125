import { sql } from 'kysely';
import type { Db } from '../db/database.ts';
import {
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

interface Rule {
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
    const rules: Rule[] = [
      {
        tenantId,
        key: `account-address:${account} ${address}`,
        limit: this.perAccountAddress,
        keep: this.perAccountAddress,
        delayFirstMs: 0,
        delayMaxMs: 0,
        onSuccess: 'clear',
      },
      {
        tenantId: ALL_TENANTS,
        key: `address:${address}`,
        limit: this.perAddress,
        keep: this.perAddress,
        delayFirstMs: 0,
        delayMaxMs: 0,
        onSuccess: 'remove',
      },
      {
        tenantId,
        key: `account:${account}`,
        limit: this.perAccount,
        keep: this.perAccount + doublings,
        delayFirstMs: FIRST_DELAY_MS,
        delayMaxMs: this.maxDelayMs,
        onSuccess: 'clear',
      },
    ];
    const now = this.clock();
    const { rows } = await sql<{ wait: number | string }>`
      select auth_attempt_begin(
        ${rules.map((r) => r.tenantId)}::integer[], ${this.kind}, ${rules.map((r) => r.key)}::text[],
        ${rules.map((r) => r.limit)}::integer[], ${rules.map((r) => r.keep)}::integer[],
        ${rules.map((r) => r.delayFirstMs)}::bigint[], ${rules.map((r) => r.delayMaxMs)}::bigint[],
        ${now}::bigint, ${this.windowMs}::bigint
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

/** Login attempts counted in the database: the default of the auth plugin. */
export class SharedLoginRateLimiter implements LoginLimiter {
  private readonly limiter: SharedAttemptLimiter;

  constructor(db: Db, options: AttemptLimiterOptions = {}) {
    this.limiter = new SharedAttemptLimiter(db, 'login', options);
  }

  begin(tenantId: number, email: string, address: string): Promise<Attempt> {
    return this.limiter.begin(tenantId, email, address);
  }
}
