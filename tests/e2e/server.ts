/**
 * The real server (built apps, fresh PGlite database with demo data) in a child process on a free port,
 * for the browser tests: the shared demo server of global-setup, and servers a spec configures itself
 * (SMTP, single sign-on, PUBLIC_URL).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface E2eServer {
  baseURL: string;
  /** The process group to stop (the server runs detached, in a group of its own). */
  pid: number;
  dataDir: string;
  stop(): Promise<void>;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** Stops a server started by startServer (also from another process: global-teardown). */
export async function stopServer({ pid, dataDir }: { pid: number; dataDir: string }): Promise<void> {
  try {
    process.kill(-pid, 'SIGTERM');
  } catch {
    /* already gone */
  }
  await new Promise((r) => setTimeout(r, 500));
  rmSync(dataDir, { recursive: true, force: true });
}

/**
 * Starts `server/server.ts` with `env` over the defaults, and waits (at most 2 minutes) until
 * /api/health answers. `port` lets a caller that needs the address beforehand (PUBLIC_URL) choose it.
 */
export async function startServer(env: NodeJS.ProcessEnv = {}, port?: number): Promise<E2eServer> {
  const listenOn = port ?? (await freePort());
  const dataDir = mkdtempSync(join(tmpdir(), 'sd-e2e-'));
  const child = spawn('npx', ['tsx', 'server/server.ts'], {
    env: {
      ...process.env,
      PORT: String(listenOn),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      DATABASE_URL: '',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  const baseURL = `http://127.0.0.1:${listenOn}`;
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited: ${output}`);
    try {
      if ((await fetch(`${baseURL}/api/health`)).ok) break;
    } catch {
      /* not listening yet */
    }
    if (Date.now() > deadline) {
      await stopServer({ pid: child.pid!, dataDir });
      throw new Error(`server did not start: ${output}`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  const pid = child.pid!;
  return { baseURL, pid, dataDir, stop: () => stopServer({ pid, dataDir }) };
}
