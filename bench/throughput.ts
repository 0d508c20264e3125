/**
 * Section 3: autocannon in a process of its own against the default list page, and against a bare
 * Fastify route answering the same page from memory (another process), at 1, 8 and 32 connections.
 */
import type { ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { output, start, stop, waitForLine } from './processes.ts';

export interface LoadResult {
  connections: number;
  /** Responses in the run, and the run's length in seconds. */
  requests: number;
  seconds: number;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
}

export interface ThroughputRow {
  connections: number;
  api: LoadResult;
  bare: LoadResult;
  ratio: number;
}

const AUTOCANNON = join('node_modules', '.bin', 'autocannon');
const TSX = join('node_modules', '.bin', 'tsx');

/** One autocannon run; `started` sees its process (the instances section measures its CPU). */
export async function autocannon(
  url: string,
  connections: number,
  seconds: number,
  headers: string[],
  started?: (child: ChildProcess) => void,
): Promise<LoadResult> {
  const args = [
    '-j',
    '-c',
    String(connections),
    '-d',
    String(seconds),
    ...headers.flatMap((h) => ['-H', h]),
    url,
  ];
  const result = JSON.parse(await output(AUTOCANNON, args, process.env, started)) as {
    requests: { average: number; total: number };
    duration: number;
    latency: { p50: number; p99: number };
    errors: number;
    non2xx: number;
    timeouts: number;
  };
  return {
    connections,
    requests: result.requests.total,
    seconds: result.duration,
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.non2xx + result.timeouts,
  };
}

export async function measureThroughput(
  apiUrl: string,
  token: string,
  page: string,
  options: { seconds: number; connections: number[] },
): Promise<ThroughputRow[]> {
  const file = join(tmpdir(), `bench-page-${process.pid}.json`);
  writeFileSync(file, page);
  const bare = start(TSX, ['bench/bare-server.ts', file]);
  try {
    const [, port] = await waitForLine(bare, /listening (\d+)/);
    const bareUrl = `http://127.0.0.1:${port}/page`;
    const auth = [`Authorization=Bearer ${token}`];
    // A short warm-up of both: JIT, connection pools, PostgreSQL's cache.
    await autocannon(apiUrl, 8, 2, auth);
    await autocannon(bareUrl, 8, 2, []);
    const rows: ThroughputRow[] = [];
    for (const connections of options.connections) {
      const api = await autocannon(apiUrl, connections, options.seconds, auth);
      const bareResult = await autocannon(bareUrl, connections, options.seconds, []);
      rows.push({ connections, api, bare: bareResult, ratio: api.rps / bareResult.rps });
    }
    return rows;
  } finally {
    await stop(bare);
  }
}
