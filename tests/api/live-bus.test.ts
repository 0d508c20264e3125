/**
 * The live events (server/live/bus.ts) on the instance's LISTEN connection (server/db/listener.ts) to a
 * PostgreSQL cluster of its own: it hears events committed on other connections, reads back the ones
 * committed while it could not listen, comes back by itself after PostgreSQL restarts, and never takes
 * the process down. The same one connection carries the auth changes (server/auth/session-events.ts).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prepareDatabase } from '../../server/boot.ts';
import { openDatabase, type DatabaseConnection } from '../../server/db/database.ts';
import { fileStoreFor } from '../../server/files/store.ts';
import { LiveBus } from '../../server/live/bus.ts';
import { PgListener } from '../../server/db/listener.ts';
import { AuthContextCache } from '../../server/auth/context-cache.ts';
import type { AuthContext } from '../../server/auth/context.ts';
import { AUTH_CHANGES_CHANNEL, SessionEvents } from '../../server/auth/session-events.ts';
import { recordEvent, type LiveEvent } from '../../server/live/events.ts';
import { registry } from '../../server/schema/registry.ts';
import { startCluster, waitFor, type Cluster } from './processes.ts';

describe('live events across a lost listener and a PostgreSQL restart (own cluster)', () => {
  let cluster: Cluster;
  let database: DatabaseConnection;
  let listener: PgListener;
  let bus: LiveBus;
  const cache = new AuthContextCache();
  let tenantId: number;
  const dataDir = mkdtempSync(join(tmpdir(), 'sd-live-bus-'));
  const heard: LiveEvent[] = [];
  const warnings: unknown[] = [];
  const note = (...args: unknown[]) => warnings.push(args);
  let record = 0;

  /** A ticket event committed by the app's pool (another connection than the listener's). */
  async function commitEvent(): Promise<number> {
    const recordId = ++record;
    await database.db
      .transaction()
      .execute((trx) => recordEvent(trx, { tenantId, kind: 'ticket.changed', recordId }));
    return recordId;
  }
  const wasHeard = (recordId: number) => heard.some((e) => e.recordId === recordId);

  beforeAll(async () => {
    cluster = await startCluster();
    database = await openDatabase({ url: cluster.url, poolSize: 2 });
    await prepareDatabase(database.db, registry(), 'none', undefined, fileStoreFor({ dataDir }, database.db));
    tenantId = (
      await database.db
        .insertInto('tenants')
        .values({ slug: 'live', name: 'Live' })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
    // The listener signs in as a role of its own, so the test can keep it out while the app writes on.
    await sql`create role listener login`.execute(database.db);
    const listenUrl = new URL(cluster.url);
    listenUrl.username = 'listener';
    const log = { warn: note, error: note };
    listener = new PgListener({ url: listenUrl.toString(), log, minBackoffMs: 50, maxBackoffMs: 300 });
    bus = new LiveBus({ db: database.db, listener, log });
    new SessionEvents(listener, cache);
    bus.subscribe((event) => heard.push(event));
    await bus.start();
    await listener.start();
  }, 180_000);

  afterAll(async () => {
    await listener?.stop();
    await bus?.stop();
    await database?.close();
    cluster?.start();
    cluster?.destroy();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('hears an event another connection commits', async () => {
    expect(bus.listening).toBe(true);
    const id = await commitEvent();
    await waitFor('the event heard', () => wasHeard(id), 10_000);
  });

  it('hears the auth changes on the same one connection', async () => {
    const listening = await sql<{ n: number }>`
      select count(*)::int as n from pg_stat_activity where usename = 'listener'`.execute(database.db);
    expect(listening.rows[0]!.n).toBe(1);
    const context = { userId: 7 } as unknown as AuthContext;
    cache.set(1, 7, 's', context, cache.generation(1, 7));
    expect(cache.get(1, 7, 's')).toBe(context);
    await sql`select pg_notify(${AUTH_CHANGES_CHANNEL}, '1:7')`.execute(database.db);
    await waitFor('the cached context forgotten', () => cache.get(1, 7, 's') === undefined, 10_000);
    const id = await commitEvent();
    await waitFor('the event heard', () => wasHeard(id), 10_000);
  });

  it('reads back what was committed while it could not listen', async () => {
    const before = warnings.length;
    await sql`alter role listener nologin`.execute(database.db);
    await sql`select pg_terminate_backend(pid) from pg_stat_activity where usename = 'listener'`.execute(
      database.db,
    );
    await waitFor('the listener to notice', () => !bus.listening, 10_000);
    const missed = await commitEvent();
    // Refused at every try while the role may not log in: the notification went to nobody.
    await waitFor('a refused reconnection', () => warnings.length >= before + 2, 10_000);
    expect(bus.listening).toBe(false);
    expect(wasHeard(missed)).toBe(false);

    const connects = listener.connects;
    await sql`alter role listener login`.execute(database.db);
    await waitFor('the listener back', () => listener.connects > connects, 20_000);
    await waitFor('the missed event read back', () => wasHeard(missed), 10_000);
    expect(heard.filter((e) => e.recordId === missed)).toHaveLength(1);
  }, 60_000);

  it('comes back by itself after PostgreSQL restarts, and hears what comes next', async () => {
    const connects = listener.connects;
    cluster.stop();
    await waitFor('the listener to notice', () => !bus.listening, 10_000);
    cluster.start();
    await waitFor('the listener back', () => listener.connects > connects, 30_000);
    const id = await commitEvent();
    await waitFor('the event heard', () => wasHeard(id), 10_000);
  }, 60_000);
});
