/**
 * The demo seed of the inner loop (npm run test:quick, npm run test:changed), kept between runs in
 * node_modules/.cache/test-seed/<key>/ instead of made anew each time (20 s of a loaded machine, the
 * longest of the quick run's checks once their own caches are warm). npm test and CI never use it.
 *
 * The key is a hash of everything the seed could depend on, read more widely than its imports so a
 * stale seed is never reused: every file under server/, common/ and schemas/ (tracked or not, ignored
 * files aside), tests/seed-folder.ts, tests/node-flags.ts, package-lock.json and the Node version. Any
 * change to the server thus makes a new seed; a change to the apps or the tests does not. Only the
 * newest key is kept.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { PGLITE_NODE_FLAGS } from '../tests/node-flags.ts';
import { existingSeed } from '../tests/seed-folder.ts';

const CACHE = 'node_modules/.cache/test-seed';
const INPUTS = [
  'server',
  'common',
  'schemas',
  'tests/seed-folder.ts',
  'tests/node-flags.ts',
  'package-lock.json',
];

function seedKey(): string {
  const listed = spawnSync(
    'git',
    ['ls-files', '-z', '--cached', '--others', '--exclude-standard', ...INPUTS],
    {
      encoding: 'utf8',
    },
  );
  if (listed.status !== 0) throw new Error(`git ls-files failed: ${listed.stderr}`);
  const files = [...new Set(listed.stdout.split('\0').filter(Boolean))].sort();
  const hash = createHash('sha256').update(process.version);
  for (const file of files) {
    // A file deleted in the working tree is listed by git still; its absence is part of the key.
    hash.update(`\0${file}\0`);
    if (existsSync(file)) hash.update(readFileSync(file));
  }
  return hash.digest('hex').slice(0, 16);
}

/**
 * Where the seed for the working tree as it is now is kept, and whether it is there complete (the marker
 * tests/seed-folder.ts writes last makes a cut-off seed count as absent). When it is absent, the older
 * seeds are removed and the caller makes this one: `tests/seed-folder.ts <root>`, as npm test does.
 */
export function seedCacheRoot(): { root: string; cached: boolean } {
  const root = resolve(CACHE, seedKey());
  if (existingSeed(root)) return { root, cached: true };
  if (existsSync(CACHE))
    for (const old of readdirSync(CACHE)) rmSync(join(CACHE, old), { recursive: true, force: true });
  return { root, cached: false };
}

/** The command that makes the seed in `root`. */
export function seedCommand(root: string): [string, ...string[]] {
  return [process.execPath, ...PGLITE_NODE_FLAGS, '--import', 'tsx', 'tests/seed-folder.ts', root];
}
