/**
 * `npm test` after the type check and lint: the vitest suites (unit, and API on PGlite plus PostgreSQL
 * when TEST_DATABASE_URL is set), then one closing line 'N passed, N failed' that CI reads.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

interface JsonReport {
  numFailedTestSuites: number;
  testResults: { assertionResults: { fullName: string; status: string }[] }[];
}

const report = join(mkdtempSync(join(tmpdir(), 'sd-tests-')), 'vitest.json');
const run = spawnSync(
  'npx',
  [
    'vitest',
    'run',
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${report}`,
    ...process.argv.slice(2),
  ],
  { stdio: 'inherit' },
);

let results: { fullName: string; status: string }[] = [];
/** A file whose setup failed fails as a whole; its tests show as skipped, so it is counted apart. */
let failedFiles = 0;
try {
  const json = JSON.parse(readFileSync(report, 'utf8')) as JsonReport;
  results = json.testResults.flatMap((f) => f.assertionResults);
  failedFiles = json.numFailedTestSuites;
} catch {
  console.error('vitest wrote no report');
}
const count = (status: string, list = results) => list.filter((r) => r.status === status).length;
const onPostgres = results.filter((r) => /\bpostgres\b/.test(r.fullName));

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
const skipped = count('skipped') + count('pending') + count('todo');
const failed = count('failed') + failedFiles;
if (failedFiles) console.log(`${failedFiles} test file(s) failed as a whole (see above).`);
console.log(`tests: ${count('passed')} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
if (run.status !== 0 || failed > 0 || results.length === 0) process.exitCode = 1;
