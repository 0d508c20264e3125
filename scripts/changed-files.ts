/**
 * For `npm run test:changed -- --direct` (scripts/test-changed.ts): the changed files as vitest's
 * `--changed` finds them (staged, modified and untracked files, plus the commits since `since`), and the
 * test files that import one of them in their own import lines or are one of them.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

/** The folders of the unit, browser and API projects (vitest.config.ts). */
const TEST_FOLDERS = ['tests/unit', 'tests/browser', 'tests/api'];

/** What the import graph cannot see (vitest.config.ts forceRerunTriggers): every file runs for these. */
const OUTSIDE_GRAPH = [
  /^schemas\//,
  /^server\/db\/migrations\//,
  /^server\/.*\.txt$/,
  /package(-lock)?\.json$/,
  /^vite(st)?\.config\.ts$/,
];

function git(...args: string[]): string[] {
  return execFileSync('git', args, { encoding: 'utf8' }).split('\n').filter(Boolean);
}

export function changedFiles(since?: string): string[] {
  return [
    ...new Set([
      ...git('diff', '--cached', '--name-only'),
      ...git('ls-files', '--other', '--modified', '--exclude-standard'),
      ...(since ? git('diff', '--name-only', `${since}...HEAD`) : []),
    ]),
  ];
}

/** The relative module paths a file's import and export lines name, resolved from its folder. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const found: string[] = [];
  for (const match of text.matchAll(/(?:from|import)\s*\(?\s*'(\.{1,2}\/[^']+)'/g))
    found.push(join(dirname(file), match[1]!));
  return found;
}

/**
 * The test files to run, as paths; undefined when a change is one the import graph cannot see (the
 * caller then runs vitest's --changed, which runs every file for it).
 */
export function directTests(since?: string): string[] | undefined {
  const changed = changedFiles(since).filter((file) => existsSync(file));
  if (changed.some((file) => OUTSIDE_GRAPH.some((pattern) => pattern.test(file)))) return undefined;
  const wanted = new Set(changed.map((file) => resolve(file)));
  const tests: string[] = [];
  for (const folder of TEST_FOLDERS)
    for (const name of readdirSync(folder)) {
      if (!/\.test\.tsx?$/.test(name)) continue;
      const file = join(folder, name);
      if (wanted.has(resolve(file)) || importsOf(file).some((target) => wanted.has(resolve(target))))
        tests.push(file);
    }
  return tests;
}
