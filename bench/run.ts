/**
 * `npm run bench` (issue 7): the API at scale against its physical limits. Prints a table per section
 * and, last, one JSON line with every figure (`--json`: only that line). Figures, not a test: nothing
 * here passes or fails.
 */
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { join, resolve } from 'node:path';
import { buildApp } from '../server/app.ts';
import { configFromEnv } from '../server/config.ts';
import { openDatabase } from '../server/db/database.ts';
import { registry } from '../server/schema/registry.ts';
import { npmConfigArgs, parseArgs, runsSection, ticketCount, type Section } from './args.ts';
import { attributeRequests, StatementCapture } from './capture.ts';
import { ensurePostgresDatabase, prepareDataset } from './dataset.ts';
import { closeAgent, login, request } from './http.ts';
import { apiTable, kyselyRunner, measureScenario, pgRunner, type ScenarioResult } from './api-vs-sql.ts';
import { DEFAULT_LIST, scenarios } from './scenarios.ts';
import { measureThroughput, throughputTable, type ThroughputRow } from './throughput.ts';
import { measureWrites, removeWrites, writesTable } from './writes.ts';
import { lighthouseTable, measureLighthouse } from './lighthouse.ts';
import { measurePortal, portalTable, type PortalResult } from './portal.ts';
import { measureEmbedded, type EmbeddedResult } from './embedded.ts';
import { measureEmbeddedLoad } from './embedded-load.ts';
import { INSTANCES_CONNECTIONS, measureInstances, type InstancesRow } from './instances.ts';
import { instancesTable } from './instances-table.ts';
import { output, stopAll } from './processes.ts';
import { measureReport, planFacts, reportCases, reportScope, type ReportResult } from './reports.ts';
import { checkDeskDays, checkReportDays } from './report-check.ts';
import { mark, ms, round, table } from './stats.ts';

const argv = [...npmConfigArgs(process.env), ...process.argv.slice(2)];
const args = parseArgs(argv);
const print = (text: string) => {
  if (!args.json) console.log(text);
};
const log = (line: string) => console.error(line);
const load = () =>
  loadavg()
    .map((n) => n.toFixed(2))
    .join(' ');
const kb = (bytes: number) => `${(bytes / 1000).toFixed(1)} kB`;
const runs = (section: Section) => runsSection(args, section);

// The children run in process groups of their own (so that stopping one stops its tree), which also
// keeps a Ctrl-C at the terminal from reaching them: stop them here before going.
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    log(`${signal}: stopping the benchmark's processes …`);
    void stopAll().finally(() => process.exit(130));
  });
}

const url = process.env.BENCH_DATABASE_URL || process.env.DATABASE_URL || undefined;
const kind = url ? 'postgres' : 'pglite';
const tickets = ticketCount(args, kind);
const quick = args.quick;
const started = performance.now();

const machine = { cpus: cpus().length, memoryGb: round(totalmem() / 1024 ** 3, 1), node: process.version };
print(`npm run bench ${argv.join(' ')}`.trim());
print(
  `${new Date().toISOString()}  ${machine.cpus} CPUs, ${machine.memoryGb} GB memory, Node ${machine.node}, load average ${load()}`,
);
if (kind === 'pglite') {
  print(
    `No BENCH_DATABASE_URL or DATABASE_URL: running on embedded PGlite with ${tickets.toLocaleString('en')} tickets (set BENCH_DATABASE_URL for PostgreSQL and 1,000,000).`,
  );
}

// ---- 1. data ----
if (url) await ensurePostgresDatabase(url);
const database = await openDatabase(
  url ? { url, poolSize: 10 } : { dataDir: resolve('.bench-data', `pglite-${tickets}`) },
);
const data = await prepareDataset(database.db, kind, tickets, log);
print(`\n## 1. Data (${kind})`);
print(
  table(
    ['tickets', 'companies', 'messages', 'source', 'seconds'],
    [
      [
        data.tickets.toLocaleString('en'),
        data.companies.toLocaleString('en'),
        data.messages.toLocaleString('en'),
        data.reused ? 'reused' : 'generated',
        data.seconds.toFixed(1),
      ],
    ],
  ),
);

// The built apps, as `npm start` has them (built again only when their sources changed), before the
// app starts: it reads the apps' pages once.
if (runs('portal') || runs('lighthouse')) {
  if (!existsSync(join('dist', 'app', 'index.html'))) log('No built apps in dist/: building them …');
  await output(join('node_modules', '.bin', 'tsx'), ['scripts/build-if-stale.ts']);
}

// The product's own app; the capture records a measured request's statements only (attributeRequests).
const capture = new StatementCapture(database.db);
const config = {
  ...configFromEnv({ ...process.env, DATABASE_URL: '' }),
  accessTokenSeconds: 4 * 3600,
  jwtSecret: randomBytes(32).toString('hex'),
};
const app = await buildApp({ db: capture.attach(), registry: registry(), config, logger: false });
attributeRequests(app.server);
await app.listen({ port: Number(process.env.BENCH_PORT ?? 0), host: '127.0.0.1' });
const address = app.server.address();
const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
const tokens = { operator: '', client: '' };
/**
 * One session per account: a browser section that signs in (portal, Lighthouse) ends the bench's own
 * session of that account, so the bench signs in again after them.
 */
async function signIn() {
  tokens.operator = await login(base, 'admin@example.com');
  tokens.client = await login(base, 'client@example.com');
}
await signIn();
const headers = (who: 'operator' | 'client') => ({ authorization: `Bearer ${tokens[who]}` });

/** Every number of a record rounded (undefined stays undefined, so the JSON leaves it out). */
const roundAll = <T extends object>(record: T, digits = 1): T =>
  Object.fromEntries(
    Object.entries(record).map(([k, v]) => [k, typeof v === 'number' ? round(v, digits) : v]),
  ) as T;

/** A section that fails says so and the run goes on to the next one (and to the JSON line). */
async function section(name: Section, body: () => Promise<void>): Promise<void> {
  if (!runs(name)) return;
  try {
    await body();
  } catch (error) {
    const message = error instanceof Error ? error.message.split('\n')[0]! : String(error);
    print(`\n## ${name}: FAILED: ${message}`);
    log(String(error instanceof Error ? error.stack : error));
    figures[name] = { error: message };
  }
}

const figures: Record<string, unknown> = {
  date: new Date().toISOString(),
  command: `npm run bench ${argv.join(' ')}`.trim(),
  machine,
  database: kind,
  loadAverageStart: loadavg(),
  data: { tickets: data.tickets, companies: data.companies, messages: data.messages, reused: data.reused },
};

try {
  // ---- 2. API vs raw SQL ----
  await section('api', async () => {
    const raw = url ? pgRunner(url) : { run: kyselyRunner(database.db), close: async () => {} };
    const budget = quick
      ? { warmup: 3, samples: 60, seconds: 6, minSamples: 15 }
      : { warmup: 5, samples: 200, seconds: 20, minSamples: 30 };
    const results: ScenarioResult[] = [];
    for (const scenario of scenarios(data)) {
      log(`  measuring ${scenario.name} …`);
      const { statements_: _statements, ...r } = await measureScenario(
        base,
        scenario,
        headers(scenario.as),
        capture,
        raw.run,
        budget,
      );
      results.push(r);
    }
    await raw.close();
    print(`\n## 2. API vs raw SQL, same statements, only the measured call's (ms; load ${load()})`);
    print(apiTable(results));
    figures.apiVsSql = results.map((r) => ({
      ...r,
      api: { median: round(r.api.median), p99: round(r.api.p99) },
      raw: { median: round(r.raw.median), p99: round(r.raw.p99) },
      ratio: round(r.ratio),
    }));
  });

  // ---- 2b. writes ----
  await section('writes', async () => {
    const budget = quick
      ? { warmup: 2, samples: 30, seconds: 5, minSamples: 10 }
      : { warmup: 3, samples: 200, seconds: 15, minSamples: 30 };
    const { results, ticketIds } = await measureWrites(base, tokens.operator, capture, budget);
    await removeWrites(base, tokens.operator, ticketIds);
    print(`\n## 2b. Writes, one after another (ms; load ${load()})`);
    print(writesTable(results));
    print(`(the ${ticketIds.length} tickets made, with their messages, deleted again through the API)`);
    figures.writes = results.map((r) => ({ ...r, median: round(r.median), p99: round(r.p99) }));
  });

  // ---- 3. throughput ----
  await section('throughput', async () => {
    const page = await request(base + DEFAULT_LIST, { headers: headers('operator') });
    if (page.status !== 200) throw new Error(`default list answered ${page.status}`);
    // The `pg` route replays the statements this very call runs (PostgreSQL only: PGlite is in-process).
    const statements = await capture.record(async (h) => {
      await request(base + DEFAULT_LIST, { headers: { ...headers('operator'), ...h } });
    });
    const rows: ThroughputRow[] = await measureThroughput(base + DEFAULT_LIST, tokens.operator, page.body, {
      seconds: quick ? 4 : 10,
      connections: [1, 8, 32],
      sql: url ? { statements, databaseUrl: url } : undefined,
    });
    print(
      `\n## 3. Throughput, default list page vs the same statements through a bare pg route, and a bare Fastify route (autocannon; load ${load()})`,
    );
    if (!url) print('(no pg route on PGlite: it needs PostgreSQL)');
    print(throughputTable(rows));
    print(
      `(page body ${page.body.length} bytes, the same for all three; ${statements.length} statement(s) per call)`,
    );
    figures.throughput = rows;
  });

  // ---- 4. portal ----
  await section('portal', async () => {
    const portal: PortalResult = await measurePortal(base, 'client@example.com', 5).finally(signIn);
    print(`\n## 4. Portal load (load ${load()})`);
    print(portalTable(portal));
    if (portal.note) print(portal.note);
    figures.portal = portal;
  });

  // ---- 4b. Lighthouse ----
  await section('lighthouse', async () => {
    const result = await measureLighthouse(base).finally(signIn);
    print(`\n## 4b. Lighthouse, mobile profile (load ${load()})`);
    if (!result.ran) print(`skipped: ${result.reason}`);
    else {
      print(`Lighthouse ${result.lighthouse} in ${result.browser}`);
      print(lighthouseTable(result));
    }
    figures.lighthouse = result;
  });

  // ---- 5. embedded ----
  await section('embedded', async () => {
    const embedded: EmbeddedResult = await measureEmbedded(resolve('.bench-data', 'embedded'));
    print(`\n## 5. Embedded mode: npm start on an existing data folder (load ${load()})`);
    print(
      table(
        ['figure', 'value', 'target'],
        [
          [
            'start -> ready /api/health',
            `${embedded.startSeconds.toFixed(2)} s`,
            `<=5 s ${mark(embedded.startSeconds <= 5)}`,
          ],
          ['peak memory of the server', `${(embedded.peakMemoryBytes / 1024 ** 2).toFixed(0)} MB`, '-'],
        ],
      ),
    );
    // Issue 17 target 6: the same folder under a small office's load.
    const office = await measureEmbeddedLoad(resolve('.bench-data', 'embedded'), quick ? 5 : 15);
    print(
      `\n${office.users} users at once on the embedded database, ${office.seconds} s: 70 % list reads, 30 % new tickets and messages (load ${load()})`,
    );
    print(
      table(
        ['calls', 'count', 'p50', 'p99', 'target'],
        [
          [
            'reads',
            office.reads.count,
            ms(office.reads.p50),
            ms(office.reads.p99),
            `p99 <=250 ms ${mark(office.reads.p99 <= 250)}`,
          ],
          ['writes', office.writes.count, ms(office.writes.p50), ms(office.writes.p99), '-'],
          ['errors', office.errors, '-', '-', `0 ${mark(office.errors === 0)}`],
        ],
      ),
    );
    if (office.errorSamples.length) print(`errors: ${office.errorSamples.join('; ')}`);
    figures.embedded = {
      ...embedded,
      office: { ...office, reads: roundAll(office.reads), writes: roundAll(office.writes) },
    };
  });

  // ---- 6. instances ----
  await section('instances', async () => {
    if (!url) {
      print(
        '\n## 6. Instances: skipped, it needs PostgreSQL (BENCH_DATABASE_URL): PGlite serves one process',
      );
      figures.instances = { skipped: 'needs PostgreSQL (BENCH_DATABASE_URL)' };
      return;
    }
    const rows: InstancesRow[] = await measureInstances(url, DEFAULT_LIST, {
      seconds: quick ? 5 : 10,
      warmupSeconds: quick ? 2 : 3,
      log,
    });
    print(
      `\n## 6. Default list through 1 and 2 instances, ${INSTANCES_CONNECTIONS} connections (load ${load()})`,
    );
    print(instancesTable(rows, machine.cpus));
    figures.instances = rows.map((r) => ({
      ...r,
      cpuSeconds: round(r.cpuSeconds),
      cpuMs: roundAll(r.cpuMs),
      instanceEach: r.instanceEach.map((ms) => round(ms, 0)),
      cpuPerRequest: roundAll(r.cpuPerRequest, 3),
      busiestOthers: r.busiestOthers.map((o) => ({ ...o, ms: round(o.ms, 0) })),
    }));
  });

  // ---- 7. service reports ----
  await section('reports', async () => {
    const scope = await reportScope(database.db, data.tenantId);
    const cases = reportCases(scope);
    const budget = quick
      ? { warmup: 2, samples: 30, seconds: 5, minSamples: 10 }
      : { warmup: 3, samples: 100, seconds: 15, minSamples: 20 };
    const results: ReportResult[] = [];
    for (const c of cases) {
      log(`  measuring ${c.name} …`);
      results.push(await measureReport(base, c, headers('operator'), budget));
    }
    print(`\n## 7. Service reports, through the API as the demo admin (ms; load ${load()})`);
    print(
      table(
        ['report', 'n', 'p50', 'p99', 'answer', 'target'],
        results.map((r) => [
          r.name,
          r.samples,
          ms(r.median),
          ms(r.p99),
          kb(r.bytes),
          r.targetMs ? `median<=${r.targetMs}ms ${mark(r.median <= r.targetMs)}` : '-',
        ]),
      ),
    );
    // The statements of the year by month, as the app ran them, with their plans (PostgreSQL only).
    let plans: Awaited<ReturnType<typeof planFacts>> = [];
    if (url) {
      const raw = pgRunner(url);
      try {
        plans = await planFacts(base, cases[0]!, headers('operator'), capture, raw.run);
      } finally {
        await raw.close();
      }
      print(`\nPlans of "${cases[0]!.name}" (EXPLAIN ANALYZE of the statements the call ran)`);
      print(
        table(
          ['statement', 'ms', 'rows', 'scans'],
          plans.map((p) => [p.statement, ms(p.ms), p.rows, p.scans]),
        ),
      );
    }
    log('  checking the daily figures against a recomputation …');
    const check = await checkReportDays(database.db, data.tenantId, data.tickets);
    const exact = check.onlyStored === 0 && check.onlyRecomputed === 0;
    print(
      `\nDaily figures (ticket_report_days) against a recomputation from the tickets in SQL: ${
        exact ? 'exact' : `${check.onlyStored} rows only stored, ${check.onlyRecomputed} only recomputed`
      } (${check.storedRows.toLocaleString('en')} stored rows, ${check.recomputedRows.toLocaleString('en')} recomputed; ${check.seconds.toFixed(1)} s)`,
    );
    for (const line of check.first) print(`  ${line}`);
    if (check.inMemory) {
      print(
        `server/reports/recompute.ts in memory: ${check.inMemory.exact ? 'exact' : 'DIFFERENT'} (${check.inMemory.stored.toLocaleString('en')} stored rows, ${check.inMemory.recomputed.toLocaleString('en')} recomputed)`,
      );
      for (const line of check.inMemory.first) print(`  ${line}`);
    } else {
      print('server/reports/recompute.ts in memory: not run (more than 200,000 tickets)');
    }
    const desk = await checkDeskDays(database.db, data.tenantId);
    print(
      `The whole desk's days (ticket_report_desk_days) against the keyed ones summed: ${
        desk.differing === 0 ? 'exact' : `${desk.differing} days differ`
      } (${desk.days.toLocaleString('en')} days; ${desk.seconds.toFixed(1)} s)`,
    );
    figures.reports = {
      scope,
      results: results.map((r) => ({ ...r, median: round(r.median), p99: round(r.p99) })),
      plans: plans.map((p) => ({ ...p, ms: round(p.ms) })),
      check: { ...check, exact, seconds: round(check.seconds, 1) },
      desk: { ...desk, exact: desk.differing === 0, seconds: round(desk.seconds, 1) },
    };
  });
} finally {
  await app.close();
  await database.close();
  closeAgent();
  await stopAll();
}

figures.loadAverageEnd = loadavg();
figures.seconds = round((performance.now() - started) / 1000, 1);
print(`\nTotal ${figures.seconds} s, load average ${load()}`);
console.log(JSON.stringify(figures));
