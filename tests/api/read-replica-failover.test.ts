/**
 * The optional read replica (DATABASE_READ_URL) on a real hot standby (read-replica-world.ts), when it
 * falls behind or away: past REPLICA_MAX_LAG_MS, stopped or frozen, reads go to the primary and ready
 * stays 200 (its log line and gauges say so), and they come back once it serves again.
 */
import type pg from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { hasPostgresPrograms, waitFor, type Cluster, type ServerProcess } from './processes.ts';
import { MAX_LAG_MS, replicaWorld, type Caller } from './read-replica-world.ts';

describe.skipIf(!hasPostgresPrograms('initdb', 'pg_ctl', 'pg_basebackup'))(
  'read replica: reads leave a lagging or lost standby (own clusters)',
  () => {
    const world = replicaWorld();
    const { writeOnPrimary, oneRowBehind, ready, logged, readsCounted, replicaGauges } = world;
    let standby: Cluster;
    let servers: ServerProcess[] = [];
    let onStandby: pg.Pool;
    let operator: Caller;
    beforeAll(async () => {
      ({ standby, servers, onStandby, operator } = await world.open());
    }, 120_000);
    beforeEach(world.showOutputOnFailure);
    afterAll(world.close);

    it('sends reads to the primary once the standby lags past REPLICA_MAX_LAG_MS, and back when it catches up', async () => {
      // Before `seen` is written: its commit, from which the lag counts, is later.
      const start = Date.now();
      const { seen, unseen } = await oneRowBehind();
      expect((await operator.companies()).names).not.toContain(unseen.name);
      // Lag counts from `seen`'s commit; past the bound the primary answers, with `unseen`.
      await waitFor(
        'reads leaving the lagging standby',
        async () => (await operator.companies()).names.includes(unseen.name),
        MAX_LAG_MS + 5_000,
        200,
      );
      expect(Date.now() - start).toBeGreaterThanOrEqual(MAX_LAG_MS - 50);
      expect(await operator.status(`/api/companies/${seen.id}`)).toBe(200);
      const lagging = await ready();
      expect(lagging.status).toBe(200);
      expect(lagging.body).toMatchObject({ status: 'ready', replica: 'lagging' });
      await logged('read replica lagging behind the primary');
      expect((await readsCounted()).get('primary:lagging')).toBeGreaterThan(0);
      const gauges = await replicaGauges();
      expect(gauges.usable).toBe(0);
      expect(gauges.lag).toBeGreaterThan(MAX_LAG_MS / 1000);

      // Replaying again: back on the standby (a row it has not replayed is again not found).
      await onStandby.query('select pg_wal_replay_resume()');
      await waitFor(
        'the standby usable again',
        async () => (await ready()).body.replica === 'ok',
        10_000,
        100,
      );
      const caughtUp = await replicaGauges();
      expect(caughtUp.usable).toBe(1);
      expect(caughtUp.lag).toBeLessThanOrEqual(MAX_LAG_MS / 1000);
      const next = await oneRowBehind();
      expect((await operator.companies()).names).not.toContain(next.unseen.name);
    });

    it('answers reads from the primary while the standby is stopped; ready stays 200', async () => {
      await onStandby.query('select pg_wal_replay_resume()');
      standby.stop();
      const later = await writeOnPrimary();
      for (let i = 0; i < 5; i++) {
        expect((await operator.companies()).names).toContain(later.name);
        expect(await operator.status(`/api/companies/${later.id}`)).toBe(200);
      }
      const down = await ready();
      expect(down.status).toBe(200);
      expect(down.body).toMatchObject({ status: 'ready', database: 'ok', replica: 'unreachable' });
      await logged('read replica unreachable: reads go to the primary');
      const gauges = await replicaGauges();
      expect(gauges.usable).toBe(0);
      expect(gauges.lag).toBeNaN();
      const counts = await readsCounted();
      expect(
        (counts.get('primary:unreachable') ?? 0) + (counts.get('primary:replica_failed') ?? 0),
      ).toBeGreaterThan(0);
      for (const server of servers) expect(server.hasExited()).toBe(false);

      // Started again, it serves reads again within a few seconds.
      standby.start();
      await waitFor(
        'the standby usable again',
        async () => (await ready()).body.replica === 'ok',
        15_000,
        200,
      );
      const { unseen } = await oneRowBehind();
      expect((await operator.companies()).names).not.toContain(unseen.name);
      await onStandby.query('select pg_wal_replay_resume()');
    });

    it('answers reads from the primary within about a second when the standby stops answering (frozen)', async () => {
      await waitFor('the standby usable', async () => (await ready()).body.replica === 'ok', 10_000, 100);
      standby.freeze();
      try {
        // Past the 25 ms a measurement is used: the next read measures, gets no answer in 1 s, and
        // goes to the primary, as every read after it does while the standby stays silent.
        await new Promise((resolve) => setTimeout(resolve, 100));
        const later = await writeOnPrimary();
        const started = Date.now();
        expect((await operator.companies()).names).toContain(later.name);
        expect(Date.now() - started).toBeLessThan(3_000);
        for (let i = 0; i < 3; i++) {
          const t = Date.now();
          expect(await operator.status(`/api/companies/${later.id}`)).toBe(200);
          expect(Date.now() - t).toBeLessThan(1_000);
        }
        expect((await ready()).body).toMatchObject({ status: 'ready', replica: 'unreachable' });
      } finally {
        standby.thaw();
      }
      await waitFor(
        'the standby usable again',
        async () => (await ready()).body.replica === 'ok',
        15_000,
        200,
      );
    });
  },
);
