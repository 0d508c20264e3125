/**
 * Failed-login and reset-request limits: the rules' numbers, what a limiter answers, and the 429 texts.
 * The one limiter that applies them is shared-attempts.ts, a sliding window counted in the database so
 * every instance on it shares the counts (an in-memory copy of the same window logic was removed on
 * 2026-11-24: it served only tests, which now run against the real one).
 */

/** Milliseconds since the epoch; injectable so tests can move time without waiting. */
export type Clock = () => number;

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
  /**
   * Logins only: failures a tenant takes in a minute, from anywhere, before further attempts from
   * unknown devices are refused until one leaves the minute (LOGIN_FAILURES_PER_MINUTE); 0 or unset: none.
   */
  perTenantPerMinute?: number;
  /** Logins only: failures a known device (known-devices.ts) may make before it is locked out for the window. */
  perDevice?: number;
}

export const LOGIN_WINDOW_MS = 15 * 60_000;
export const FIRST_DELAY_MS = 1_000;
export const MAX_DELAY_MS = 30_000;
/** The window of the tenant's budget of failed logins. */
export const BUDGET_WINDOW_MS = 60_000;

export type Attempt =
  | { allowed: false; retryAfterMs: number }
  | { allowed: true; succeeded(): void | Promise<void>; abandoned(): void | Promise<void> };

/** What the login route needs (shared-attempts.ts `SharedLoginRateLimiter`; tests may hand in their own). */
export interface LoginLimiter {
  /** `device`: the nonce of a known device's valid cookie (known-devices.ts), when the login carries one. */
  begin(tenantId: number, email: string, address: string, device?: string): Attempt | Promise<Attempt>;
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
