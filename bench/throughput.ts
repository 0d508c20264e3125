/**
 * Section 3: autocannon in a process of its own against the default list page, against a minimal
 * Fastify route running the page's own statements through its own `pg` pool (issue 17, target 2;
 * PostgreSQL only), and against a bare Fastify route answering the same page from memory (each in a
 * process of its own), at 1, 8 and 32 connections.
 */
import type { ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import type { Statement } from './capture.ts';
import { output, start, stop, waitForLine } from './processes.ts';
import { mark, ms, table } from './stats.ts';

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
  /** The same statements through a bare `pg` pool and route: the stack's own limit (PostgreSQL only). */
  sql?: LoadResult;
  bare: LoadResult;
  /** API requests/s over the bare route's. */
  ratio: number;
  /** API requests/s over the `pg` route's (target ≥ 0.7 at 8 and 32 connections). */
  sqlRatio?: number;
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
  options: {
    seconds: number;
    connections: number[];
    /** The page's statements and their database: the `pg` route runs them. */
    sql?: { statements: Statement[]; databaseUrl: string };
  },
): Promise<ThroughputRow[]> {
  const file = (name: string, text: string) => {
    const path = join(tmpdir(), `bench-${name}-${process.pid}.json`);
    writeFileSync(path, text);
    return path;
  };
  const pageFile = file('page', page);
  const bare = start(TSX, ['bench/bare-server.ts', pageFile]);
  const sqlServer = options.sql
    ? start(
        TSX,
        ['bench/sql-server.ts', pageFile, file('statements', JSON.stringify(options.sql.statements))],
        {
          ...process.env,
          BENCH_DATABASE_URL: options.sql.databaseUrl,
        },
      )
    : undefined;
  try {
    const urlOf = async (child: ChildProcess) => {
      const [, port] = await waitForLine(child, /listening (\d+)/);
      return `http://127.0.0.1:${port}/page`;
    };
    const bareUrl = await urlOf(bare);
    const sqlUrl = sqlServer ? await urlOf(sqlServer) : undefined;
    const auth = [`Authorization=Bearer ${token}`];
    // A short warm-up of each: JIT, connection pools, PostgreSQL's cache.
    await autocannon(apiUrl, 8, 2, auth);
    if (sqlUrl) await autocannon(sqlUrl, 8, 2, []);
    await autocannon(bareUrl, 8, 2, []);
    const rows: ThroughputRow[] = [];
    for (const connections of options.connections) {
      const api = await autocannon(apiUrl, connections, options.seconds, auth);
      const sql = sqlUrl ? await autocannon(sqlUrl, connections, options.seconds, []) : undefined;
      const bareResult = await autocannon(bareUrl, connections, options.seconds, []);
      rows.push({
        connections,
        api,
        sql,
        bare: bareResult,
        ratio: api.rps / bareResult.rps,
        sqlRatio: sql ? api.rps / sql.rps : undefined,
      });
    }
    return rows;
  } finally {
    await stop(bare);
    if (sqlServer) await stop(sqlServer);
  }
}

/**
 * Section 3's table. Targets: the API at least 70 % of the `pg` route's requests/s at 8 and 32
 * connections; at 32 its p99 at most 25 ms (issue 17) and at most 1.5 times the `pg` route's (issue 40).
 */
export function throughputTable(rows: ThroughputRow[]): string {
  return table(
    [
      'connections',
      'API req/s',
      'API p50',
      'API p99',
      'pg route req/s',
      'pg p99',
      'API/pg',
      'bare req/s',
      'bare p99',
      'API/bare',
      'target',
    ],
    rows.map((r) => [
      r.connections,
      r.api.rps.toFixed(0),
      ms(r.api.p50),
      ms(r.api.p99),
      r.sql ? r.sql.rps.toFixed(0) : '-',
      r.sql ? ms(r.sql.p99) : '-',
      r.sqlRatio !== undefined ? r.sqlRatio.toFixed(2) : '-',
      r.bare.rps.toFixed(0),
      ms(r.bare.p99),
      r.ratio.toFixed(3),
      [
        ...(r.sqlRatio !== undefined && r.connections >= 8 ? [`API/pg>=0.7 ${mark(r.sqlRatio >= 0.7)}`] : []),
        ...(r.connections === 32 ? [`p99<=25ms ${mark(r.api.rps > 0 && r.api.p99 <= 25)}`] : []),
        ...(r.connections === 32 && r.sql
          ? [`p99<=1.5*pg ${mark(r.api.rps > 0 && r.api.p99 <= 1.5 * r.sql.p99)}`]
          : []),
        ...(r.api.errors ? [`${r.api.errors} errors`] : []),
      ].join(', ') || '-',
    ]),
  );
}
