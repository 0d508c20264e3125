/**
 * `npm start` as a newcomer runs it: a fresh data folder is created, migrated and seeded, the address
 * and demo accounts are printed; a second start reuses the folder without seeding again.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const port = (server.address() as { port: number }).port;
      server.close(() => resolve(port));
    });
  });
}

function start(env: Record<string, string>): {
  child: ChildProcess;
  output: () => string;
  ready: Promise<void>;
} {
  let out = '';
  const child = spawn('npm', ['start', '--silent'], {
    env: { ...process.env, ...env, LOG_LEVEL: 'warn' },
    detached: true,
  });
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

async function stop(child: ChildProcess) {
  const exited = new Promise((resolve) => child.once('exit', resolve));
  process.kill(-child.pid!, 'SIGTERM');
  await exited;
}

describe('npm start', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'sd-start-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

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
});
