/**
 * Set-up shared by the read replica tests (read-replica-routing, read-replica-failover): a throwaway
 * primary, a standby made from it with pg_basebackup -R -X stream, and two server processes on both
 * (they migrate and seed on the primary); a browser's part (Caller), and the steps that pause the
 * standby one row behind and read what the servers say about it (readiness, log, metrics).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { expect, type TestContext } from 'vitest';
import {
  freePort,
  startCluster,
  startServer,
  startStandby,
  waitFor,
  type Cluster,
  type ServerProcess,
} from './processes.ts';

/** What the server is started with: the standby may lag 3 s before reads leave it. */
export const MAX_LAG_MS = 3_000;
export const METRICS_TOKEN = 'replica-test-metrics-token';
/** STATEMENT_TIMEOUT_MS of both servers: short, so the test of it on the standby is too. */
export const STATEMENT_TIMEOUT_MS = 2_000;
export const PREFIX = 'Replica test';

/** A browser's part: the cookies the server sets (the refresh and the read position), and the bearer token. */
export class Caller {
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

export interface ReplicaState {
  primary: Cluster;
  standby: Cluster;
  servers: ServerProcess[];
  onPrimary: pg.Pool;
  onStandby: pg.Pool;
  admin: Caller;
  operator: Caller;
}

/** The clusters and servers, opened in a file's beforeAll and closed in its afterAll, and the steps on them. */
export function replicaWorld() {
  const w = { servers: [] } as unknown as ReplicaState;
  const dataDirs = [mkdtempSync(join(tmpdir(), 'sd-replica-')), mkdtempSync(join(tmpdir(), 'sd-replica-'))];
  let written = 0;

  async function open(): Promise<ReplicaState> {
    w.primary = await startCluster();
    w.standby = await startStandby(w.primary);
    w.onPrimary = new pg.Pool({ connectionString: w.primary.url, max: 2 });
    w.onStandby = new pg.Pool({ connectionString: w.standby.url, max: 2 });
    // Both pools outlive the standby's restart below: a dropped idle connection is no crash.
    for (const pool of [w.onPrimary, w.onStandby]) pool.on('error', () => undefined);
    // Two instances, started together (they take turns at migrating and seeding, on the primary).
    w.servers = await Promise.all(
      dataDirs.map(async (dataDir) =>
        startServer({
          PORT: String(await freePort()),
          DATA_DIR: dataDir,
          DATABASE_URL: w.primary.url,
          DATABASE_READ_URL: w.standby.url,
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
    await Promise.all(w.servers.map((server) => server.ready));
    w.admin = new Caller(w.servers[0]!.base);
    w.operator = new Caller(w.servers[0]!.base);
    await w.admin.login('admin@example.com');
    await w.operator.login('operator@example.com');
    return w;
  }

  // What the servers said, when a test fails: the log lines the test reads come from there too.
  function showOutputOnFailure({ onTestFailed }: TestContext): void {
    onTestFailed(() => {
      for (const server of w.servers) console.error(`${server.base}:\n${server.output()}`);
    });
  }

  async function close(): Promise<void> {
    await Promise.all(w.servers.map((server) => server.stop()));
    await w.onPrimary?.end();
    await w.onStandby?.end();
    // The standby first: it streams from the primary.
    w.standby?.destroy();
    w.primary?.destroy();
    for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
  }

  /** A company written directly on the primary, as another instance's write would be. */
  async function writeOnPrimary(): Promise<{ id: number; name: string }> {
    const name = `${PREFIX} ${++written}`;
    const { rows } = await w.onPrimary.query<{ id: number }>(
      `insert into companies (tenant_id, name)
       select tenant_id, $1 from users where email = 'admin@example.com' returning id`,
      [name],
    );
    return { id: Number(rows[0]!.id), name };
  }

  const onStandbyNow = async (id: number) =>
    (await w.onStandby.query('select 1 from companies where id = $1', [id])).rowCount === 1;

  /**
   * The standby one row behind: `seen` written and replayed, then replay paused, then `unseen`
   * written on the primary. The standby's lag counts from `seen`'s commit, so the next
   * MAX_LAG_MS it still serves reads, and a read that finds `unseen` came from the primary.
   */
  async function oneRowBehind(): Promise<{
    seen: { id: number; name: string };
    unseen: { id: number; name: string };
  }> {
    await w.onStandby.query('select pg_wal_replay_resume()');
    const seen = await writeOnPrimary();
    await waitFor('the row replayed on the standby', () => onStandbyNow(seen.id), 10_000, 20);
    await w.onStandby.query('select pg_wal_replay_pause()');
    const unseen = await writeOnPrimary();
    // Received by the standby (so its lag is measured from `seen`), not replayed.
    await waitFor(
      'the write received by the standby',
      async () =>
        (
          await w.onStandby.query<{ behind: boolean }>(
            'select pg_last_wal_receive_lsn() > pg_last_wal_replay_lsn() as behind',
          )
        ).rows[0]!.behind,
      10_000,
      20,
    );
    expect(await onStandbyNow(unseen.id)).toBe(false);
    return { seen, unseen };
  }

  async function ready(server = w.servers[0]!): Promise<{ status: number; body: Record<string, unknown> }> {
    const res = await fetch(`${server.base}/api/health/ready`);
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  }

  /** A line in the first server's log; its output comes through a pipe, maybe after the answer. */
  async function logged(line: string): Promise<void> {
    await waitFor(`"${line}" in the log`, () => w.servers[0]!.output().includes(line), 5_000, 20);
  }

  async function scrape(): Promise<string> {
    const res = await fetch(`${w.servers[0]!.base}/api/metrics`, {
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

  return {
    open,
    close,
    showOutputOnFailure,
    writeOnPrimary,
    oneRowBehind,
    ready,
    logged,
    readsCounted,
    replicaGauges,
  };
}
