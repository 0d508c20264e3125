/** Child processes of the benchmark: started, waited for, and always stopped again. */
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { request } from './http.ts';

export { freePort } from '../tests/free-port.ts';

const children = new Set<ChildProcess>();

export function start(command: string, args: string[], env: NodeJS.ProcessEnv = process.env): ChildProcess {
  // A process group of its own, so stopping it also stops what it started (npm -> tsx -> node).
  const child = spawn(command, args, { env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  children.add(child);
  child.on('exit', () => children.delete(child));
  // A command that cannot be started emits 'error' and never 'exit': the waiters below fail on it.
  child.on('error', () => children.delete(child));
  return child;
}

/** Resolves with the first stdout line that matches; rejects when the process ends first. */
export function waitForLine(
  child: ChildProcess,
  pattern: RegExp,
  timeoutMs = 60_000,
): Promise<RegExpMatchArray> {
  return new Promise((resolve, reject) => {
    let buffer = '';
    let errors = '';
    const timer = setTimeout(
      () => reject(new Error(`no line matching ${pattern} within ${timeoutMs} ms`)),
      timeoutMs,
    );
    child.stderr?.on('data', (c: Buffer) => (errors = (errors + c.toString()).slice(-2000)));
    child.stdout?.on('data', (c: Buffer) => {
      buffer += c.toString();
      const match = buffer.match(pattern);
      if (match) {
        clearTimeout(timer);
        resolve(match);
      }
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`process ended (${code}) before ${pattern}: ${errors}`));
    });
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
  });
}

/** Runs a command to its end and returns its stdout; `started` sees the process (e.g. to measure it). */
export function output(
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv = process.env,
  started?: (child: ChildProcess) => void,
): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = start(command, args, env);
    started?.(child);
    let out = '';
    let err = '';
    child.stdout?.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr?.on('data', (c: Buffer) => (err = (err + c.toString()).slice(-4000)));
    child.on('exit', (code) =>
      code === 0 ? resolve(out) : reject(new Error(`${command} ended with ${code}: ${err}`)),
    );
    child.on('error', reject);
  });
}

export async function stop(child: ChildProcess, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  if (child.exitCode !== null || child.pid === undefined) return;
  const ended = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    process.kill(-child.pid, signal);
  } catch {
    return;
  }
  const timer = setTimeout(() => {
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      // already gone
    }
  }, 10_000);
  await ended;
  clearTimeout(timer);
}

/**
 * Asks `condition` until it holds (every `intervalMs`: a poll interval, not a wait for time); fails after
 * `timeoutMs`, naming `what` it waited for.
 */
export async function waitUntil(
  what: string,
  condition: () => Promise<boolean>,
  timeoutMs: number,
  intervalMs = 100,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

/**
 * The environment of a server the bench starts on an embedded (PGlite) data folder, on loopback: only
 * warnings logged, and no DATABASE_URL from the caller's shell, which would send it to PostgreSQL.
 */
export function embeddedServerEnv(port: number, dataDir: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    HOST: '127.0.0.1',
  };
  delete env.DATABASE_URL;
  return env;
}

/**
 * Waits until the server `child` started answers 200 on `base`/api/health; fails when it ends first.
 * Asked every 25 ms, since embedded.ts measures the start to that precision; `meanwhile` runs before
 * each ask (embedded.ts samples the memory of the starting server).
 */
export async function waitForHealth(
  child: ChildProcess,
  base: string,
  timeoutMs: number,
  meanwhile?: () => void,
): Promise<void> {
  await waitUntil(
    `a ready ${base}/api/health`,
    async () => {
      if (child.exitCode !== null)
        throw new Error(`the server ended with ${child.exitCode} before it was ready`);
      meanwhile?.();
      const res = await request(`${base}/api/health`).catch(() => null);
      return res?.status === 200;
    },
    timeoutMs,
    25,
  );
}

export async function stopAll(): Promise<void> {
  await Promise.all([...children].map((c) => stop(c)));
}

/** Every process of a process tree, from /proc (Linux). */
export function processTree(rootPid: number): number[] {
  const parents = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      parents.set(ppid, [...(parents.get(ppid) ?? []), Number(entry)]);
    } catch {
      // the process ended meanwhile
    }
  }
  const out: number[] = [];
  const walk = (pid: number) => {
    out.push(pid);
    for (const child of parents.get(pid) ?? []) walk(child);
  };
  walk(rootPid);
  return out;
}

/** Peak resident memory (VmHWM) of a process, in bytes; 0 when it is gone. */
export function peakMemory(pid: number): number {
  try {
    const match = readFileSync(`/proc/${pid}/status`, 'utf8').match(/VmHWM:\s+(\d+) kB/);
    return match ? Number(match[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}
