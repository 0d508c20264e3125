/**
 * Hears the live events of every instance and hands them to this instance's streams.
 *
 * PostgreSQL: a channel on the instance's LISTEN connection (server/db/listener.ts); once that is back
 * after a loss (PostgreSQL restarted), the events written while deaf are read from live_events (after
 * the last one heard), so no stream misses them.
 * PGlite: its own in-process LISTEN on the one embedded database.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/database.ts';
import { embeddedDatabase } from '../db/database.ts';
import type { ListenChannel, PgListener } from '../db/listener.ts';
import { eventOfRow, LIVE_CHANNEL, parseEvent, type LiveEvent } from './events.ts';

/** At most this many missed events are read back after a reconnect. */
const CATCH_UP_LIMIT = 5_000;

export interface LiveBusOptions {
  db: Db;
  /** PostgreSQL: the instance's LISTEN connection; absent: the embedded database's own LISTEN. */
  listener?: PgListener;
  log: Pick<FastifyBaseLogger, 'warn' | 'error'>;
}

export class LiveBus implements ListenChannel {
  readonly name = LIVE_CHANNEL;
  private readonly listeners = new Set<(event: LiveEvent) => void>();
  private unlisten: (() => Promise<void>) | undefined;
  /** The newest event heard: after a reconnect, what came later is read back. */
  private lastId = 0;

  constructor(private readonly options: LiveBusOptions) {
    options.listener?.add(this);
  }

  get listening(): boolean {
    return this.options.listener?.listening ?? this.unlisten !== undefined;
  }

  /** `listener` hears every event of every tenant; returns its removal. */
  subscribe(listener: (event: LiveEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** The embedded database's LISTEN; on PostgreSQL the instance's listener starts the channel. */
  async start(): Promise<void> {
    const embedded = embeddedDatabase(this.options.db);
    if (!this.options.listener && embedded) {
      this.unlisten = await embedded.listen(LIVE_CHANNEL, (payload) => this.heard(payload));
    }
  }

  async stop(): Promise<void> {
    const unlisten = this.unlisten;
    this.unlisten = undefined;
    await unlisten?.().catch(() => undefined);
    this.listeners.clear();
  }

  heard(payload: string | undefined): void {
    const event = parseEvent(payload);
    if (event) this.deliver(event);
  }

  /** Listening: the first time, from the newest event on; again, after what was missed meanwhile. */
  async up(again: boolean): Promise<void> {
    if (again) await this.catchUp();
    else await this.markNewest();
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
}
