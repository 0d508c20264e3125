/**
 * The real server (built apps, PGlite database with demo data) in a child process on a free port, for the
 * browser tests: each worker's own server (fixtures.ts), and servers a spec configures itself (SMTP, single
 * sign-on, PUBLIC_URL). Seeding takes most of a minute, so global-setup seeds one folder
 * (tests/seed-folder.ts) and every server starts on a copy of it (E2E_SEEDED_DIR).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGLITE_NODE_FLAGS } from '../node-flags.ts';
export { freePort } from '../free-port.ts';
import { freePort } from '../free-port.ts';

export interface E2eServer {
  baseURL: string;
  dataDir: string;
  /** Ends the server and waits for its exit code; the folder stays. */
  close(): Promise<number | null>;
  /** Ends the server and removes its folder. */
  stop(): Promise<void>;
  /** What the server wrote so far (warnings and errors: LOG_LEVEL warn), for a failed test's report. */
  output(): string;
}

/** Where global-setup leaves the seeded, closed data folder for the servers to copy. */
export const SEEDED_DIR_ENV = 'E2E_SEEDED_DIR';

/**
 * Ends the server and waits until its process is gone: PGlite writes its folder and releases its lock on
 * close, so only then is the folder complete (to copy) and free (to remove).
 */
async function stopProcess(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  // The server runs detached, in a process group of its own.
  process.kill(-child.pid!, 'SIGTERM');
  return exited;
}

/**
 * Starts `server/server.ts` with `env` over the defaults on a new data folder, a copy of `seeded` (by
 * default the one global-setup made; none: an empty folder, which the server seeds), and waits (at most
 * 2 minutes) until /api/health answers. `port` lets a caller that needs the address beforehand
 * (PUBLIC_URL) choose it; `cwd` runs another copy of the project (its schemas, migrations and build).
 */
export async function startServer(
  env: NodeJS.ProcessEnv = {},
  { port, seeded = process.env[SEEDED_DIR_ENV], cwd }: { port?: number; seeded?: string; cwd?: string } = {},
): Promise<E2eServer> {
  const listenOn = port ?? (await freePort());
  const dataDir = mkdtempSync(join(tmpdir(), 'sd-e2e-'));
  if (seeded) cpSync(seeded, dataDir, { recursive: true });
  const child = spawn(process.execPath, [...PGLITE_NODE_FLAGS, '--import', 'tsx', 'server/server.ts'], {
    env: {
      ...process.env,
      PORT: String(listenOn),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      DATABASE_URL: '',
      // The faults a test asks for with the X-E2E-Fault header (server/http/faults.ts): both keys.
      E2E_FAULTS: '1',
      // Every answer checked against what its response schema writes (server/http/serialization-check.ts).
      SERIALIZATION_CHECK: '1',
      // No deadline check: it tells the demo's operators of the seed's deadlines (yesterday's passed,
      // today's an hour away) at a time that depends on the clock and the worker's start, so a bell
      // count a journey reads would change under it (live.spec.ts once saw 4 unread for 3). The check
      // is tested in tests/api/live-notifications.test.ts; a journey that needs it passes
      // DEADLINE_CHECK_MS.
      DEADLINE_CHECK_MS: '0',
      // A spec's own request client (page.request, Node's agent) drops an idle socket 1 s before the
      // server's announced keep-alive ends; on a loaded machine its timer fired late, it sent on a socket
      // the server was closing, and the call failed with ECONNRESET (reports.spec.ts, CI of 2026-12-04).
      // Browsers retry such a request; Node's agent does not. Kept longer than any test, no socket of a
      // test ends under it. The limit itself is tested in tests/api/connection-limits.test.ts.
      HTTP_KEEP_ALIVE_TIMEOUT_MS: '300000',
      NODE_ENV: 'test',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
    cwd,
  });
  let output = '';
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  const close = () => stopProcess(child);
  const stop = async () => {
    await close();
    rmSync(dataDir, { recursive: true, force: true });
  };
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
      await stop();
      throw new Error(`server did not start: ${output}`);
    }
    // A poll interval, not a wait for time: the loop ends when the server answers.
    await new Promise((r) => setTimeout(r, 250));
  }
  return { baseURL, dataDir, close, stop, output: () => output };
}
