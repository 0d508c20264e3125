/**
 * The auth changes of other instances (server/auth/session-events.ts), heard on the instance's LISTEN
 * connection (server/db/listener.ts) to a PostgreSQL cluster of its own, restarted under it: it hears
 * notifications, bypasses the cache while deaf, comes back by itself and never takes the process down.
 */
import pg from 'pg';
import type { FastifyBaseLogger } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuthContextCache } from '../../server/auth/context-cache.ts';
import type { AuthContext } from '../../server/auth/context.ts';
import { AUTH_CHANGES_CHANNEL, SessionEvents } from '../../server/auth/session-events.ts';
import { PgListener } from '../../server/db/listener.ts';
import { startCluster, waitFor, type Cluster } from './processes.ts';

describe('session events across a PostgreSQL restart (own cluster)', () => {
  let cluster: Cluster;
  let listener: PgListener;
  let events: SessionEvents;
  const cache = new AuthContextCache();
  const warnings: unknown[] = [];
  const note = (...args: unknown[]) => warnings.push(args);
  const log = { warn: note, error: note } as unknown as FastifyBaseLogger;
  const context = { userId: 7 } as unknown as AuthContext;

  beforeAll(async () => {
    cluster = await startCluster();
    listener = new PgListener({ url: cluster.url, log, minBackoffMs: 50, maxBackoffMs: 500 });
    events = new SessionEvents(listener, cache);
  }, 120_000);

  afterAll(async () => {
    await listener?.stop();
    cluster?.start();
    cluster?.destroy();
  });

  async function notify(payload: string) {
    const client = new pg.Client({ connectionString: cluster.url });
    await client.connect();
    try {
      await client.query('select pg_notify($1, $2)', [AUTH_CHANGES_CHANNEL, payload]);
    } finally {
      await client.end();
    }
  }

  /** Caches user 7's context, then has another connection notify its change; true once it is gone. */
  async function heardChange(): Promise<void> {
    cache.set(1, 7, 's', context, cache.generation(1, 7));
    expect(cache.get(1, 7, 's')).toBe(context);
    await notify('1:7');
    await waitFor('the cached context forgotten', () => cache.get(1, 7, 's') === undefined, 5_000);
  }

  it('bypasses the cache until it listens, then forgets a user another connection notifies', async () => {
    cache.set(1, 7, 's', context, cache.generation(1, 7));
    expect(cache.get(1, 7, 's')).toBeUndefined();
    await listener.start();
    expect(events.listening).toBe(true);
    await heardChange();
  });

  it('while PostgreSQL is down the cache is bypassed; the listener comes back by itself', async () => {
    cache.set(1, 8, 's', context, cache.generation(1, 8));
    expect(cache.get(1, 8, 's')).toBe(context);
    cluster.stop();
    await waitFor('the listener to notice', () => !events.listening, 10_000);
    expect(cache.get(1, 8, 's')).toBeUndefined();
    cache.set(1, 8, 's', context, cache.generation(1, 8));
    expect(cache.get(1, 8, 's')).toBeUndefined();
    expect(warnings.length).toBeGreaterThan(0);

    cluster.start();
    await waitFor('the listener back', () => events.listening, 20_000);
    expect(listener.connects).toBeGreaterThanOrEqual(2);
    await heardChange();
  }, 60_000);
});
