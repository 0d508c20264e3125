import pg from 'pg';
import type { FastifyBaseLogger } from 'fastify';
import type { AuthContextCache } from './context-cache.ts';

/**
 * The channel migration 0012's triggers notify, with the payload '<tenant id>:<user id>', whenever a
 * user's sessions or account change: a refresh token revoked (logout, a new operator login, a password
 * reset, a reused token), a user row changed (session id, password, role, archived) or deleted.
 */
export const AUTH_CHANGES_CHANNEL = 'auth_user_changed';

export interface SessionEventsOptions {
  /** A direct connection: LISTEN does not work through a pooler in transaction mode (pgbouncer). */
  url: string;
  cache: AuthContextCache;
  log: FastifyBaseLogger;
  minBackoffMs?: number;
  maxBackoffMs?: number;
}

const CONNECT_TIMEOUT_MS = 5_000;

/**
 * Listens, on a client of its own, for changes other instances make, and forgets the user in this
 * instance's context cache, so a logout elsewhere refuses the token here at once, not after the TTL.
 * A lost connection (PostgreSQL restarted, the network dropped) is retried with a growing delay and
 * never ends the process; until it is back the cache is bypassed, since notifications may be missed.
 */
export class SessionEvents {
  private client: pg.Client | undefined;
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;
  private backoffMs: number;
  private readonly minBackoffMs: number;
  private readonly maxBackoffMs: number;
  /** Times the listener (re)connected: tests wait for it to come back. */
  connects = 0;

  constructor(private readonly options: SessionEventsOptions) {
    this.minBackoffMs = options.minBackoffMs ?? 250;
    this.maxBackoffMs = options.maxBackoffMs ?? 10_000;
    this.backoffMs = this.minBackoffMs;
    // Nothing heard yet: nothing may be kept until listening.
    options.cache.bypass(true);
  }

  get listening(): boolean {
    return !this.options.cache.isBypassed;
  }

  /** The first attempt; a failure is logged and retried, never thrown. */
  async start(): Promise<void> {
    await this.attempt();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => undefined);
  }

  /** `connect`, whose every failure is handled: nothing here may reject (an unhandled rejection ends the process). */
  private async attempt(): Promise<void> {
    try {
      await this.connect();
    } catch (error) {
      // Not a connection problem (a malformed URL): said once per try, tried again later all the same.
      this.options.log.error({ err: error }, 'session events: cannot listen');
      this.options.cache.bypass(true);
      if (!this.stopped) this.retry();
    }
  }

  private async connect(): Promise<void> {
    if (this.stopped) return;
    const client = new pg.Client({
      connectionString: this.options.url,
      connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
      keepAlive: true,
    });
    let lost = false;
    const onLost = (error?: Error) => {
      if (lost) return;
      lost = true;
      if (this.client === client) this.client = undefined;
      this.options.cache.bypass(true);
      client.end().catch(() => undefined);
      if (this.stopped) return;
      this.options.log.warn({ err: error }, 'session events: connection lost, retrying');
      this.retry();
    };
    // Without an 'error' listener a restart of PostgreSQL would be an unhandled event ending the process.
    client.on('error', onLost);
    client.on('end', () => onLost());
    client.on('notification', (message) => this.heard(message.payload));
    try {
      await client.connect();
      await client.query(`listen ${AUTH_CHANGES_CHANNEL}`);
    } catch (error) {
      onLost(error as Error);
      return;
    }
    if (this.stopped || lost) {
      await client.end().catch(() => undefined);
      return;
    }
    this.client = client;
    this.backoffMs = this.minBackoffMs;
    this.connects++;
    // Listening from now on; whatever changed while deaf was never cached (bypass).
    this.options.cache.bypass(false);
  }

  private retry(): void {
    clearTimeout(this.timer);
    const delay = this.backoffMs;
    this.backoffMs = Math.min(this.maxBackoffMs, this.backoffMs * 2);
    this.timer = setTimeout(() => void this.attempt(), delay);
    this.timer.unref();
  }

  private heard(payload: string | undefined): void {
    const match = /^(\d+):(\d+)$/.exec(payload ?? '');
    if (!match) return;
    this.options.cache.forgetUser(Number(match[1]), Number(match[2]));
  }
}
