/**
 * The Dockerfile, built and run for real (issue 32): podman builds it from a base made of Debian's
 * packages (podman.ts), the container starts against a throwaway PostgreSQL database, seeds the demo
 * data and answers through its port: ready, a login, the tickets, the built portal. Its health check,
 * user and data volume are the image's own, read back from the running container. Skipped, with the
 * reason printed, only where podman cannot run containers at all.
 */
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../free-port.ts';
import { baseImage, described, mustPodman, podman, podmanUnavailable, RUN_LIMITS } from './podman.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const IMAGE = 'localhost/service-desk-test:latest';
const BUILD_STAGE = 'localhost/service-desk-test-build:latest';
const NPM_CACHE = join(homedir(), '.npm');
const unavailable = podmanUnavailable();
if (unavailable) console.log(`Container test skipped: ${unavailable}`);

/** The PostgreSQL server of TEST_DATABASE_URL (CI's), else the machine's own on 127.0.0.1:5432. */
const serverUrl = new URL(process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres');
serverUrl.pathname = '/postgres';

async function onServer(statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: serverUrl.toString() });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

const timings: string[] = [];
function timed<T>(label: string, run: () => T): T {
  const start = Date.now();
  try {
    return run();
  } finally {
    timings.push(`${label} ${((Date.now() - start) / 1000).toFixed(1)} s`);
  }
}

describe.skipIf(unavailable !== undefined)('container image (Dockerfile, podman with runc)', () => {
  const suffix = `${Date.now()}_${randomBytes(3).toString('hex')}`;
  const database = `container_${suffix}`;
  const container = `service-desk-test-${suffix}`;
  let base = '';
  let port = 0;
  let databaseMade = false;

  beforeAll(async () => {
    base = timed('base image', baseImage);
    // The image this test built last time: replaced below, then removed so that runs do not pile up
    // images (the layers the new one shares with it stay).
    const before = podman(['image', 'inspect', '--format', '{{.Id}}', IMAGE]);
    const build = (target: string[], tag: string) =>
      mustPodman(
        [
          'build',
          // Docker's format keeps HEALTHCHECK (OCI's has no field for it).
          '--format',
          'docker',
          // The build's npm ci reaches the npm registry through the host's network, and takes what
          // it can from the host's npm cache (an overlay: the build's writes are dropped after it).
          '--network',
          'host',
          ...(existsSync(NPM_CACHE) ? ['--volume', `${NPM_CACHE}:/root/.npm:O`] : []),
          '--build-arg',
          `BASE=${base}`,
          ...target,
          '--tag',
          tag,
          '.',
        ],
        'podman build',
        { cwd: ROOT, timeoutMs: 20 * 60_000 },
      );
    timed('image build', () => {
      // The build stage under a name of its own first, so that it can be removed after: its layers
      // (the sources and the built apps) are new on nearly every run and no use to the next one.
      build(['--target', 'build'], BUILD_STAGE);
      build([], IMAGE);
      podman(['rmi', BUILD_STAGE]);
    });
    const after = mustPodman(['image', 'inspect', '--format', '{{.Id}}', IMAGE], 'podman image inspect');
    if (before.status === 0 && before.stdout.trim() !== after) podman(['rmi', before.stdout.trim()]);

    await onServer(`create database "${database}"`);
    databaseMade = true;
    const url = new URL(serverUrl);
    url.pathname = `/${database}`;
    port = await freePort();
    mustPodman(
      [
        'run',
        '--detach',
        '--name',
        container,
        // The host's network: the database on 127.0.0.1 is the host's. The server listens on loopback
        // only (the image's HOST is 0.0.0.0, for a network of its own).
        '--network',
        'host',
        ...RUN_LIMITS,
        '--env',
        `DATABASE_URL=${url.toString()}`,
        '--env',
        `PORT=${port}`,
        '--env',
        'HOST=127.0.0.1',
        '--env',
        'SEED=demo',
        '--env',
        'LOG_LEVEL=warn',
        '--env',
        'SHUTDOWN_DRAIN_MS=0',
        IMAGE,
      ],
      'podman run',
    );
    await timedReady();
  }, 30 * 60_000);

  async function timedReady(): Promise<void> {
    const start = Date.now();
    const deadline = start + 180_000;
    for (;;) {
      const state = podman(['inspect', '--format', '{{.State.Status}}', container]).stdout.trim();
      if (state !== 'running') {
        throw new Error(`the container is ${state}:\n${podman(['logs', container]).stderr.slice(-4000)}`);
      }
      const ready = await fetch(`http://127.0.0.1:${port}/api/health/ready`).catch(() => undefined);
      if (ready?.status === 200) break;
      if (Date.now() > deadline) {
        throw new Error(`not ready after 180 s:\n${described(podman(['logs', container]), 'the server')}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    timings.push(`start to ready ${((Date.now() - start) / 1000).toFixed(1)} s`);
  }

  afterAll(async () => {
    podman(['rm', '--force', '--volumes', container]);
    if (databaseMade) await onServer(`drop database if exists "${database}" with (force)`);
    console.log(`Container test: ${timings.join(', ')}`);
  }, 120_000);

  it('logs in as the demo admin and reads the demo tickets through the container', async () => {
    const login = await fetch(`http://127.0.0.1:${port}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'admin@example.com', password: 'demo' }),
    });
    expect(login.status).toBe(200);
    const { access_token } = (await login.json()) as { access_token: string };
    const tickets = await fetch(`http://127.0.0.1:${port}/api/tickets`, {
      headers: { authorization: `Bearer ${access_token}` },
    });
    expect(tickets.status).toBe(200);
    const list = (await tickets.json()) as { total: number; data: { id: number; reference: string }[] };
    expect(list.total).toBeGreaterThan(0);
    expect(list.data.length).toBeGreaterThan(0);
    expect(list.data[0]!.reference).toMatch(/\S/);
  });

  it('serves the built portal and back office from the image', async () => {
    for (const path of ['/app/tickets', '/']) {
      const page = await fetch(`http://127.0.0.1:${port}${path}`);
      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toMatch(/^text\/html/);
      // Vite's build links a hashed bundle (static/…-hash.js); the unbuilt index.html links TypeScript.
      const script = /<script type="module" crossorigin src="(\/[^"]+\.js)"/.exec(await page.text());
      expect(script, `${path} links no built bundle`).not.toBeNull();
      const bundle = await fetch(`http://127.0.0.1:${port}${script![1]}`);
      expect(bundle.status).toBe(200);
      expect(bundle.headers.get('content-type')).toMatch(/javascript/);
    }
  });

  it("passes the image's own health check, runs as its own user and keeps DATA_DIR on a volume", () => {
    const health = podman(['healthcheck', 'run', container]);
    expect(health.status, described(health, 'podman healthcheck run')).toBe(0);
    const configured = mustPodman(
      ['image', 'inspect', '--format', '{{json .HealthCheck}}', IMAGE],
      'inspect',
    );
    expect(configured).toContain('/api/health/ready');

    // The server is process 1 and not root: the uid is the Dockerfile's `desk` user.
    const status = mustPodman(['exec', container, 'cat', '/proc/1/status'], 'podman exec');
    expect(status).toMatch(/^Uid:\s+10001\s+10001\s+10001\s+10001$/m);
    const command = mustPodman(['exec', container, 'cat', '/proc/1/cmdline'], 'podman exec');
    expect(command.split('\0').filter(Boolean)).toEqual(['node', '--import', 'tsx', 'server/server.ts']);

    const mounts = JSON.parse(
      mustPodman(['inspect', '--format', '{{json .Mounts}}', container], 'inspect'),
    ) as {
      Type: string;
      Destination: string;
    }[];
    expect(mounts).toContainEqual(expect.objectContaining({ Type: 'volume', Destination: '/data' }));
    // The volume is the server's user's to write (a PGlite database, local files, .eml mail go there).
    mustPodman(
      ['exec', container, 'sh', '-c', 'echo written > /data/probe && cat /data/probe'],
      'write /data',
    );
  });

  it('stops on SIGTERM, finishing its graceful shutdown with exit code 0', () => {
    timed('stop', () =>
      mustPodman(['stop', '--time', '30', container], 'podman stop', { timeoutMs: 60_000 }),
    );
    const exit = mustPodman(['inspect', '--format', '{{.State.ExitCode}}', container], 'inspect');
    expect(exit).toBe('0');
  });
});
