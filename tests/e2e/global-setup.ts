/**
 * Installs Debian's Chromium when it is missing, builds the apps when they are not built, and seeds one
 * data folder (tests/e2e/server.ts) that every server of this run starts on a copy of, unless npm test
 * made it ahead of time (tests/seed-folder.ts); its path goes to the workers through E2E_SEEDED_DIR.
 * The returned function is the global teardown.
 */
import { execSync } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { existingSeed, SEED_ROOT_ENV } from '../seed-folder.ts';
import { SEEDED_DIR_ENV, seedDataFolder } from './server.ts';

function ensureChromium() {
  if (existsSync('/usr/bin/chromium')) return;
  console.log('Installing Debian chromium for the browser tests…');
  execSync('apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium', {
    stdio: 'inherit',
  });
}

export default async function globalSetup() {
  ensureChromium();
  if (!existsSync('dist/index.html')) execSync('npx vite build --logLevel warn', { stdio: 'inherit' });
  // npm test made the seed ahead of time (tests/seed-folder.ts) and removes it itself.
  const made = existingSeed(process.env[SEED_ROOT_ENV]);
  if (made) {
    process.env[SEEDED_DIR_ENV] = made.folder;
    return () => undefined;
  }
  const seeded = await seedDataFolder();
  process.env[SEEDED_DIR_ENV] = seeded;
  return () => rmSync(seeded, { recursive: true, force: true });
}
