/**
 * Installs Debian's Chromium when it is missing, then starts the shared demo server (tests/e2e/server.ts)
 * on a free port. Its address goes to the tests through E2E_BASE_URL.
 */
import { execSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer } from './server.ts';

// One file per Playwright run: several runs on one machine must not stop each other's server.
export const STATE_FILE = join(tmpdir(), `service-desk-e2e-${process.pid}.json`);

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
  const { baseURL, pid, dataDir } = await startServer();
  process.env.E2E_BASE_URL = baseURL;
  writeFileSync(STATE_FILE, JSON.stringify({ pid, dataDir }));
}
