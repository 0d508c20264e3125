/**
 * `npm start` builds the browser apps only when their sources changed since the last build, so a second
 * start is as fast as the server alone.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync, writeFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const SOURCES = [
  'src',
  'common',
  'schemas',
  'index.html',
  'app/index.html',
  'vite.config.ts',
  'package-lock.json',
];
const STAMP = 'dist/.build-stamp';

function newest(path: string): number {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(0, ...readdirSync(path).map((entry) => newest(join(path, entry))));
}

const sourcesTime = Math.max(...SOURCES.map(newest));
const builtTime = existsSync(STAMP) ? Number(readFileSync(STAMP, 'utf8')) : 0;
if (builtTime >= sourcesTime && existsSync('dist/index.html') && existsSync('dist/app/index.html')) {
  process.exit(0);
}
console.log('Building the portal and back office (vite build)…');
// Always the production build, whatever NODE_ENV the caller has: a test runner's NODE_ENV=test would
// give React's development build (about 95 kB gzip more), and the browser tests would run against it.
const build = spawnSync('npx', ['vite', 'build', '--logLevel', 'warn'], {
  stdio: 'inherit',
  env: { ...process.env, NODE_ENV: 'production' },
});
if (build.status !== 0) process.exit(build.status ?? 1);
writeFileSync(STAMP, String(sourcesTime));
