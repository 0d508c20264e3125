/**
 * Real processes for the fault tests: the server as a child process (so a crash is an exit the test
 * sees) and a throwaway PostgreSQL cluster on a free port (never the shared one on 5432).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGLITE_NODE_FLAGS } from '../node-flags.ts';
export { freePort } from '../free-port.ts';
import { freePort } from '../free-port.ts';

/** Resolves once `condition` holds, checking every `everyMs`; rejects with `what` after `timeoutMs`. */
export async function waitFor<T>(
  what: string,
  condition: () => T | undefined | false | Promise<T | undefined | false>,
  timeoutMs = 60_000,
  everyMs = 100,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await condition();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}

export interface ServerProcess {
  child: ChildProcess;
  base: string;
  output(): string;
  /** Resolves when the server prints its address; rejects when it exits first. */
  ready: Promise<void>;
  /** Exit code (or signal name) once the process ended. */
  exited: Promise<number | string>;
  hasExited(): boolean;
  /** SIGTERM and the exit code. */
  stop(): Promise<number | string>;
}

/** `server/server.ts` in its own node process (no npm or npx in between: signals and exit codes are its own). */
export function startServer(env: Record<string, string>): ServerProcess {
  let out = '';
  let ended = false;
  const child = spawn(process.execPath, [...PGLITE_NODE_FLAGS, '--import', 'tsx', 'server/server.ts'], {
    env: { ...process.env, HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const exited = new Promise<number | string>((resolve) =>
    child.once('exit', (code, signal) => {
      ended = true;
      resolve(code ?? signal ?? 'unknown');
    }),
  );
  const ready = new Promise<void>((resolve, reject) => {
    const timer = setInterval(() => {
      if (out.includes('Service desk running')) {
        clearInterval(timer);
        resolve();
      }
    }, 100);
    void exited.then((code) => {
      clearInterval(timer);
      reject(new Error(`server exited with ${code}: ${out}`));
    });
  });
  ready.catch(() => undefined);
  return {
    child,
    base: `http://127.0.0.1:${env.PORT}`,
    output: () => out,
    ready,
    exited,
    hasExited: () => ended,
    async stop() {
      if (!ended) child.kill('SIGTERM');
      return exited;
    },
  };
}

/** The newest PostgreSQL server's binaries on this machine, if any. */
const PG_BIN: string | undefined = (() => {
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root) ? readdirSync(root).sort((a, b) => Number(b) - Number(a)) : [];
  return versions.map((v) => join(root, v, 'bin')).find((bin) => existsSync(join(bin, 'initdb')));
})();

/** Whether these server programs are installed (a test that needs them skips without). */
export function hasPostgresPrograms(...programs: string[]): boolean {
  return PG_BIN !== undefined && programs.every((program) => existsSync(join(PG_BIN, program)));
}

function asPostgres(command: string, args: string[]): void {
  if (!PG_BIN) throw new Error('PostgreSQL server binaries (/usr/lib/postgresql/*/bin/initdb) are missing');
  // initdb and pg_ctl refuse to run as root.
  const run =
    process.getuid?.() === 0
      ? spawnSync('runuser', ['-u', 'postgres', '--', join(PG_BIN, command), ...args], { encoding: 'utf8' })
      : spawnSync(join(PG_BIN, command), args, { encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`${command} ${args.join(' ')}: ${run.stdout}${run.stderr}`);
}

export interface Cluster {
  url: string;
  port: number;
  stop(): void;
  /** Starts it again after stop(); nothing when it runs. */
  start(): void;
  /** Pauses every process of the cluster (SIGSTOP): connections stay open and nothing answers. */
  freeze(): void;
  thaw(): void;
  destroy(): void;
}

/** A temporary folder that the postgres user may write (initdb and pg_basebackup run as it). */
function postgresFolder(): string {
  const dir = mkdtempSync(join(tmpdir(), 'sd-pg-'));
  if (process.getuid?.() === 0) {
    const ids = spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' });
    const gid = spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' });
    chownSync(dir, Number(ids.stdout), Number(gid.stdout));
  }
  return dir;
}

/** A new cluster in a temporary folder owned by postgres, trust auth, on a free loopback port. */
export async function startCluster(): Promise<Cluster> {
  const dir = postgresFolder();
  const data = join(dir, 'data');
  const port = await freePort();
  asPostgres('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync']);
  return runCluster(dir, data, port);
}

/**
 * A streaming hot standby of `primary` (pg_basebackup -R -X stream, so it follows the primary from
 * the copy on) in a folder of its own, on another free loopback port. Destroy it before the primary.
 */
export async function startStandby(primary: Cluster): Promise<Cluster> {
  const dir = postgresFolder();
  const data = join(dir, 'data');
  const port = await freePort();
  asPostgres('pg_basebackup', [
    '-h',
    '127.0.0.1',
    '-p',
    String(primary.port),
    '-U',
    'postgres',
    '-D',
    data,
    '-R',
    '-X',
    'stream',
    // Start at once, not after a spread checkpoint (seconds on an idle primary).
    '-c',
    'fast',
  ]);
  return runCluster(dir, data, port);
}

function runCluster(dir: string, data: string, port: number): Cluster {
  let running = false;
  const start = () => {
    if (running) return;
    asPostgres('pg_ctl', [
      '-D',
      data,
      '-l',
      join(dir, 'log'),
      '-o',
      `-p ${port} -k /tmp -c listen_addresses=127.0.0.1 -c fsync=off`,
      '-w',
      'start',
    ]);
    running = true;
  };
  start();
  let destroyed = false;
  let frozen: number[] = [];
  const processes = () => {
    const postmaster = Number(readFileSync(join(data, 'postmaster.pid'), 'utf8').split('\n')[0]);
    const children = spawnSync('ps', ['-o', 'pid=', '--ppid', String(postmaster)], { encoding: 'utf8' });
    return [postmaster, ...children.stdout.split('\n').filter(Boolean).map(Number)];
  };
  const thaw = () => {
    for (const pid of frozen) process.kill(pid, 'SIGCONT');
    frozen = [];
  };
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    stop() {
      asPostgres('pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop']);
      running = false;
    },
    start,
    freeze() {
      frozen = processes();
      for (const pid of frozen) process.kill(pid, 'SIGSTOP');
    },
    thaw,
    destroy() {
      if (destroyed) return;
      destroyed = true;
      if (frozen.length) thaw();
      try {
        asPostgres('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
      } catch {
        // already stopped
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
