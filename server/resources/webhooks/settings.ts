/**
 * The installation's webhook settings (environment, read at start with the rest of config.ts). A leaf
 * module: config.ts imports it.
 */
export interface WebhookSettings {
  /**
   * Targets in private, loopback, link-local, multicast or unspecified ranges, and plain http, are
   * allowed (WEBHOOKS_ALLOW_PRIVATE=true): for an installation whose receivers sit on its own network,
   * and for the tests' receiver on loopback. Off by default: a tenant's admin must not be able to make the
   * server call into the network it runs in.
   */
  allowPrivate: boolean;
  /** Ms between looks for due deliveries queued by other instances (WEBHOOK_POLL_MS, 5000). */
  pollMs: number;
  /** Ms one delivery may take, connecting and answering (WEBHOOK_TIMEOUT_MS, 10000). */
  timeoutMs: number;
  /** How long a claimed delivery is this instance's before another may take it (WEBHOOK_LEASE_MS, 60000). */
  leaseMs: number;
  /** The delay after the first failed attempt; ×4 after each next one (WEBHOOK_RETRY_BASE_MS, 30000). */
  retryBaseMs: number;
  /** The longest delay between attempts (WEBHOOK_RETRY_MAX_MS, 1 h). */
  retryMaxMs: number;
  /** Attempts at one delivery before it is given up (WEBHOOK_MAX_ATTEMPTS, 8). */
  maxAttempts: number;
  /** Consecutive failed attempts of a webhook before it is disabled (WEBHOOK_MAX_FAILURES, 10). */
  maxFailures: number;
  /** Days a delivered or given-up delivery stays in the log (WEBHOOK_KEEP_DAYS, 30). */
  keepDays: number;
}

function whole(env: NodeJS.ProcessEnv, name: string, fallback: number, min = 1): number {
  const value = env[name];
  if (value === undefined || value === '') return fallback;
  if (!/^\d{1,9}$/.test(value) || Number(value) < min)
    throw new Error(`${name} must be a whole number of at least ${min}, not ${value}`);
  return Number(value);
}

export function webhookSettings(env: NodeJS.ProcessEnv): WebhookSettings {
  const allow = env.WEBHOOKS_ALLOW_PRIVATE?.trim() ?? '';
  if (allow !== '' && allow !== 'true' && allow !== 'false')
    throw new Error(`WEBHOOKS_ALLOW_PRIVATE must be true or false, not ${allow}`);
  return {
    allowPrivate: allow === 'true',
    pollMs: whole(env, 'WEBHOOK_POLL_MS', 5000),
    timeoutMs: whole(env, 'WEBHOOK_TIMEOUT_MS', 10_000),
    leaseMs: whole(env, 'WEBHOOK_LEASE_MS', 60_000),
    retryBaseMs: whole(env, 'WEBHOOK_RETRY_BASE_MS', 30_000),
    retryMaxMs: whole(env, 'WEBHOOK_RETRY_MAX_MS', 60 * 60_000),
    maxAttempts: whole(env, 'WEBHOOK_MAX_ATTEMPTS', 8),
    maxFailures: whole(env, 'WEBHOOK_MAX_FAILURES', 10),
    keepDays: whole(env, 'WEBHOOK_KEEP_DAYS', 30),
  };
}
