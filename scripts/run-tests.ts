/**
 * `npm test`: the type check, lint and build side by side with the making of the demo seed, then the
 * vitest suites (unit, browser units, and API on PGlite plus PostgreSQL when TEST_DATABASE_URL is set),
 * then the Playwright end-to-end tests in Debian's Chromium; last, where the time went and one closing
 * line 'N passed, N failed' that CI reads. A failed type check, lint or build stops the run there, as
 * it did when they were chained with && in package.json; they run here so that their time is measured
 * with the rest.
 *
 * `--quick` (npm run test:quick, the inner loop): type check, lint, unit and API tests on PGlite only;
 * no build, no PostgreSQL, no browser, no container image. File arguments run only those vitest files.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { performance } from 'node:perf_hooks';
import { SEED_ROOT_ENV } from '../tests/seed-folder.ts';
import type { PhaseTimes } from './vitest-phase-times.ts';
import { seedCacheRoot, seedCommand } from './seed-cache.ts';

interface Result {
  name: string;
  status: 'passed' | 'failed' | 'skipped';
  /** A failed test's file and the first line of its error: the summary names them at its end. */
  where?: string;
  error?: string;
}

/** How long one test file took from its start to its end (a vitest file, or a spec file's tests added up). */
interface FileTime {
  file: string;
  ms: number;
}

const dir = mkdtempSync(join(tmpdir(), 'sd-tests-'));
const args = process.argv.slice(2);
const quick = args.includes('--quick');
const only = args.filter((a) => a !== '--quick');
// The quick run ignores TEST_DATABASE_URL: the PostgreSQL run doubles the API tests' time.
const testEnv = { ...process.env };
if (quick) {
  delete testEnv.TEST_DATABASE_URL;
  testEnv.VITEST_QUIET_PG = '1';
}

/** Each phase's wall-clock time, in the order they ran. */
const phases: { label: string; ms: number }[] = [];
/** The steps of the first phase, which run side by side. */
const sideBySide: { label: string; ms: number }[] = [];
const runStart = performance.now();
let vitestTimes: PhaseTimes | undefined;

async function timed<T>(label: string, run: () => Promise<T>): Promise<T> {
  const start = performance.now();
  try {
    return await run();
  } finally {
    phases.push({ label, ms: performance.now() - start });
  }
}

function seconds(ms: number): string {
  const s = Math.round(ms / 1000);
  return s < 60 ? `${s} s` : `${Math.floor(s / 60)} min ${s % 60} s`;
}

function printTimes(): void {
  const total = performance.now() - runStart;
  const list = (entries: { label: string; ms: number }[]) =>
    entries.map((p) => `${p.label} ${seconds(p.ms)}`).join(', ');
  console.log(`Time: ${list([...phases, { label: 'total', ms: total }])}`);
  if (sideBySide.length) console.log(`  checks and seed, side by side: ${list(sideBySide)}`);
  if (fileTimes.length) {
    const slowest = [...fileTimes].sort((a, b) => b.ms - a.ms).slice(0, 10);
    console.log('  the ten slowest test files (each from its start to its end, its import included):');
    for (const f of slowest) console.log(`    ${(f.ms / 1000).toFixed(1).padStart(6)} s  ${f.file}`);
  }
  if (vitestTimes) {
    const t = vitestTimes;
    const parts = [
      ['unit', t.unit],
      ['API on PGlite', t.pglite],
      ['API on PostgreSQL', t.postgres],
      ['API imports and files without a target', t.apiShared],
    ] as const;
    const shown = parts.filter(([, ms]) => ms > 0).map(([label, ms]) => `${label} ${seconds(ms)}`);
    // Workers run files side by side, so these add up to more than the phase's wall-clock time.
    console.log(`  vitest, per kind, as worker time (files run in parallel): ${shown.join(', ')}`);
  }
}

interface Step {
  label: string;
  command: [string, ...string[]];
}

/**
 * Steps that must pass before the tests run, side by side: each is a single-threaded process on a
 * machine of two or more cores. Each one's output is printed whole when it ends (never interleaved),
 * and its own time is measured. A failure ends the run with its exit code once all have ended, as
 * when they were chained with && in package.json.
 */
async function parallelSteps(steps: Step[]): Promise<void> {
  const start = performance.now();
  const ended = await Promise.all(
    steps.map(
      ({ label, command }) =>
        new Promise<{ label: string; code: number | null; command: Step['command'] }>((done) => {
          const start = performance.now();
          const [program, ...args] = command;
          const child = spawn(program, args, { env: process.env, stdio: ['ignore', 'pipe', 'pipe'] });
          let output = '';
          child.stdout.on('data', (d) => (output += d));
          child.stderr.on('data', (d) => (output += d));
          child.on('error', (error) => (output += String(error)));
          child.on('close', (code) => {
            sideBySide.push({ label, ms: performance.now() - start });
            process.stdout.write(`\n── ${label} (${command.join(' ')}) ──\n${output}`);
            done({ label, code, command });
          });
        }),
    ),
  );
  phases.push({ label: 'checks and seed', ms: performance.now() - start });
  const failed = ended.find((step) => step.code !== 0);
  if (!failed) return;
  printTimes();
  console.error(
    `Stopped: the ${failed.label} failed (${failed.command.join(' ')}, exit ${failed.code}); see above.`,
  );
  process.exit(failed.code || 1);
}

/** The test files that took longest, to show a slow file in the run that made it slow (issue 33). */
const fileTimes: FileTime[] = [];

type Outcome = { results: Result[]; failedFiles: number; ok: boolean };

/** Runs beside the others (their own process groups): ended with the run, also when it stops early. */
const besides = new Set<ChildProcess>();
process.on('exit', () => {
  for (const child of besides) if (child.pid) process.kill(-child.pid, 'SIGTERM');
});

/**
 * One vitest run with its JSON report and phase times in `name`.json / `name`-times.json. Its output
 * goes to the terminal as it comes, or (`buffered`, for a run beside others) is printed whole at its end.
 */
function vitest(name: string, args: string[], buffered = false): Promise<Outcome> {
  const report = join(dir, `${name}.json`);
  const times = join(dir, `${name}-times.json`);
  const command = [
    'vitest',
    'run',
    '--reporter=default',
    '--reporter=json',
    '--reporter=./scripts/vitest-phase-times.ts',
    `--outputFile.json=${report}`,
    ...args,
  ];
  return new Promise((done) => {
    const child = spawn('npx', command, {
      stdio: buffered ? ['ignore', 'pipe', 'pipe'] : 'inherit',
      env: { ...testEnv, PHASE_TIMES_FILE: times },
      detached: buffered,
    });
    if (buffered) besides.add(child);
    let output = '';
    child.stdout?.on('data', (d) => (output += d));
    child.stderr?.on('data', (d) => (output += d));
    child.on('close', (code) => {
      besides.delete(child);
      if (buffered)
        process.stdout.write(
          `\n── ${name} (npx ${command.slice(0, 2).join(' ')} ${args.join(' ')}) ──\n${output}`,
        );
      done(vitestReport(report, times, code === 0, !buffered));
    });
  });
}

function vitestReport(report: string, times: string, ok: boolean, main: boolean): Outcome {
  let phaseTimes: PhaseTimes | undefined;
  try {
    phaseTimes = JSON.parse(readFileSync(times, 'utf8')) as PhaseTimes;
    // The split per kind is the main run's; the container file shows among the slowest files.
    if (main) vitestTimes = phaseTimes;
  } catch {
    // No split of the time; the run's own result is judged below.
  }
  try {
    const json = JSON.parse(readFileSync(report, 'utf8')) as {
      testResults: {
        name: string;
        status: string;
        startTime?: number;
        endTime?: number;
        assertionResults: { fullName: string; status: string; failureMessages?: string[] }[];
      }[];
    };
    // The reporter's times include each file's import and collection; the JSON report's do not.
    const own = phaseTimes?.files ?? {};
    for (const f of json.testResults) {
      const file = relative(process.cwd(), f.name);
      if (own[file] !== undefined) fileTimes.push({ file, ms: own[file] });
      else if (f.startTime !== undefined && f.endTime !== undefined)
        fileTimes.push({ file, ms: f.endTime - f.startTime });
    }
    const results = json.testResults.flatMap((f) =>
      f.assertionResults.map((r): Result => ({
        name: r.fullName,
        status: r.status === 'passed' ? 'passed' : r.status === 'failed' ? 'failed' : 'skipped',
        where: relative(process.cwd(), f.name),
        error: r.failureMessages?.[0],
      })),
    );
    // A file that failed with no failed test in it failed as a whole (its setup); a failed test is
    // counted once, as a test.
    const failedFiles = json.testResults.filter(
      (f) => f.status === 'failed' && !f.assertionResults.some((a) => a.status === 'failed'),
    ).length;
    return { results, failedFiles, ok };
  } catch {
    console.error(`vitest wrote no report (${report})`);
    return { results: [], failedFiles: 1, ok: false };
  }
}

/**
 * The failed tests by name, file and first line of their error, last before the count: CI keeps the
 * end of a long output, where the reporters' own accounts of a failure may have been cut off.
 */
function printFailures(failures: Result[]): void {
  if (!failures.length) return;
  console.log(`\nFailed (${failures.length}):`);
  for (const f of failures.slice(0, 20)) {
    const first =
      (f.error ?? '')
        // eslint-disable-next-line no-control-regex -- the reporters colour their messages
        .replace(/\u001b\[[0-9;]*m/g, '')
        .split('\n')
        .find((l) => l.trim()) ?? '';
    console.log(`  ${f.name}\n    ${f.where ?? ''}${first ? `: ${first.trim().slice(0, 300)}` : ''}`);
  }
}

async function playwright(): Promise<Outcome> {
  const report = join(dir, 'e2e.json');
  // Not spawnSync: the run beside it (the container image) prints through this process's event loop.
  const code = await new Promise<number | null>((done) =>
    spawn('npx', ['playwright', 'test'], {
      stdio: 'inherit',
      env: { ...process.env, [SEED_ROOT_ENV]: testEnv[SEED_ROOT_ENV], PLAYWRIGHT_JSON: report },
    }).on('close', done),
  );
  try {
    interface Suite {
      title: string;
      specs: {
        title: string;
        file: string;
        line: number;
        tests: { status: string; results: { duration: number; error?: { message?: string } }[] }[];
      }[];
      suites?: Suite[];
    }
    const json = JSON.parse(readFileSync(report, 'utf8')) as { suites: Suite[]; errors: unknown[] };
    const results: Result[] = [];
    const specMs = new Map<string, number>();
    const walk = (suite: Suite, path: string) => {
      for (const spec of suite.specs) {
        // A spec file's tests run one after another in one worker: their durations add up to its time.
        const ms = spec.tests.flatMap((t) => t.results).reduce((sum, r) => sum + r.duration, 0);
        specMs.set(spec.file, (specMs.get(spec.file) ?? 0) + ms);
        const status = spec.tests.every((t) => t.status === 'expected')
          ? 'passed'
          : spec.tests.some((t) => t.status === 'skipped')
            ? 'skipped'
            : 'failed';
        const error = spec.tests.flatMap((t) => t.results).find((r) => r.error)?.error?.message;
        results.push({
          name: `e2e ${path} ${spec.title}`,
          status,
          where: `tests/e2e/${spec.file}:${spec.line}`,
          error,
        });
      }
      for (const s of suite.suites ?? []) walk(s, `${path} ${s.title}`);
    };
    json.suites.forEach((s) => walk(s, s.title));
    for (const [file, ms] of specMs) fileTimes.push({ file: `tests/e2e/${file}`, ms });
    return { results, failedFiles: json.errors.length, ok: code === 0 };
  } catch {
    console.error('playwright wrote no report');
    return { results: [], failedFiles: 1, ok: false };
  }
}

const full = !quick && only.length === 0;
// The container image's test builds and runs the Dockerfile with podman: minutes, most of them spent
// waiting on downloads and on podman rather than computing. A full run starts it first and lets it run
// beside the checks, the vitest files and the browser, instead of holding one of vitest's two workers
// through the API files (the quick run leaves it out; named files run whatever their project).
const image = full
  ? timed('container image (beside the rest)', () => vitest('container', ['--project', 'container'], true))
  : undefined;
if (only.length === 0) {
  // The demo seed both the API and the browser tests start from (tests/seed-folder.ts), made while the
  // checks run instead of by each suite before its first test.
  // The quick run reuses the seed of an unchanged server (scripts/seed-cache.ts; never npm test's).
  const seedCache = quick ? seedCacheRoot() : undefined;
  testEnv[SEED_ROOT_ENV] = seedCache?.root ?? join(dir, 'seed');
  const npx = (...command: string[]): Step['command'] => ['npx', ...command];
  // The quick run keeps what the checks learnt in node_modules/.cache/ (the type checks' state, shared
  // with npm run test:changed; ESLint's and Prettier's per-file results, keyed by content and config),
  // so an unchanged file is not checked again. npm test and CI check everything afresh.
  const cache = 'node_modules/.cache';
  const tscState = (name: string) =>
    quick ? ['--incremental', '--tsBuildInfoFile', `${cache}/tsc/${name}.tsbuildinfo`] : [];
  await parallelSteps([
    {
      label: 'type check (server)',
      command: npx('tsc', '-p', 'tsconfig.server.json', '--noEmit', ...tscState('server')),
    },
    {
      label: 'type check (apps)',
      command: npx('tsc', '-p', 'tsconfig.json', '--noEmit', ...tscState('apps')),
    },
    {
      label: 'lint (ESLint)',
      command: npx('eslint', '.', ...(quick ? ['--cache', '--cache-location', `${cache}/eslint/`] : [])),
    },
    {
      label: 'lint (Prettier)',
      command: npx(
        'prettier',
        '--check',
        '.',
        // Not its default place: a Prettier run without --cache (npm run lint, format) deletes that one.
        ...(quick
          ? ['--cache', '--cache-strategy', 'content', '--cache-location', `${cache}/prettier-quick`]
          : []),
      ),
    },
    // Through npm start's own step, which stamps the build: the `npm start` of tests/api/start.test.ts
    // then finds it fresh instead of building again under the tests (with their NODE_ENV).
    ...(full ? [{ label: 'build', command: npx('tsx', 'scripts/build-if-stale.ts') }] : []),
    ...(seedCache?.cached ? [] : [{ label: 'demo seed', command: seedCommand(testEnv[SEED_ROOT_ENV]!) }]),
  ]);
}
const ownFiles = only.length ? only : ['--project', 'unit', '--project', 'browser', '--project', 'api'];
const vitestRun = await timed('vitest', () => vitest('vitest', ownFiles));
const e2e = full ? await timed('browser', playwright) : { results: [], failedFiles: 0, ok: true };
const beside = image ? await image : { results: [], failedFiles: 0, ok: true };
const unit: Outcome = {
  results: [...vitestRun.results, ...beside.results],
  failedFiles: vitestRun.failedFiles + beside.failedFiles,
  ok: vitestRun.ok && beside.ok,
};
const results = [...unit.results, ...e2e.results];
const count = (status: Result['status'], list = results) => list.filter((r) => r.status === status).length;

const onPostgres = unit.results.filter((r) => /\bpostgres\b/.test(r.name));
if (testEnv.TEST_DATABASE_URL) {
  console.log(
    `\nPostgreSQL run (TEST_DATABASE_URL): ${count('passed', onPostgres)} passed, ${count('failed', onPostgres)} failed`,
  );
  if (onPostgres.length === 0) {
    console.error('TEST_DATABASE_URL is set but no test ran against PostgreSQL.');
    process.exitCode = 1;
  }
} else if (quick) {
  console.log('\nPostgreSQL run skipped: the quick run tests on PGlite only (npm test runs both).');
} else {
  console.log('\nPostgreSQL run skipped: TEST_DATABASE_URL is not set (CI sets it).');
}
if (full) {
  console.log(
    `Browser (Playwright, Chromium): ${count('passed', e2e.results)} passed, ${count('failed', e2e.results)} failed`,
  );
} else {
  console.log('Browser (Playwright) and build skipped: run npm test for them.');
}
const failedFiles = unit.failedFiles + e2e.failedFiles;
const failed = count('failed') + failedFiles;
if (failedFiles) console.log(`${failedFiles} test file(s) or setups failed as a whole (see above).`);
printTimes();
printFailures(results.filter((r) => r.status === 'failed'));
const skipped = count('skipped');
console.log(`tests: ${count('passed')} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
if (!unit.ok || !e2e.ok || failed > 0 || results.length === 0) process.exitCode = 1;
// The reports and the seed were read: nothing of the run stays in the temporary folder.
rmSync(dir, { recursive: true, force: true });
