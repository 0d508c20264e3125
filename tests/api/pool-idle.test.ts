/**
 * Issue 40, item 3: the PostgreSQL pool keeps its connections through a pause of a steady load (pg's
 * own default closed them after 10 s, and each new one set up and planned anew), as long as
 * DATABASE_IDLE_TIMEOUT_MS says, and never closes the DATABASE_POOL_MIN it keeps warm. The settings
 * are read and checked at start. (A restarted database: tests/api/db-outage.test.ts.)
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { configFromEnv } from '../../server/config.ts';
import { openDatabase, poolStats, type DatabaseConnection } from '../../server/db/database.ts';
import { IDLE_TIMEOUT_MS, POOL_MIN } from '../../server/db/pool-settings.ts';

const url = process.env.TEST_DATABASE_URL;

describe('the pool settings', () => {
  it('default to five minutes and two, and take what the environment says', () => {
    expect(IDLE_TIMEOUT_MS).toBe(300_000);
    expect(POOL_MIN).toBe(2);
    expect(configFromEnv({})).toMatchObject({ databaseIdleTimeoutMs: 300_000, databasePoolMin: 2 });
    expect(configFromEnv({ DATABASE_IDLE_TIMEOUT_MS: '0', DATABASE_POOL_MIN: '0' })).toMatchObject({
      databaseIdleTimeoutMs: 0,
      databasePoolMin: 0,
    });
    expect(() => configFromEnv({ DATABASE_IDLE_TIMEOUT_MS: '5s' })).toThrow(/DATABASE_IDLE_TIMEOUT_MS/);
    expect(() => configFromEnv({ DATABASE_POOL_MIN: '-1' })).toThrow(/DATABASE_POOL_MIN/);
  });
});

describe.skipIf(!url)('a PostgreSQL pool after a burst of calls', () => {
  let database: DatabaseConnection | undefined;
  afterEach(() => database?.close());

  /** Four statements at once: the pool opens four connections. */
  const burst = async (db: DatabaseConnection['db']) => {
    await Promise.all([1, 2, 3, 4].map(() => sql`select pg_sleep(0.05)`.execute(db)));
    expect(poolStats(db)).toMatchObject({ total: 4, idle: 4 });
  };

  // Longer than pg's own 10 s, which closed them all.
  it(
    'keeps them open through a pause of more than ten seconds, by default',
    { timeout: 20_000 },
    async () => {
      database = await openDatabase({ url, poolSize: 4 });
      await burst(database.db);
      await sleep(10_500);
      expect(poolStats(database.db)).toMatchObject({ total: 4, idle: 4 });
    },
  );

  it('closes the idle ones past its timeout, down to the minimum it keeps', async () => {
    database = await openDatabase({ url, poolSize: 4, idleTimeoutMs: 200, minConnections: 1 });
    await burst(database.db);
    await expect.poll(() => poolStats(database!.db)?.total, { timeout: 3_000 }).toBe(1);
    await sleep(600);
    expect(poolStats(database.db)).toMatchObject({ total: 1, idle: 1 });
    // The one kept answers the next call.
    expect((await sql<{ one: number }>`select 1 as one`.execute(database.db)).rows).toEqual([{ one: 1 }]);
  });

  it('with no minimum, closes every idle one', async () => {
    database = await openDatabase({ url, poolSize: 4, idleTimeoutMs: 200, minConnections: 0 });
    await burst(database.db);
    await expect.poll(() => poolStats(database!.db)?.total, { timeout: 3_000 }).toBe(0);
  });
});
