/**
 * Two instances on one PostgreSQL database behind a real HAProxy (issue 15): logins, an upload and its
 * downloads, the sign-in limit and a logout all work whichever instance answers; one instance killed
 * while requests run costs only the requests it had in flight. Skipped without TEST_DATABASE_URL or a
 * haproxy binary (.ci/run installs Debian's).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findHaproxy, haproxyConfig, serverStates } from '../../bench/haproxy.ts';
import { multipart } from './multipart.ts';
import { freePort, startServer, waitFor, type ServerProcess } from './processes.ts';

const adminUrl = process.env.TEST_DATABASE_URL;

const haproxyBinary = findHaproxy();

/** The status of a request, its body read to the end (so the connection goes back to the pool). */
async function statusOf(url: string, init?: RequestInit): Promise<number> {
  const res = await fetch(url, init);
  await res.arrayBuffer();
  return res.status;
}

const METRICS_TOKEN = randomBytes(16).toString('hex');
const INSTANCES = ['web-1', 'web-2'] as const;

/** `servicedesk_http_requests_total` of one instance for a method, route pattern and status. */
async function requestsCounted(base: string, method: string, route: string, status: number): Promise<number> {
  const res = await fetch(`${base}/api/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
  expect(res.status).toBe(200);
  const text = await res.text();
  let total = 0;
  for (const line of text.split('\n')) {
    if (!line.startsWith('servicedesk_http_requests_total{')) continue;
    if (!line.includes(`method="${method}"`) || !line.includes(`route="${route}"`)) continue;
    if (!line.includes(`status="${status}"`)) continue;
    total += Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return total;
}

/**
 * Those counts of every instance once they add up to `total` (a request is counted when its answer has
 * gone out, which may be a moment after the client has it).
 */
function countedPerInstance(
  servers: ServerProcess[],
  [method, route, status]: [string, string, number],
  total: number,
): Promise<number[]> {
  return waitFor(
    `${total} × ${method} ${route} ${status} counted by the instances together`,
    async () => {
      const counts = await Promise.all(servers.map((s) => requestsCounted(s.base, method, route, status)));
      return counts.reduce((a, b) => a + b, 0) === total ? counts : undefined;
    },
    5_000,
    50,
  );
}

describe.skipIf(!adminUrl || !haproxyBinary)('two instances on one database behind HAProxy', () => {
  const name = `sd_balancer_${randomBytes(4).toString('hex')}`;
  const url = new URL(adminUrl ?? 'postgres://localhost/x');
  url.pathname = `/${name}`;
  let folder = '';
  const servers: ServerProcess[] = [];
  let haproxy: ChildProcess | undefined;
  let haproxyOutput = '';
  let haproxyExited = false;
  let balancer = '';
  let statsUrl = '';

  async function admin<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    try {
      return await work(client);
    } finally {
      await client.end();
    }
  }

  /** HAProxy's status of each server (UP, DOWN, "UP 1/2" …) by name. */
  const haproxyStates = async () => serverStates(await (await fetch(statsUrl)).text());

  const login = (base: string, username: string, password: string) =>
    fetch(`${base}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username, password }),
    });
  const me = (base: string, token: string) =>
    statusOf(`${base}/api/auth/me`, { headers: { authorization: `Bearer ${token}` } });

  async function adminToken(): Promise<{ token: string; cookie: string }> {
    const res = await login(balancer, 'admin@example.com', 'demo');
    expect(res.status).toBe(200);
    const body = (await res.json()) as { access_token: string };
    const cookie = res.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; ');
    return { token: body.access_token, cookie };
  }

  beforeAll(async () => {
    folder = mkdtempSync(join(tmpdir(), 'sd-balancer-'));
    await admin((c) => c.query(`create database ${name}`));
    const [listen, stats, ...ports] = await Promise.all([freePort(), freePort(), freePort(), freePort()]);
    balancer = `http://127.0.0.1:${listen}`;
    statsUrl = `http://127.0.0.1:${stats}/stats;csv`;
    // Both at once on the empty database: one migrates and seeds, the other waits for it.
    INSTANCES.forEach((instance, i) => {
      const dataDir = join(folder, instance);
      servers.push(
        startServer({
          PORT: String(ports[i]),
          DATA_DIR: dataDir,
          DATABASE_URL: url.toString(),
          DATABASE_POOL_SIZE: '4',
          SEED: 'demo',
          SHUTDOWN_DRAIN_MS: '1500',
          METRICS_TOKEN,
          METRICS_INSTANCE: instance,
          TRUST_PROXY: '127.0.0.1',
        }),
      );
    });
    const configFile = join(folder, 'haproxy.cfg');
    writeFileSync(
      configFile,
      haproxyConfig(
        listen!,
        stats!,
        INSTANCES.map((instance, i) => ({ name: instance, port: ports[i]! })),
      ),
    );
    // -db: in the foreground, so this child is HAProxy itself and its exit is seen here.
    haproxy = spawn(haproxyBinary!, ['-db', '-f', configFile], { stdio: ['ignore', 'pipe', 'pipe'] });
    haproxy.stdout!.on('data', (d) => (haproxyOutput += d));
    haproxy.stderr!.on('data', (d) => (haproxyOutput += d));
    haproxy.on('error', (error) => (haproxyOutput += String(error)));
    haproxy.once('exit', () => (haproxyExited = true));

    await waitFor(
      'both instances up in HAProxy and its /api/health/ready answering 200',
      async () => {
        if (haproxyExited) throw new Error(`haproxy exited: ${haproxyOutput}`);
        for (const server of servers) {
          if (server.hasExited()) throw new Error(`an instance exited: ${server.output()}`);
        }
        try {
          // Each instance ready on its own first: HAProxy may count a server up before its first check.
          for (const server of servers) {
            if ((await statusOf(`${server.base}/api/health/ready`)) !== 200) return false;
          }
          const states = await haproxyStates();
          if (!INSTANCES.every((instance) => states.get(instance) === 'UP')) return false;
          return (await statusOf(`${balancer}/api/health/ready`)) === 200;
        } catch {
          return false;
        }
      },
      180_000,
      200,
    );
  }, 200_000);

  afterAll(async () => {
    for (const server of servers) {
      if (!server.hasExited()) server.child.kill('SIGKILL');
      await server.exited;
    }
    if (haproxy && !haproxyExited) {
      const gone = new Promise((resolve) => haproxy!.once('exit', resolve));
      haproxy.kill('SIGKILL');
      await gone;
    }
    await admin((c) => c.query(`drop database if exists ${name} with (force)`));
    if (folder) rmSync(folder, { recursive: true, force: true });
  }, 60_000);

  it('serves logins, files, the sign-in limit and logouts from either instance', async () => {
    // Logins: round robin hands them to both, and both sign the same admin in.
    const LOGINS = 6;
    for (let i = 0; i < LOGINS; i++) await adminToken();
    const logins = await countedPerInstance(servers, ['POST', '/api/auth/login', 200], LOGINS);
    expect(
      logins.every((n) => n > 0),
      `logins per instance: ${logins}`,
    ).toBe(true);

    // An upload through the balancer, downloaded several times: whichever instance serves it, same bytes.
    const { token, cookie } = await adminToken();
    const content = Buffer.from(randomBytes(48 * 1024).toString('hex'));
    const form = multipart([], [{ field: 'file', name: 'notes.txt', content }]);
    const uploaded = await fetch(`${balancer}/api/attachments`, {
      method: 'POST',
      headers: { ...form.headers, authorization: `Bearer ${token}` },
      body: new Uint8Array(form.payload),
    });
    const upload = (await uploaded.json()) as { url: string; size: number };
    expect(uploaded.status, JSON.stringify(upload)).toBe(201);
    expect(upload.size).toBe(content.length);
    for (let i = 0; i < 6; i++) {
      const file = await fetch(`${balancer}${upload.url}`);
      expect(file.status).toBe(200);
      expect(Buffer.from(await file.arrayBuffer()).equals(content)).toBe(true);
    }
    const downloads = await countedPerInstance(servers, ['GET', '/api/attachments/:id/file', 200], 6);
    expect(
      downloads.every((n) => n > 0),
      `downloads per instance: ${downloads}`,
    ).toBe(true);

    // Wrong passwords for one account, alternating between the instances: counted once, in the database.
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      const res = await login(balancer, 'operator@example.com', `wrong-${i}`);
      await res.arrayBuffer();
      statuses.push(res.status);
    }
    expect(statuses).toEqual([422, 422, 422, 422, 422, 429]);
    const refused = await countedPerInstance(servers, ['POST', '/api/auth/login', 422], 5);
    expect(
      refused.every((n) => n > 0),
      `wrong passwords per instance: ${refused}`,
    ).toBe(true);

    // A logout through the balancer ends the session on both instances within a second.
    for (const server of servers) expect(await me(server.base, token)).toBe(200);
    const logout = await fetch(`${balancer}/api/auth/logout`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, cookie },
    });
    expect(logout.status, await logout.text()).toBe(200);
    await Promise.all(
      servers.map((server) =>
        waitFor(
          `${server.base} to refuse the logged-out token`,
          async () => (await me(server.base, token)) === 401,
          1_000,
          20,
        ),
      ),
    );
  }, 60_000);

  it('loses only the requests in flight when an instance is killed', async () => {
    const { token } = await adminToken();
    const CONCURRENCY = 4;
    const results: { started: number; ok: boolean; status: number | string }[] = [];
    let running = true;
    const loops = Array.from({ length: CONCURRENCY }, async () => {
      while (running) {
        const started = Date.now();
        try {
          const status = await me(balancer, token);
          results.push({ started, ok: status === 200, status });
        } catch (error) {
          results.push({ started, ok: false, status: String(error) });
        }
      }
    });
    try {
      await waitFor('the loop to get going', () => results.length >= 20, 30_000, 20);
      expect(results.every((r) => r.ok)).toBe(true);

      const victim = servers[1]!;
      const killed = Date.now();
      victim.child.kill('SIGKILL');
      await victim.exited;
      // Its sockets are closed now: a request started later must be redispatched, never lost.
      const gone = Date.now();
      await waitFor(
        'HAProxy to mark the killed instance down',
        async () => (await haproxyStates()).get(INSTANCES[1])?.startsWith('DOWN'),
        30_000,
        50,
      );
      const down = Date.now();
      await waitFor(
        '100 requests after it went down',
        () => results.filter((r) => r.started > down).length >= 100,
        60_000,
        20,
      );
      running = false;
      await Promise.all(loops);

      // Lost: the requests the killed instance was answering (HAProxy closes their connections), at
      // most one per loop, and those sent while it died: until the kernel has closed its listening
      // socket it still completes handshakes, then resets them, which HAProxy cannot tell from a
      // failure mid-answer (seen: 5 lost with 4 loops). None started after it was gone, and so none
      // after HAProxy marked it down.
      const failed = results.filter((r) => !r.ok);
      expect(failed.filter((r) => r.started >= gone)).toEqual([]);
      const inFlight = failed.filter((r) => r.started < killed);
      expect(inFlight.length, JSON.stringify(inFlight)).toBeLessThanOrEqual(CONCURRENCY);
      expect(results.filter((r) => r.started > down).every((r) => r.ok)).toBe(true);
    } finally {
      running = false;
      await Promise.all(loops);
    }
  }, 90_000);
});
