/**
 * Installs Debian's Chromium headless shell when it is missing (tests/e2e/chromium.ts), builds the apps
 * when they are not built, and seeds one data folder (tests/e2e/server.ts) that every server of this run
 * starts on a copy of, unless npm test made it ahead of time (tests/seed-folder.ts); its path goes to
 * the workers through E2E_SEEDED_DIR.
 * The returned function is the global teardown.
 */
import { execSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { existingSeed, makeSeed, SEED_ROOT_ENV } from '../seed-folder.ts';
import { CHROMIUM, CHROMIUM_PACKAGE } from './chromium.ts';
import { SEEDED_DIR_ENV } from './server.ts';

function ensureChromium() {
  if (existsSync(CHROMIUM)) return;
  console.log(`Installing Debian's ${CHROMIUM_PACKAGE} for the browser tests…`);
  const install = `DEBIAN_FRONTEND=noninteractive apt-get install -y -qq ${CHROMIUM_PACKAGE}`;
  execSync(`apt-get update -qq && ${install}`, { stdio: 'inherit' });
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
  // The same seed npm test makes (its demo accounts' cheap password hashes included).
  const root = mkdtempSync(join(tmpdir(), 'sd-e2e-seed-'));
  process.env[SEEDED_DIR_ENV] = (await makeSeed(root)).folder;
  return () => rmSync(root, { recursive: true, force: true });
}
