/**
 * `npm test` after the type check, lint and build: the vitest suites (unit, browser units, and API on
 * PGlite plus PostgreSQL when TEST_DATABASE_URL is set), then the Playwright end-to-end tests in
 * Debian's Chromium; last, one closing line 'N passed, N failed' that CI reads.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

interface Result {
  name: string;
  status: 'passed' | 'failed' | 'skipped';
}

const dir = mkdtempSync(join(tmpdir(), 'sd-tests-'));
const only = process.argv.slice(2);

function vitest(): { results: Result[]; failedFiles: number; ok: boolean } {
  const report = join(dir, 'vitest.json');
  const run = spawnSync(
    'npx',
    ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${report}`, ...only],
    {
      stdio: 'inherit',
    },
  );
  try {
    const json = JSON.parse(readFileSync(report, 'utf8')) as {
      testResults: { status: string; assertionResults: { fullName: string; status: string }[] }[];
    };
    const results = json.testResults
      .flatMap((f) => f.assertionResults)
      .map((r): Result => ({
        name: r.fullName,
        status: r.status === 'passed' ? 'passed' : r.status === 'failed' ? 'failed' : 'skipped',
      }));
    // A file that failed with no failed test in it failed as a whole (its setup); a failed test is
    // counted once, as a test.
    const failedFiles = json.testResults.filter(
      (f) => f.status === 'failed' && !f.assertionResults.some((a) => a.status === 'failed'),
    ).length;
    return { results, failedFiles, ok: run.status === 0 };
  } catch {
    console.error('vitest wrote no report');
    return { results: [], failedFiles: 1, ok: false };
  }
}

function playwright(): { results: Result[]; failedFiles: number; ok: boolean } {
  const report = join(dir, 'e2e.json');
  const run = spawnSync('npx', ['playwright', 'test'], {
    stdio: 'inherit',
    env: { ...process.env, PLAYWRIGHT_JSON: report },
  });
  try {
    interface Suite {
      title: string;
      specs: { title: string; tests: { status: string }[] }[];
      suites?: Suite[];
    }
    const json = JSON.parse(readFileSync(report, 'utf8')) as { suites: Suite[]; errors: unknown[] };
    const results: Result[] = [];
    const walk = (suite: Suite, path: string) => {
      for (const spec of suite.specs) {
        const status = spec.tests.every((t) => t.status === 'expected')
          ? 'passed'
          : spec.tests.some((t) => t.status === 'skipped')
            ? 'skipped'
            : 'failed';
        results.push({ name: `e2e ${path} ${spec.title}`, status });
      }
      for (const s of suite.suites ?? []) walk(s, `${path} ${s.title}`);
    };
    json.suites.forEach((s) => walk(s, s.title));
    return { results, failedFiles: json.errors.length, ok: run.status === 0 };
  } catch {
    console.error('playwright wrote no report');
    return { results: [], failedFiles: 1, ok: false };
  }
}

const unit = vitest();
const e2e = only.length ? { results: [], failedFiles: 0, ok: true } : playwright();
const results = [...unit.results, ...e2e.results];
const count = (status: Result['status'], list = results) => list.filter((r) => r.status === status).length;

const onPostgres = unit.results.filter((r) => /\bpostgres\b/.test(r.name));
if (process.env.TEST_DATABASE_URL) {
  console.log(
    `\nPostgreSQL run (TEST_DATABASE_URL): ${count('passed', onPostgres)} passed, ${count('failed', onPostgres)} failed`,
  );
  if (onPostgres.length === 0) {
    console.error('TEST_DATABASE_URL is set but no test ran against PostgreSQL.');
    process.exitCode = 1;
  }
} else {
  console.log('\nPostgreSQL run skipped: TEST_DATABASE_URL is not set (CI sets it).');
}
console.log(
  `Browser (Playwright, Chromium): ${count('passed', e2e.results)} passed, ${count('failed', e2e.results)} failed`,
);
const failedFiles = unit.failedFiles + e2e.failedFiles;
const failed = count('failed') + failedFiles;
if (failedFiles) console.log(`${failedFiles} test file(s) or setups failed as a whole (see above).`);
const skipped = count('skipped');
console.log(`tests: ${count('passed')} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
if (!unit.ok || !e2e.ok || failed > 0 || results.length === 0) process.exitCode = 1;
