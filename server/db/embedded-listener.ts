/**
 * LISTEN on the embedded PGlite database, for the one process that uses it (a laptop): the same
 * notifications the PostgreSQL listener hears (server/db/listener.ts), from the same triggers, so what
 * those triggers announce reaches this process's caches at once there too. The auth cache forgets a user
 * whose account, sessions, tokens or company roles changed (server/auth/session-events.ts) instead of
 * keeping the old context for its TTL. The live events stay in process on PGlite (server/live/bus.ts).
 */
import type { PGlite } from '@electric-sql/pglite';
import type { ListenChannel } from './listener.ts';

export class EmbeddedListener {
  private readonly channels: ListenChannel[] = [];
  private readonly unsubscribes: (() => Promise<void>)[] = [];
  private started = false;

  constructor(private readonly pglite: PGlite) {}

  get listening(): boolean {
    return this.started;
  }

  add(channel: ListenChannel): void {
    this.channels.push(channel);
  }

  async start(): Promise<void> {
    for (const channel of this.channels) {
      this.unsubscribes.push(await this.pglite.listen(channel.name, (payload) => channel.heard(payload)));
    }
    this.started = true;
    for (const channel of this.channels) await channel.up?.(false);
  }

  async stop(): Promise<void> {
    this.started = false;
    for (const channel of this.channels) channel.down?.();
    // The database may already be closing; a channel left subscribed goes with it.
    await Promise.allSettled(this.unsubscribes.splice(0).map((unsubscribe) => unsubscribe()));
  }
}
