/**
 * `npm start` as a newcomer runs it: a fresh data folder is created, migrated and seeded, the address
 * and demo accounts are printed; a second start reuses the folder without seeding again. And the server
 * refuses a second process on a data folder in use, but not a stale lock.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../free-port.ts';
import { startServer, type ServerProcess } from './processes.ts';

/** Every process started here, stopped in afterAll when a failed test left it running. */
const started: ChildProcess[] = [];
const servers: ServerProcess[] = [];

function start(env: Record<string, string>): {
  child: ChildProcess;
  output: () => string;
  ready: Promise<void>;
} {
  let out = '';
  const child = spawn('npm', ['start', '--silent'], {
    // No balancer watches it: a stop need not answer not-ready for SHUTDOWN_DRAIN_MS (5 s) first.
    env: { ...process.env, ...env, LOG_LEVEL: 'warn', SHUTDOWN_DRAIN_MS: '0' },
    detached: true,
  });
  started.push(child);
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const ready = new Promise<void>((resolve, reject) => {
    const timer = setInterval(() => {
      if (out.includes('Demo accounts') || out.includes('Service desk running')) {
        clearInterval(timer);
        resolve();
      }
    }, 100);
    child.on('exit', (code) => {
      clearInterval(timer);
      reject(new Error(`npm start exited with ${code}: ${out}`));
    });
  });
  return { child, output: () => out, ready };
}

/** SIGTERM to npm and the server under it; resolves once every process of the group has ended. */
async function stop(child: ChildProcess) {
  if (child.exitCode === null && child.signalCode === null) {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    process.kill(-child.pid!, 'SIGTERM');
    await exited;
  }
  // npm may end before the server it started has finished shutting down (and freed its data folder).
  const groupAlive = () => {
    try {
      process.kill(-child.pid!, 0);
      return true;
    } catch {
      return false;
    }
  };
  while (groupAlive()) await new Promise((resolve) => setTimeout(resolve, 50));
}

describe('npm start', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'sd-start-'));
  afterAll(async () => {
    for (const child of started) await stop(child);
    for (const server of servers) await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('creates, migrates and seeds a fresh data folder, then reuses it', async () => {
    const port = await freePort();
    const env = { PORT: String(port), DATA_DIR: dataDir, HOST: '127.0.0.1' };
    const first = start(env);
    await first.ready;
    const base = `http://127.0.0.1:${port}`;
    expect(first.output()).toContain(`http://localhost:${port}`);
    expect(first.output()).toContain('filled with demo data');
    for (const account of [
      'admin@example.com',
      'operator@example.com',
      'client@example.com',
      'other@example.com',
    ]) {
      expect(first.output()).toContain(account);
    }
    expect((await fetch(`${base}/api/health`)).status).toBe(200);
    const login = await fetch(`${base}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'admin@example.com', password: 'demo' }),
    });
    expect(login.status).toBe(200);
    const { access_token } = (await login.json()) as { access_token: string };
    const created = await fetch(`${base}/api/companies`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${access_token}` },
      body: JSON.stringify({ name: 'Survives Restart BV' }),
    });
    expect(created.status).toBe(201);
    await stop(first.child);

    const second = start(env);
    await second.ready;
    expect(second.output()).not.toContain('filled with demo data');
    const again = await fetch(`${base}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'admin@example.com', password: 'demo' }),
    });
    const token = ((await again.json()) as { access_token: string }).access_token;
    const found = await fetch(
      `${base}/api/companies?builder[0][where][0]=name&builder[0][where][1]=Survives Restart BV`,
      {
        headers: { authorization: `Bearer ${token}` },
      },
    );
    expect(((await found.json()) as { total: number }).total).toBe(1);
    const status = await fetch(`${base}/api/system/status`);
    expect(await status.json()).toMatchObject({ tenant_name: 'Acme IT', setup_completed: true });
    await stop(second.child);
  }, 180_000);

  it('refuses a second process on the same data folder while the first keeps serving; a stale lock does not block', async () => {
    // A folder of its own (so the test does not depend on the one above having run) without demo data:
    // the lock is the server's, so its own process stands in for npm start (no npm and build check).
    const lockDir = mkdtempSync(join(tmpdir(), 'sd-start-lock-'));
    const lockFile = join(lockDir, 'pglite.lock');
    const env = { DATA_DIR: lockDir, SEED: 'none', DATABASE_URL: '', SHUTDOWN_DRAIN_MS: '0' };
    try {
      const port = await freePort();
      const first = startServer({ ...env, PORT: String(port) });
      servers.push(first);
      await first.ready;

      const second = startServer({ ...env, PORT: String(await freePort()) });
      servers.push(second);
      const outcome = await Promise.race([second.exited, second.ready.then(() => 'serving')]);
      if (outcome === 'serving') await second.stop();
      expect(outcome).not.toBe('serving');
      expect(outcome).not.toBe(0);
      const owner = readFileSync(lockFile, 'utf8').trim();
      expect(second.output()).toContain(
        `The data folder ${join(lockDir, 'pglite')} is in use by process ${owner}`,
      );
      expect((await fetch(`http://127.0.0.1:${port}/api/health`)).status).toBe(200);
      await first.stop();
      expect(existsSync(lockFile)).toBe(false);

      // A lock left by a process that no longer runs (killed, the machine rebooted).
      const dead = spawn(process.execPath, ['-e', '']);
      await new Promise((resolve) => dead.once('exit', resolve));
      writeFileSync(lockFile, `${dead.pid}\n`);
      const third = startServer({ ...env, PORT: String(port) });
      servers.push(third);
      await third.ready;
      expect((await fetch(`http://127.0.0.1:${port}/api/health`)).status).toBe(200);
      expect(readFileSync(lockFile, 'utf8').trim()).not.toBe(String(dead.pid));
      await third.stop();
    } finally {
      rmSync(lockDir, { recursive: true, force: true });
    }
  }, 180_000);
});
