/**
 * Where an API process's CPU goes on the default list under steady load (issue 40): `server/server.ts`
 * under `node --cpu-prof` on the benchmark's PostgreSQL database, signed in as the demo admin, and
 * autocannon (its own process) on the back office's default list; then the bench's bare `pg` route
 * (bench/sql-server.ts) the same way, running the statements that very list call ran. Each profile is
 * summarised by bucket (bench/profile-summary.ts) over the measured run only (not start-up or warm-up).
 * Usage: BENCH_DATABASE_URL=postgres://… npx tsx bench/profile.ts [--seconds 20] [--connections 8]
 * [--no-profile] (each process's CPU per request from /proc is printed either way)
 * (the data set must exist: run the bench once first). The .cpuprofile files stay in a temp folder
 * that is printed, for Chrome's DevTools or speedscope.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { buildApp } from '../server/app.ts';
import { configFromEnv } from '../server/config.ts';
import { openDatabase } from '../server/db/database.ts';
import { registry } from '../server/schema/registry.ts';
import { attributeRequests, StatementCapture, type Statement } from './capture.ts';
import { closeAgent, login, request } from './http.ts';
import { start, stop, waitForLine } from './processes.ts';
import { freePort } from '../tests/free-port.ts';
import { summarise, summaryText, type CpuProfile } from './profile-summary.ts';
import { DEFAULT_LIST } from './scenarios.ts';
import { autocannon, type LoadResult } from './throughput.ts';
import { processCpuMs } from './cpu.ts';

const url = process.env.BENCH_DATABASE_URL;
if (!url) throw new Error('BENCH_DATABASE_URL is needed (the profile is of the PostgreSQL set-up)');
const option = (name: string, fallback: number) => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
};
const seconds = option('--seconds', 20);
const connections = option('--connections', 8);
/** --no-profile: the same runs without the profiler, for the processes' CPU per request unprofiled. */
const profiling = !process.argv.includes('--no-profile');
const folder = mkdtempSync(join(tmpdir(), 'bench-profile-'));
const load = () =>
  loadavg()
    .map((n) => n.toFixed(2))
    .join(' ');

/** The default list's statements and answer, captured from the product's app as section 3 does. */
async function capturedCall(): Promise<{ statements: Statement[]; page: string }> {
  const database = await openDatabase({ url: url!, poolSize: 2 });
  const capture = new StatementCapture(database.db);
  const config = {
    ...configFromEnv({ ...process.env, DATABASE_URL: '' }),
    jwtSecret: randomBytes(32).toString('hex'),
  };
  const app = await buildApp({ db: capture.attach(), registry: registry(), config, logger: false });
  attributeRequests(app.server);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  try {
    const token = await login(base, 'admin@example.com');
    let page = '';
    const statements = await capture.record(async (h) => {
      const res = await request(base + DEFAULT_LIST, { headers: { authorization: `Bearer ${token}`, ...h } });
      if (res.status !== 200) throw new Error(`the default list answered ${res.status}`);
      page = res.body;
    });
    return { statements, page };
  } finally {
    closeAgent();
    await app.close();
    await database.close();
  }
}

/** One profiled process under load: warm-up, then the measured run; its profile summarised. */
async function profiled(
  name: string,
  child: ChildProcess,
  spawnedAt: number,
  target: string,
  headers: string[],
): Promise<{ run: LoadResult; text: string }> {
  await autocannon(target, connections, 5, headers);
  const from = (performance.now() - spawnedAt) / 1000;
  const cpuBefore = processCpuMs(child.pid!) ?? NaN;
  const run = await autocannon(target, connections, seconds, headers);
  const cpuMs = (processCpuMs(child.pid!) ?? NaN) - cpuBefore;
  const to = (performance.now() - spawnedAt) / 1000;
  await stop(child);
  const cpu = `process CPU (/proc, user + system): ${(cpuMs / run.requests).toFixed(3)} ms per request`;
  if (!profiling) return { run, text: cpu };
  // Node writes one profile per thread (CPU.<date>.<time>.<pid>.<thread>.<n>): tsx's module loader
  // runs in a thread of its own; the requests are served by the main thread, 0.
  const dir = join(folder, name);
  const file = readdirSync(dir).find((f) => /^CPU\.\d+\.\d+\.\d+\.0\.\d+\.cpuprofile$/.test(f));
  if (!file) throw new Error(`${name}: no main thread's profile written in ${dir}`);
  const profile = JSON.parse(readFileSync(join(dir, file), 'utf8')) as CpuProfile;
  return { run, text: `${cpu}\n${summaryText(summarise(profile, { from, to }, 20), run.requests)}` };
}

const cpuProf = (name: string) => [
  ...(profiling ? ['--cpu-prof', `--cpu-prof-dir=${join(folder, name)}`] : []),
  '--import',
  'tsx',
];
const report = (name: string, { run, text }: { run: LoadResult; text: string }) =>
  console.log(
    `\n## ${name}: ${run.rps.toFixed(0)} req/s, p50 ${run.p50} ms, p99 ${run.p99} ms, ${run.errors} errors ` +
      `(${connections} connections, ${seconds} s, ${profiling ? 'profiled' : 'not profiled'}; load ${load()})\n${text}`,
  );

console.log(`profile of the default list, ${new Date().toISOString()}, load ${load()}\n${DEFAULT_LIST}`);
const { statements, page } = await capturedCall();
const statementsFile = join(folder, 'statements.json');
const pageFile = join(folder, 'page.json');
writeFileSync(statementsFile, JSON.stringify(statements));
writeFileSync(pageFile, page);

// The API: the product's server process, as section 6 starts an instance.
const port = await freePort();
let spawnedAt = performance.now();
const api = start(process.execPath, [...cpuProf('api'), 'server/server.ts'], {
  ...process.env,
  PORT: String(port),
  HOST: '127.0.0.1',
  DATABASE_URL: url,
  DATABASE_POOL_SIZE: '10',
  DATA_DIR: join(folder, 'web'),
  SEED: 'none',
  LOG_LEVEL: 'warn',
  SHUTDOWN_DRAIN_MS: '0',
  ACCESS_TOKEN_SECONDS: String(4 * 3600),
});
await waitForLine(api, /Service desk running/, 180_000);
const base = `http://127.0.0.1:${port}`;
const token = await login(base, 'admin@example.com');
const first = await request(base + DEFAULT_LIST, { headers: { authorization: `Bearer ${token}` } });
if (first.status !== 200) throw new Error(`the default list answered ${first.status}`);
closeAgent();
report(
  'API (server/server.ts)',
  await profiled('api', api, spawnedAt, base + DEFAULT_LIST, [`Authorization=Bearer ${token}`]),
);

// The bare pg route with the same statements and page.
spawnedAt = performance.now();
const sql = start(process.execPath, [...cpuProf('sql'), 'bench/sql-server.ts', pageFile, statementsFile], {
  ...process.env,
  BENCH_DATABASE_URL: url,
});
const [, sqlPort] = await waitForLine(sql, /listening (\d+)/);
report(
  'pg route (bench/sql-server.ts)',
  await profiled('sql', sql, spawnedAt, `http://127.0.0.1:${sqlPort}/page`, []),
);
console.log(`\nprofiles: ${folder}`);
