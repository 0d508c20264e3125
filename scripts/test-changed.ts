/**
 * `npm run test:changed` (the inner loop after an edit): the type check of both tsconfigs and the vitest
 * files that the uncommitted changes reach, side by side, on PGlite only. `npm run test:changed -- main`
 * takes the changes since that commit as well.
 *
 * Which files run is vitest's own `--changed`: the files git reports as staged, modified or untracked
 * (not ignored), and every test file whose import graph holds one of them. What the graph cannot see (a
 * schema's JSON, a migration found by listing its folder) runs every file, through forceRerunTriggers in
 * vitest.config.ts. The container image's files never run here (npm test builds the image).
 *
 * Nearly every API file builds the whole app, so a change to a server module the app imports reaches
 * all of them (the PGlite API suite, minutes). `npm run test:changed -- --direct` runs instead the test
 * files that import a changed file themselves, or are changed: a narrower check for the inner loop,
 * which npm test completes. A change the import graph cannot see still runs every file.
 *
 * The type checks are incremental: their state is kept in node_modules/.cache/tsc/, so a change inside
 * a function body checks in a third of a full check's time; a changed export is checked as a full check
 * would. npm test and CI keep the full, non-incremental check.
 */
import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { SEED_ROOT_ENV } from '../tests/seed-folder.ts';
import { directTests } from './changed-files.ts';
import { seedCacheRoot, seedCommand } from './seed-cache.ts';

const args = process.argv.slice(2);
const direct = args.includes('--direct');
const since = args.find((a) => a !== '--direct');
const cache = 'node_modules/.cache/tsc';
mkdirSync(cache, { recursive: true });

interface Ended {
  label: string;
  code: number | null;
  ms: number;
}

/** Runs a command; its output is printed whole when it ends unless `live`, so outputs never interleave. */
function run(label: string, command: string[], live = false, env = process.env): Promise<Ended> {
  const start = performance.now();
  return new Promise((done) => {
    const [program, ...args] = command as [string, ...string[]];
    const child = spawn(program, args, {
      env,
      stdio: ['ignore', live ? 'inherit' : 'pipe', live ? 'inherit' : 'pipe'],
    });
    let output = '';
    child.stdout?.on('data', (d) => (output += d));
    child.stderr?.on('data', (d) => (output += d));
    child.on('error', (error) => (output += String(error)));
    child.on('close', (code) => {
      if (!live) process.stdout.write(`\n── ${label} (${command.join(' ')}) ──\n${output || 'no errors\n'}`);
      done({ label, code, ms: performance.now() - start });
    });
  });
}

const typeCheck = (label: string, project: string, name: string) =>
  run(label, [
    'npx',
    'tsc',
    '-p',
    project,
    '--noEmit',
    '--incremental',
    '--tsBuildInfoFile',
    `${cache}/${name}.tsbuildinfo`,
  ]);

// The quick loop tests on PGlite only, as npm run test:quick does.
const testEnv: NodeJS.ProcessEnv = { ...process.env, VITEST_QUIET_PG: '1' };
delete testEnv.TEST_DATABASE_URL;

// Undefined: the import graph decides (vitest --changed).
const files = direct ? directTests(since) : undefined;
if (files) console.log(`Test files that import a changed file: ${files.join(' ') || 'none'}`);

// The API files' demo seed, kept while the server is unchanged (scripts/seed-cache.ts), made beside the
// type checks when it is not; npm test makes its own.
const seed = seedCacheRoot();
testEnv[SEED_ROOT_ENV] = seed.root;
const seeded = seed.cached ? undefined : run('demo seed', seedCommand(seed.root));

/** `run`, once `before` (if any) passed; not at all when it failed. */
async function runAfter(
  before: Promise<Ended> | undefined,
  ...command: Parameters<typeof run>
): Promise<Ended> {
  if (before && (await before).code !== 0) return { label: command[0], code: null, ms: 0 };
  return run(...command);
}

const start = performance.now();
const ended = await Promise.all([
  typeCheck('type check (server)', 'tsconfig.server.json', 'server'),
  typeCheck('type check (apps)', 'tsconfig.json', 'apps'),
  ...(seeded ? [seeded] : []),
  ...(files?.length === 0
    ? []
    : [
        runAfter(
          seeded,
          'vitest (changed files)',
          [
            'npx',
            'vitest',
            'run',
            ...(files ?? [since ? `--changed=${since}` : '--changed']),
            '--project',
            'unit',
            '--project',
            'browser',
            '--project',
            'api',
            // No changed file reached by any test is not a failure.
            '--passWithNoTests',
          ],
          true,
          testEnv,
        ),
      ]),
]);
const seconds = (ms: number) => `${Math.round(ms / 1000)} s`;
console.log(
  `\nTime: ${ended.map((e) => `${e.label} ${seconds(e.ms)}`).join(', ')}, total ${seconds(performance.now() - start)}`,
);
const failed = ended.filter((e) => e.code !== 0);
for (const f of failed) console.error(`Failed: ${f.label} (exit ${f.code}); see above.`);
process.exitCode = failed.length ? 1 : 0;
