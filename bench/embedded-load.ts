/**
 * Section 5, issue 17 target 6: a small office on the embedded database. The server (`tsx
 * server/server.ts`, a process of its own) runs on a PGlite data folder with the demo data; 16 users
 * call it at once, each one call after another: 70 % the back office's default ticket list (as the
 * screen sends it: ./app-requests.ts), 30 % writes, half of them a new ticket and half a message on a ticket. Read and write
 * latencies, and the calls that did not answer 2xx.
 */
import { join } from 'node:path';
import { embeddedServerEnv, freePort, start, stop, waitForHealth } from './processes.ts';
import { percentile } from './stats.ts';
import { ticketListPath } from './app-requests.ts';

export interface EmbeddedLoadResult {
  users: number;
  seconds: number;
  reads: { count: number; p50: number; p99: number };
  writes: { count: number; p50: number; p99: number };
  errors: number;
  /** The first few errors, as `status path`. */
  errorSamples: string[];
}

export const EMBEDDED_USERS = 16;
const READ_SHARE = 0.7;
const READ_PATH = ticketListPath({ app: 'backoffice' });

async function login(base: string, email: string): Promise<string> {
  const res = await fetch(`${base}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: email, password: 'demo' }),
  });
  if (!res.ok) throw new Error(`login ${email}: ${res.status}`);
  return ((await res.json()) as { access_token: string }).access_token;
}

/**
 * `dataDir`: a PGlite folder with the demo data (made by the server's first start when missing; that
 * start is not measured). The writes add tickets and messages to it.
 */
export async function measureEmbeddedLoad(
  dataDir: string,
  seconds: number,
  users = EMBEDDED_USERS,
): Promise<EmbeddedLoadResult> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const child = start(
    join('node_modules', '.bin', 'tsx'),
    ['server/server.ts'],
    embeddedServerEnv(port, dataDir),
  );
  try {
    await waitForHealth(child, base, 180_000);
    return await officeLoad(base, seconds, users);
  } finally {
    await stop(child);
  }
}

/** Seconds of the same load before the measured ones. */
const WARM_UP_SECONDS = 2;

/** The office's load against a running server with the demo data at `base`. */
export async function officeLoad(
  base: string,
  seconds: number,
  users = EMBEDDED_USERS,
): Promise<EmbeddedLoadResult> {
  {
    const token = await login(base, 'admin@example.com');
    const headers = { authorization: `Bearer ${token}` };
    const first = (await (await fetch(`${base}${READ_PATH}`, { headers })).json()) as {
      data: { id: number }[];
    };
    const ticketIds = first.data.map((t) => t.id);
    const reads: number[] = [];
    const writes: number[] = [];
    const errorSamples: string[] = [];
    let errors = 0;
    let n = 0;
    // A short warm-up of the same mix whose times are not counted (its errors are): the server has just
    // started, and its first calls (JIT, the database's caches) are slower than an office's steady day.
    const warmUntil = performance.now() + WARM_UP_SECONDS * 1000;
    const call = async (path: string, init: RequestInit, into: number[]) => {
      const t0 = performance.now();
      try {
        const res = await fetch(`${base}${path}`, { ...init, headers: { ...headers, ...init.headers } });
        await res.arrayBuffer();
        if (t0 >= warmUntil) into.push(performance.now() - t0);
        if (!res.ok) {
          errors++;
          if (errorSamples.length < 5) errorSamples.push(`${res.status} ${path}`);
        }
      } catch (error) {
        errors++;
        if (errorSamples.length < 5) errorSamples.push(`${(error as Error).message} ${path}`);
      }
    };
    const until = warmUntil + seconds * 1000;
    const user = async () => {
      while (performance.now() < until) {
        n++;
        if (Math.random() < READ_SHARE) {
          await call(READ_PATH, {}, reads);
        } else if (n % 2 === 0) {
          const body = JSON.stringify({ description: `Bench ticket ${n}` });
          await call(
            '/api/tickets',
            { method: 'POST', body, headers: { 'content-type': 'application/json' } },
            writes,
          );
        } else {
          const form = new FormData();
          form.set('morphable_type', 'ticket');
          form.set('morphable_id', String(ticketIds[n % ticketIds.length]));
          form.set('message', `<p>Bench message ${n}</p>`);
          await call('/api/messages', { method: 'POST', body: form }, writes);
        }
      }
    };
    await Promise.all(Array.from({ length: users }, user));
    const figures = (list: number[]) => ({
      count: list.length,
      p50: percentile(list, 50),
      p99: percentile(list, 99),
    });
    return { users, seconds, reads: figures(reads), writes: figures(writes), errors, errorSamples };
  }
}
