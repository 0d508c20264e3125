/**
 * Hears the live events of every instance and hands them to this instance's streams.
 *
 * PostgreSQL: a client of its own LISTENs on DATABASE_LISTEN_URL (else DATABASE_URL): LISTEN needs a
 * session, which pgbouncer in transaction mode does not keep, so behind such a pooler the listen URL
 * must be a direct connection (README, docs/scaling.md). A lost connection (PostgreSQL restarted) is
 * tried again with a growing delay and never ends the process; once back, the events written while
 * deaf are read from live_events (after the last one heard), so no stream misses them.
 * PGlite: its own in-process LISTEN on the one embedded database.
 */
import pg from 'pg';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/database.ts';
import { embeddedDatabase } from '../db/database.ts';
import { eventOfRow, LIVE_CHANNEL, parseEvent, type LiveEvent } from './events.ts';

const CONNECT_TIMEOUT_MS = 5_000;
/** At most this many missed events are read back after a reconnect. */
const CATCH_UP_LIMIT = 5_000;

export interface LiveBusOptions {
  db: Db;
  /** PostgreSQL: a direct connection for LISTEN; absent: the embedded database's own LISTEN. */
  listenUrl?: string;
  log: Pick<FastifyBaseLogger, 'warn' | 'error'>;
  minBackoffMs?: number;
  maxBackoffMs?: number;
}

export class LiveBus {
  private readonly listeners = new Set<(event: LiveEvent) => void>();
  private client: pg.Client | undefined;
  private unlisten: (() => Promise<void>) | undefined;
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;
  private backoffMs: number;
  private readonly minBackoffMs: number;
  private readonly maxBackoffMs: number;
  /** The newest event heard: after a reconnect, what came later is read back. */
  private lastId = 0;
  /** Times the listener (re)connected: tests wait for it to come back. */
  connects = 0;

  constructor(private readonly options: LiveBusOptions) {
    this.minBackoffMs = options.minBackoffMs ?? 250;
    this.maxBackoffMs = options.maxBackoffMs ?? 10_000;
    this.backoffMs = this.minBackoffMs;
  }

  get listening(): boolean {
    return this.client !== undefined || this.unlisten !== undefined;
  }

  /** `listener` hears every event of every tenant; returns its removal. */
  subscribe(listener: (event: LiveEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async start(): Promise<void> {
    const embedded = embeddedDatabase(this.options.db);
    if (!this.options.listenUrl && embedded) {
      this.unlisten = await embedded.listen(LIVE_CHANNEL, (payload) => this.heard(payload));
      this.connects++;
      return;
    }
    if (this.options.listenUrl) await this.attempt();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => undefined);
    const unlisten = this.unlisten;
    this.unlisten = undefined;
    await unlisten?.().catch(() => undefined);
    this.listeners.clear();
  }

  private heard(payload: string | undefined): void {
    const event = parseEvent(payload);
    if (event) this.deliver(event);
  }

  private deliver(event: LiveEvent): void {
    this.lastId = Math.max(this.lastId, event.id);
    for (const listener of this.listeners) {
      try {
        listener(event);
      } catch (error) {
        this.options.log.error({ err: error }, 'live events: a stream failed to take an event');
      }
    }
  }

  /** `connect`, whose every failure is handled: nothing here may reject. */
  private async attempt(): Promise<void> {
    try {
      await this.connect();
    } catch (error) {
      this.options.log.error({ err: error }, 'live events: cannot listen');
      if (!this.stopped) this.retry();
    }
  }

  private async connect(): Promise<void> {
    if (this.stopped) return;
    const client = new pg.Client({
      connectionString: this.options.listenUrl,
      connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
      keepAlive: true,
    });
    let lost = false;
    const onLost = (error?: Error) => {
      if (lost) return;
      lost = true;
      if (this.client === client) this.client = undefined;
      client.end().catch(() => undefined);
      if (this.stopped) return;
      this.options.log.warn({ err: error }, 'live events: connection lost, retrying');
      this.retry();
    };
    // Without an 'error' listener a restart of PostgreSQL would be an unhandled event ending the process.
    client.on('error', onLost);
    client.on('end', () => onLost());
    client.on('notification', (message) => this.heard(message.payload));
    try {
      await client.connect();
      await client.query(`listen ${LIVE_CHANNEL}`);
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
    if (this.connects > 1) await this.catchUp();
    else await this.markNewest();
  }

  /** Listening from now on: what came before is not ours to deliver (streams replay their own). */
  private async markNewest(): Promise<void> {
    try {
      const row = await this.options.db
        .selectFrom('live_events')
        .select((eb) => eb.fn.max('id').as('id'))
        .executeTakeFirst();
      this.lastId = Math.max(this.lastId, Number(row?.id ?? 0));
    } catch (error) {
      this.options.log.warn({ err: error }, 'live events: cannot read the newest event');
    }
  }

  /** The events written while this instance was not listening. */
  private async catchUp(): Promise<void> {
    try {
      const rows = await this.options.db
        .selectFrom('live_events')
        .selectAll()
        .where('id', '>', this.lastId)
        .orderBy('id')
        .limit(CATCH_UP_LIMIT)
        .execute();
      for (const row of rows) this.deliver(eventOfRow(row));
    } catch (error) {
      this.options.log.warn({ err: error }, 'live events: cannot read the events missed');
    }
  }

  private retry(): void {
    clearTimeout(this.timer);
    const delay = this.backoffMs;
    this.backoffMs = Math.min(this.maxBackoffMs, this.backoffMs * 2);
    this.timer = setTimeout(() => void this.attempt(), delay);
    this.timer.unref();
  }
}
