/**
 * Section 2: each scenario's API call over HTTP (auth, query-string parsing, whitelist, SQL, JSON)
 * against the same statements run directly from this process, alternating one of each so load from
 * elsewhere on the machine falls on both sides alike.
 */
import pg from 'pg';
import { CompiledQuery } from 'kysely';
import type { Db } from '../server/db/database.ts';
import { replay, type Statement, type StatementCapture } from './capture.ts';
import { request } from './http.ts';
import type { Scenario } from './scenarios.ts';
import { mark, median, ms, percentile, table, type Budget } from './stats.ts';

export interface ScenarioResult {
  name: string;
  statements: number;
  samples: number;
  api: { median: number; p99: number };
  raw: { median: number; p99: number };
  ratio: number;
  /** The answer's size in bytes (uncompressed: the bench asks for no encoding). */
  bytes: number;
  screen: string;
  checked: boolean;
  list: boolean;
  filtered: boolean;
  medianTargetMs?: number;
}

/** Runs captured statements without the API: `pg` straight to PostgreSQL, or PGlite's own query. */
export type RawRunner = (sql: string, parameters: readonly unknown[]) => Promise<unknown>;

export function pgRunner(url: string): { run: RawRunner; close: () => Promise<void> } {
  // The app's pool size, so both sides have the same parallelism.
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  return {
    run: (sql, parameters) => pool.query(sql, parameters as unknown[]),
    close: () => pool.end(),
  };
}

export function kyselyRunner(db: Db): RawRunner {
  return (sql, parameters) => db.executeQuery(CompiledQuery.raw(sql, [...parameters]));
}

export async function measureScenario(
  base: string,
  scenario: Scenario,
  headers: Record<string, string>,
  capture: StatementCapture,
  run: RawRunner,
  budget: Budget,
): Promise<ScenarioResult & { statements_: Statement[] }> {
  const call = async (extra: Record<string, string> = {}) => {
    const res = await request(base + scenario.path, { headers: { ...headers, ...extra } });
    if (res.status !== 200) throw new Error(`${scenario.name}: ${res.status} ${res.body.slice(0, 300)}`);
    return res;
  };
  let bytes = 0;
  for (let i = 0; i < budget.warmup; i++) bytes = (await call()).bytes;
  // Right after a call the caller's auth context is cached: the capture holds what a warm call runs.
  const statements = await capture.record(async (h) => {
    bytes = (await call(h)).bytes;
  });
  for (let i = 0; i < budget.warmup; i++) await replay(statements, run);

  const api: number[] = [];
  const raw: number[] = [];
  const deadline = performance.now() + budget.seconds * 1000;
  while (api.length < budget.samples && (api.length < budget.minSamples || performance.now() < deadline)) {
    let t = performance.now();
    await call();
    api.push(performance.now() - t);
    t = performance.now();
    await replay(statements, run);
    raw.push(performance.now() - t);
  }
  const apiMedian = median(api);
  const rawMedian = median(raw);
  return {
    name: scenario.name,
    statements: statements.length,
    samples: api.length,
    api: { median: apiMedian, p99: percentile(api, 99) },
    raw: { median: rawMedian, p99: percentile(raw, 99) },
    ratio: apiMedian / rawMedian,
    bytes,
    screen: scenario.screen,
    checked: scenario.checked,
    list: scenario.list,
    filtered: scenario.filtered,
    medianTargetMs: scenario.medianTargetMs,
    statements_: statements,
  };
}

/** Section 2's table: each scenario's API and SQL times, its answer and the screen it stands for. */
export function apiTable(results: ScenarioResult[]): string {
  const targetOf = (r: ScenarioResult) => {
    const parts: string[] = [];
    if (r.list) parts.push(`ratio<=1.25 ${mark(r.ratio <= 1.25)}`);
    if (r.filtered) parts.push(`median<=50ms ${mark(r.api.median <= 50)}`);
    if (r.medianTargetMs)
      parts.push(`median<=${r.medianTargetMs}ms ${mark(r.api.median <= r.medianTargetMs)}`);
    return parts.join(', ') || '-';
  };
  const rows = table(
    ['scenario', 'stmts', 'n', 'API p50', 'API p99', 'SQL p50', 'SQL p99', 'ratio', 'answer', 'target'],
    results.map((r) => [
      r.name,
      r.statements,
      r.samples,
      ms(r.api.median),
      ms(r.api.p99),
      ms(r.raw.median),
      ms(r.raw.p99),
      r.ratio.toFixed(2),
      `${(r.bytes / 1000).toFixed(1)} kB`,
      targetOf(r),
    ]),
  );
  const screens = table(
    ['scenario', 'the call of', 'same query string as the app'],
    results.map((r) => [
      r.name,
      r.screen,
      r.checked ? 'checked (tests/e2e/bench-requests.spec.ts)' : 'not compared',
    ]),
  );
  return `${rows}\n\n${screens}`;
}
