/**
 * The optional read replica (DATABASE_READ_URL) on a real hot standby (read-replica-world.ts), where
 * reads go: a list, its total, a record and preset counts to the standby; a caller's reads after their
 * own write to the primary; a portal client's scope kept; a read stopped at STATEMENT_TIMEOUT_MS. Which
 * database answered is told by what it can see: with the standby's replay paused, a row written on the
 * primary after the pause is visible only on the primary.
 */
import type pg from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { hasPostgresPrograms, waitFor, type ServerProcess } from './processes.ts';
import { Caller, PREFIX, STATEMENT_TIMEOUT_MS, replicaWorld } from './read-replica-world.ts';

describe.skipIf(!hasPostgresPrograms('initdb', 'pg_ctl', 'pg_basebackup'))(
  'read replica: list and detail reads on a hot standby (own clusters)',
  () => {
    const world = replicaWorld();
    const { oneRowBehind, readsCounted } = world;
    let servers: ServerProcess[] = [];
    let onPrimary: pg.Pool;
    let onStandby: pg.Pool;
    let admin: Caller;
    let operator: Caller;
    beforeAll(async () => {
      ({ servers, onPrimary, onStandby, admin, operator } = await world.open());
    }, 120_000);
    beforeEach(world.showOutputOnFailure);
    afterAll(world.close);

    it('sends a list, its total, a record and preset counts of a caller without a recent write to the standby', async () => {
      const before = await readsCounted();
      const { seen, unseen } = await oneRowBehind();
      const list = await operator.companies();
      expect(list.names).toContain(seen.name);
      expect(list.names).not.toContain(unseen.name);
      expect(list.total).toBe(list.names.length);
      expect(await operator.status(`/api/companies/${seen.id}`)).toBe(200);
      expect(await operator.status(`/api/companies/${unseen.id}`)).toBe(404);
      const presets = await operator.send(
        'GET',
        `/api/presets-result-count/companies?builders[0][id]=1&builders[0][builder][0][where][0]=name&builders[0][builder][0][where][1]=like&builders[0][builder][0][where][2]=${encodeURIComponent(PREFIX)}`,
      );
      expect(presets.status).toBe(200);
      expect(await presets.json()).toEqual([{ id: 1, count: list.total }]);
      // The primary has both: the standby answered all four reads.
      const onPrimaryCount = await onPrimary.query(
        `select count(*)::int as n from companies where name like $1`,
        [`${PREFIX}%`],
      );
      expect(onPrimaryCount.rows[0].n).toBe(list.total + 1);
      const after = await readsCounted();
      expect((after.get('replica:ok') ?? 0) - (before.get('replica:ok') ?? 0)).toBe(4);
    });

    it("sends a caller's reads after their own write to the primary, on either instance, and no one else's", async () => {
      const { unseen } = await oneRowBehind();
      const res = await admin.send('POST', '/api/companies', { name: `${PREFIX} own write` });
      expect(res.status).toBe(201);
      const own = (await res.json()) as { id: number; name: string };
      // The position as a WAL location; the cookie library writes its slash as %2F.
      expect(decodeURIComponent(admin.cookies.get('read_after')!)).toMatch(/^[0-9A-F]+\/[0-9A-F]+$/);
      const cookie = res.headers.getSetCookie().find((line) => line.startsWith('read_after='))!;
      expect(cookie).toMatch(/HttpOnly/i);
      expect(cookie).toMatch(/SameSite=Strict/i);
      expect(cookie).toMatch(/Path=\/api(;|$)/);
      expect(cookie).toMatch(/Max-Age=60/);

      // The writer sees their write, through the list and by id, on this instance and the other.
      for (const server of servers) {
        const list = await admin.companies(server.base);
        expect(list.names).toEqual(expect.arrayContaining([own.name, unseen.name]));
      }
      expect(await admin.status(`/api/companies/${own.id}`)).toBe(200);
      // Another caller, with no write of their own, still reads from the standby.
      expect((await operator.companies()).names).not.toContain(own.name);
      expect(await operator.status(`/api/companies/${own.id}`)).toBe(404);
      // The cookie is what sends the writer to the primary: without it, the standby answers.
      const position = admin.cookies.get('read_after')!;
      admin.cookies.delete('read_after');
      expect((await admin.companies()).names).not.toContain(own.name);
      // A forged position only ever sends reads to the primary.
      admin.cookies.set('read_after', 'not-a-position');
      expect((await admin.companies()).names).toContain(own.name);
      admin.cookies.set('read_after', position);
    });

    it("keeps a portal client's scope on the standby", async () => {
      await onStandby.query('select pg_wal_replay_resume()');
      const client = new Caller(servers[0]!.base);
      await client.login('client@example.com');
      // The login's answer sets both: the position beside, never instead of, the refresh cookie (and the
      // device cookie every login gets: server/auth/known-devices.ts).
      expect([...client.cookies.keys()].sort()).toEqual(['known_device', 'read_after', 'refresh_token']);
      const { rows } = await onPrimary.query<{ name: string }>(
        `select c.name from companies c
         join company_user cu on cu.company_id = c.id
         join users u on u.id = cu.user_id
         where u.email = 'client@example.com' order by c.name`,
      );
      expect(rows.length).toBeGreaterThan(0);
      const before = (await readsCounted()).get('replica:ok') ?? 0;
      // Once the standby has replayed the client's login (its position), the list is read there; every
      // answer, from either database, holds the client's companies and no other.
      await waitFor(
        "the client's list read on the standby",
        async () => {
          const res = await client.send('GET', '/api/companies');
          expect(res.status).toBe(200);
          const names = ((await res.json()) as { data: { name: string }[] }).data.map((c) => c.name);
          expect(names.sort()).toEqual(rows.map((r) => r.name));
          return ((await readsCounted()).get('replica:ok') ?? 0) > before;
        },
        5_000,
        50,
      );
    });

    it('stops a read on the standby at STATEMENT_TIMEOUT_MS with 503, as on the primary', async () => {
      await onStandby.query('select pg_wal_replay_resume()');
      const locker = await onPrimary.connect();
      try {
        await locker.query('begin');
        await locker.query('lock table companies in access exclusive mode');
        // The lock's WAL record goes out once flushed: another transaction's commit flushes it.
        await onPrimary.query('select pg_current_xact_id()');
        // The lock is replayed on the standby, whose readers of companies then wait for it.
        await waitFor(
          'the lock replayed on the standby',
          async () =>
            (
              await onStandby.query(
                `select 1 from pg_locks where mode = 'AccessExclusiveLock' and relation = 'companies'::regclass`,
              )
            ).rowCount === 1,
          10_000,
          20,
        );
        const started = Date.now();
        const answer = operator.send('GET', '/api/companies');
        await waitFor(
          'the read waiting on the standby',
          async () =>
            (
              await onStandby.query(
                `select 1 from pg_stat_activity
                 where pid <> pg_backend_pid() and wait_event_type = 'Lock' and query like '%companies%'`,
              )
            ).rowCount! > 0,
          STATEMENT_TIMEOUT_MS,
          20,
        );
        const res = await answer;
        expect(res.status).toBe(503);
        expect(res.headers.get('retry-after')).toBe('5');
        expect(((await res.json()) as { message: string }).message).toMatch(/took too long and was stopped/);
        expect(Date.now() - started).toBeGreaterThanOrEqual(STATEMENT_TIMEOUT_MS - 100);
      } finally {
        await locker.query('rollback');
        locker.release();
        // An abort is not flushed at once: a commit after it sends it, and the standby's lock goes.
        await onPrimary.query('select pg_current_xact_id()');
      }
      // The standby serves on.
      expect(await operator.status('/api/companies')).toBe(200);
    });
  },
);
