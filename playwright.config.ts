import { availableParallelism } from 'node:os';
import { defineConfig } from '@playwright/test';
import { CHROMIUM, CHROMIUM_ARGS } from './tests/e2e/chromium.ts';

/**
 * End-to-end tests in Debian's Chromium headless shell (tests/e2e/chromium.ts) against the real server:
 * each worker starts its own on a free port, on a copy of the database global-setup seeded
 * (tests/e2e/fixtures.ts). No browser download: executablePath is the system's.
 */
export default defineConfig({
  testDir: 'tests/e2e',
  globalSetup: './tests/e2e/global-setup.ts',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  // Files run in parallel, each worker on its own server; the tests of one file in order, as written.
  fullyParallel: false,
  // A worker is a browser and a server, and waits on them about a fifth of its time: with one worker
  // per core, a fifth of the CPU went unused (150 of 805 core-seconds on two cores). One more worker
  // than cores fills it (the whole run 6 min 47 s to 5 min 55 s on two cores); more only slows each test.
  workers: Math.min(availableParallelism() + 1, 4),
  retries: 0,
  reporter: [['list'], ['json', { outputFile: process.env.PLAYWRIGHT_JSON ?? 'test-results/e2e.json' }]],
  use: {
    locale: 'nl-NL',
    timezoneId: 'Europe/Amsterdam',
    viewport: { width: 1280, height: 800 },
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: CHROMIUM,
      args: CHROMIUM_ARGS,
    },
  },
});
