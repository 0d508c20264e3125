/**
 * The optional read replica (DATABASE_READ_URL) on a real hot standby: a throwaway primary, a standby
 * made from it with pg_basebackup -R -X stream, and two server processes on both (they migrate and
 * seed on the primary). Which database answered is told by what it can see: with the standby's replay
 * paused, a row written on the primary after the pause is visible only on the primary.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  freePort,
  hasPostgresPrograms,
  startCluster,
  startServer,
  startStandby,
  waitFor,
  type Cluster,
  type ServerProcess,
} from './processes.ts';

/** What the server is started with: the standby may lag 3 s before reads leave it. */
const MAX_LAG_MS = 3_000;
const METRICS_TOKEN = 'replica-test-metrics-token';
/** STATEMENT_TIMEOUT_MS of both servers: short, so the test of it on the standby is too. */
const STATEMENT_TIMEOUT_MS = 2_000;
const PREFIX = 'Replica test';

/** A browser's part: the cookies the server sets (the refresh and the read position), and the bearer token. */
class Caller {
  cookies = new Map<string, string>();
  token = '';
  constructor(private base: string) {}

  async send(method: string, path: string, body?: unknown, base = this.base): Promise<Response> {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (this.token) headers.authorization = `Bearer ${this.token}`;
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (this.cookies.size) headers.cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const res = await fetch(`${base}${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const [name, value] = pair!.split('=') as [string, string];
      if (/max-age=0/i.test(line) || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return res;
  }

  async login(email: string): Promise<void> {
    const res = await this.send('POST', '/api/auth/login', { username: email, password: 'demo' });
    expect(res.status).toBe(200);
    this.token = ((await res.json()) as { access_token: string }).access_token;
  }

  /** The names of the test's companies in the list, and its total, as this caller reads them. */
  async companies(base = this.base): Promise<{ names: string[]; total: number }> {
    const query = `builder[0][where][0]=name&builder[0][where][1]=like&builder[0][where][2]=${encodeURIComponent(PREFIX)}&builder[1][paginate]=100`;
    const res = await this.send('GET', `/api/companies?${query}`, undefined, base);
    expect(res.status).toBe(200);
    const page = (await res.json()) as { data: { name: string }[]; total: number };
    return { names: page.data.map((c) => c.name), total: page.total };
  }

  async status(path: string): Promise<number> {
    return (await this.send('GET', path)).status;
  }
}

describe.skipIf(!hasPostgresPrograms('initdb', 'pg_ctl', 'pg_basebackup'))(
  'read replica: list and detail reads on a hot standby (own clusters)',
  () => {
    let primary: Cluster;
    let standby: Cluster;
    let servers: ServerProcess[] = [];
    let onPrimary: pg.Pool;
    let onStandby: pg.Pool;
    let admin: Caller;
    let operator: Caller;
    const dataDirs = [mkdtempSync(join(tmpdir(), 'sd-replica-')), mkdtempSync(join(tmpdir(), 'sd-replica-'))];
    let written = 0;

    beforeAll(async () => {
      primary = await startCluster();
      standby = await startStandby(primary);
      onPrimary = new pg.Pool({ connectionString: primary.url, max: 2 });
      onStandby = new pg.Pool({ connectionString: standby.url, max: 2 });
      // Both pools outlive the standby's restart below: a dropped idle connection is no crash.
      for (const pool of [onPrimary, onStandby]) pool.on('error', () => undefined);
      // Two instances, started together (they take turns at migrating and seeding, on the primary).
      servers = await Promise.all(
        dataDirs.map(async (dataDir) =>
          startServer({
            PORT: String(await freePort()),
            DATA_DIR: dataDir,
            DATABASE_URL: primary.url,
            DATABASE_READ_URL: standby.url,
            REPLICA_MAX_LAG_MS: String(MAX_LAG_MS),
            DATABASE_POOL_SIZE: '3',
            STATEMENT_TIMEOUT_MS: String(STATEMENT_TIMEOUT_MS),
            // No balancer to drain for: stop at once.
            SHUTDOWN_DRAIN_MS: '0',
            METRICS_TOKEN,
            SEED: 'demo',
          }),
        ),
      );
      await Promise.all(servers.map((server) => server.ready));
      admin = new Caller(servers[0]!.base);
      operator = new Caller(servers[0]!.base);
      await admin.login('admin@example.com');
      await operator.login('operator@example.com');
    }, 120_000);

    // What the servers said, when a test fails: the log lines the test reads come from there too.
    beforeEach(({ onTestFailed }) =>
      onTestFailed(() => {
        for (const server of servers) console.error(`${server.base}:\n${server.output()}`);
      }),
    );

    afterAll(async () => {
      await Promise.all(servers.map((server) => server.stop()));
      await onPrimary?.end();
      await onStandby?.end();
      // The standby first: it streams from the primary.
      standby?.destroy();
      primary?.destroy();
      for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
    });

    /** A company written directly on the primary, as another instance's write would be. */
    async function writeOnPrimary(): Promise<{ id: number; name: string }> {
      const name = `${PREFIX} ${++written}`;
      const { rows } = await onPrimary.query<{ id: number }>(
        `insert into companies (tenant_id, name)
         select tenant_id, $1 from users where email = 'admin@example.com' returning id`,
        [name],
      );
      return { id: Number(rows[0]!.id), name };
    }

    const onStandbyNow = async (id: number) =>
      (await onStandby.query('select 1 from companies where id = $1', [id])).rowCount === 1;

    /**
     * The standby one row behind: `seen` written and replayed, then replay paused, then `unseen`
     * written on the primary. The standby's lag counts from `seen`'s commit, so the next
     * MAX_LAG_MS it still serves reads, and a read that finds `unseen` came from the primary.
     */
    async function oneRowBehind(): Promise<{
      seen: { id: number; name: string };
      unseen: { id: number; name: string };
    }> {
      await onStandby.query('select pg_wal_replay_resume()');
      const seen = await writeOnPrimary();
      await waitFor('the row replayed on the standby', () => onStandbyNow(seen.id), 10_000, 20);
      await onStandby.query('select pg_wal_replay_pause()');
      const unseen = await writeOnPrimary();
      // Received by the standby (so its lag is measured from `seen`), not replayed.
      await waitFor(
        'the write received by the standby',
        async () =>
          (
            await onStandby.query<{ behind: boolean }>(
              'select pg_last_wal_receive_lsn() > pg_last_wal_replay_lsn() as behind',
            )
          ).rows[0]!.behind,
        10_000,
        20,
      );
      expect(await onStandbyNow(unseen.id)).toBe(false);
      return { seen, unseen };
    }

    async function ready(server = servers[0]!): Promise<{ status: number; body: Record<string, unknown> }> {
      const res = await fetch(`${server.base}/api/health/ready`);
      return { status: res.status, body: (await res.json()) as Record<string, unknown> };
    }

    /** A line in the first server's log; its output comes through a pipe, maybe after the answer. */
    async function logged(line: string): Promise<void> {
      await waitFor(`"${line}" in the log`, () => servers[0]!.output().includes(line), 5_000, 20);
    }

    async function scrape(): Promise<string> {
      const res = await fetch(`${servers[0]!.base}/api/metrics`, {
        headers: { authorization: `Bearer ${METRICS_TOKEN}` },
      });
      return res.text();
    }

    /** The replica's gauges: whether it takes reads, and its lag in seconds (NaN: not measured). */
    async function replicaGauges(): Promise<{ usable: number; lag: number }> {
      const text = await scrape();
      const value = (name: string) => Number(new RegExp(`^${name}\\{[^}]*\\} (\\S+)$`, 'm').exec(text)?.[1]);
      return {
        usable: value('servicedesk_db_replica_usable'),
        lag: value('servicedesk_db_replica_lag_seconds'),
      };
    }

    async function readsCounted(): Promise<Map<string, number>> {
      const counts = new Map<string, number>();
      for (const line of (await scrape()).split('\n')) {
        const m = /^servicedesk_db_reads_total\{.*database="(\w+)",reason="(\w+)".*\} (\d+)/.exec(line);
        if (m) counts.set(`${m[1]}:${m[2]}`, Number(m[3]));
      }
      return counts;
    }

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
