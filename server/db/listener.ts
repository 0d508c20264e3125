/**
 * The instance's one LISTEN connection to PostgreSQL, shared by every part that hears other instances:
 * the auth cache (server/auth/session-events.ts) and the live events (server/live/bus.ts) each add a
 * channel. LISTEN needs a session of its own, which pgbouncer in transaction mode does not keep, so the
 * URL is a direct connection (DATABASE_LISTEN_URL, else DATABASE_URL; docs/operations.md, docs/scaling.md).
 *
 * A lost connection (PostgreSQL restarted, the network dropped, the role refused) is tried again with a
 * growing delay and never ends the process. Each channel hears when listening stops (`down`: what it
 * keeps may now miss a change) and when it starts again (`up`: on a reconnect, it reads back what it
 * may have missed).
 */
import pg from 'pg';
import type { FastifyBaseLogger } from 'fastify';

const CONNECT_TIMEOUT_MS = 5_000;

export interface ListenChannel {
  /** A PostgreSQL identifier of lower-case letters and underscores (it is written into LISTEN). */
  name: string;
  heard(payload: string | undefined): void;
  /** Listening (again): `again` is false the first time. */
  up?(again: boolean): Promise<void> | void;
  /** Not listening any more, until the next `up`. */
  down?(): void;
}

/** What a part that hears needs of a listener: PostgreSQL's (below) or the embedded database's. */
export interface Listener {
  readonly listening: boolean;
  add(channel: ListenChannel): void;
}

export interface PgListenerOptions {
  url: string;
  log: Pick<FastifyBaseLogger, 'warn' | 'error'>;
  minBackoffMs?: number;
  maxBackoffMs?: number;
}

export class PgListener {
  private readonly channels: ListenChannel[] = [];
  private client: pg.Client | undefined;
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;
  private backoffMs: number;
  private readonly minBackoffMs: number;
  private readonly maxBackoffMs: number;
  /** Times the connection was made: tests wait for it to come back. */
  connects = 0;

  constructor(private readonly options: PgListenerOptions) {
    this.minBackoffMs = options.minBackoffMs ?? 250;
    this.maxBackoffMs = options.maxBackoffMs ?? 10_000;
    this.backoffMs = this.minBackoffMs;
  }

  get listening(): boolean {
    return this.client !== undefined;
  }

  /** Before `start`: the channels are listened to on every connection. */
  add(channel: ListenChannel): void {
    if (!/^[a-z_]+$/.test(channel.name)) throw new Error(`not a channel name: ${channel.name}`);
    this.channels.push(channel);
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
      this.options.log.error({ err: error }, 'listener: cannot listen');
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
      const wasListening = this.client === client;
      if (wasListening) this.client = undefined;
      client.end().catch(() => undefined);
      if (wasListening) for (const channel of this.channels) channel.down?.();
      if (this.stopped) return;
      this.options.log.warn({ err: error }, 'listener: connection lost, retrying');
      this.retry();
    };
    // Without an 'error' listener a restart of PostgreSQL would be an unhandled event ending the process.
    client.on('error', onLost);
    client.on('end', () => onLost());
    client.on('notification', (message) => {
      const channel = this.channels.find((c) => c.name === message.channel);
      try {
        channel?.heard(message.payload);
      } catch (error) {
        this.options.log.error({ err: error }, `listener: ${message.channel} failed to take a notification`);
      }
    });
    try {
      await client.connect();
      await client.query(this.channels.map((c) => `listen ${c.name};`).join(' '));
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
    const again = this.connects > 0;
    this.connects++;
    await Promise.all(
      this.channels.map(async (channel) => {
        try {
          await channel.up?.(again);
        } catch (error) {
          this.options.log.error({ err: error }, `listener: ${channel.name} failed to start listening`);
        }
      }),
    );
  }

  private retry(): void {
    clearTimeout(this.timer);
    const delay = this.backoffMs;
    this.backoffMs = Math.min(this.maxBackoffMs, this.backoffMs * 2);
    this.timer = setTimeout(() => void this.attempt(), delay);
    this.timer.unref();
  }
}
