/**
 * Several instances on one PostgreSQL database (issue 15): three real server processes started at the
 * same moment on a new, empty database all come up with one seed between them; SIGTERM makes an
 * instance answer not-ready first while it still serves, then it exits 0.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, startServer, waitFor, type ServerProcess } from './processes.ts';

const adminUrl = process.env.TEST_DATABASE_URL;

describe.skipIf(!adminUrl)('three instances started at once on an empty PostgreSQL database', () => {
  const name = `sd_instances_${randomBytes(4).toString('hex')}`;
  const url = new URL(adminUrl ?? 'postgres://localhost/x');
  url.pathname = `/${name}`;
  const folders: string[] = [];
  const servers: ServerProcess[] = [];

  async function admin<T>(work: (client: pg.Client) => Promise<T>, database = adminUrl): Promise<T> {
    const client = new pg.Client({ connectionString: database });
    await client.connect();
    try {
      return await work(client);
    } finally {
      await client.end();
    }
  }

  beforeAll(async () => {
    await admin((c) => c.query(`create database ${name}`));
  });
  afterAll(async () => {
    // SIGINT skips the drain: the test is over, nothing needs the servers to serve on.
    await Promise.all(
      servers.map((server) => {
        if (!server.hasExited()) server.child.kill('SIGINT');
        return server.exited;
      }),
    );
    await admin((c) => c.query(`drop database if exists ${name} with (force)`));
    for (const folder of folders) rmSync(folder, { recursive: true, force: true });
  });

  async function login(server: ServerProcess) {
    const res = await fetch(`${server.base}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'admin@example.com', password: 'demo' }),
    });
    return { status: res.status, body: (await res.json()) as { access_token?: string } };
  }

  it('all come up, seeded once, each serving logins; SIGTERM drains before it exits 0', async () => {
    const ports = await Promise.all([freePort(), freePort(), freePort()]);
    for (const port of ports) {
      const dataDir = mkdtempSync(join(tmpdir(), 'sd-instance-'));
      folders.push(dataDir);
      servers.push(
        startServer({
          PORT: String(port),
          DATA_DIR: dataDir,
          DATABASE_URL: url.toString(),
          DATABASE_POOL_SIZE: '3',
          SEED: 'demo',
          SHUTDOWN_DRAIN_MS: '8000',
        }),
      );
    }
    await Promise.all(
      servers.map((server) =>
        waitFor(
          `${server.base}/api/health/ready to answer 200`,
          async () => {
            if (server.hasExited()) throw new Error(`exited: ${server.output()}`);
            return fetch(`${server.base}/api/health/ready`).then(
              (res) => res.status === 200,
              () => false,
            );
          },
          180_000,
          200,
        ),
      ),
    );
    const ready = await (await fetch(`${servers[0]!.base}/api/health/ready`)).json();
    expect(ready).toEqual({
      status: 'ready',
      database: 'ok',
      migrations: 'done',
      shutting_down: false,
      failed: [],
    });

    const counts = await admin(async (c) => {
      const tenants = await c.query<{ n: string }>('select count(*) as n from tenants');
      const users = await c.query<{ email: string; n: string }>(
        `select email, count(*) as n from users
          where email in ('admin@example.com', 'operator@example.com', 'client@example.com', 'other@example.com')
          group by email order by email`,
      );
      return { tenants: Number(tenants.rows[0]!.n), users: users.rows.map((r) => [r.email, Number(r.n)]) };
    }, url.toString());
    expect(counts).toEqual({
      tenants: 1,
      users: [
        ['admin@example.com', 1],
        ['client@example.com', 1],
        ['operator@example.com', 1],
        ['other@example.com', 1],
      ],
    });
    // Exactly one start printed that it seeded.
    expect(servers.filter((s) => s.output().includes('filled with demo data'))).toHaveLength(1);

    for (const server of servers) {
      const { status, body } = await login(server);
      expect(status, server.output()).toBe(200);
      expect(body.access_token).toEqual(expect.any(String));
    }

    // SIGTERM: not ready at once, yet still serving (the balancer has not noticed yet), then gone.
    const leaving = servers[2]!;
    leaving.child.kill('SIGTERM');
    const notReady = await waitFor('ready to answer 503', async () => {
      const res = await fetch(`${leaving.base}/api/health/ready`);
      return res.status === 503 ? res : undefined;
    });
    expect(notReady.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(await notReady.json()).toMatchObject({
      status: 'unavailable',
      shutting_down: true,
      failed: ['shutdown'],
    });
    expect((await fetch(`${leaving.base}/api/health/live`)).status).toBe(200);
    expect((await login(leaving)).status).toBe(200);
    // Seen serving while draining; a second SIGTERM ends the drain early (server.ts), so the exit is not
    // a wait for the rest of the 8 s given above to outlast a slow machine.
    leaving.child.kill('SIGTERM');
    expect(await leaving.exited, leaving.output()).toBe(0);
    // The others are untouched.
    expect((await fetch(`${servers[0]!.base}/api/health/ready`)).status).toBe(200);
  }, 300_000);
});
