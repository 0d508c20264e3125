/**
 * The `test` of the specs that use the demo server: each worker has a server and database of its own (a
 * copy of the seeded folder, see server.ts), so specs in different workers never see each other's writes
 * and run at the same time. Specs in one worker run one after another on its server, as before.
 */
import { test as base } from '@playwright/test';
import { startServer, type E2eServer } from './server.ts';

export { expect } from '@playwright/test';

/**
 * The worker's demo server once a test has started it: the error report below reads it without
 * starting it for a spec that runs a server of its own.
 */
let started: E2eServer | undefined;

export const test = base.extend<{ serverErrors: void }, { demoServer: E2eServer }>({
  demoServer: [
    // eslint-disable-next-line no-empty-pattern -- Playwright reads the fixtures a fixture uses from this pattern.
    async ({}, use) => {
      const server = await startServer();
      started = server;
      await use(server);
      started = undefined;
      await server.stop();
    },
    { scope: 'worker', timeout: 180_000 },
  ],
  baseURL: async ({ demoServer }, use) => use(demoServer.baseURL),
  // A test that fails gets the server's errors logged while it ran in its report: a screen that says
  // "could not be loaded" under load in CI says why only there.
  serverErrors: [
    // eslint-disable-next-line no-empty-pattern -- Playwright reads the fixtures a fixture uses from this pattern.
    async ({}, use, testInfo) => {
      const from = started?.output().length ?? 0;
      await use();
      if (testInfo.status === testInfo.expectedStatus || !started) return;
      const errors = started
        .output()
        .slice(from)
        .split('\n')
        .filter((line) => /"level":(50|60)/.test(line))
        .slice(-10)
        .map(readable);
      if (errors.length > 0)
        await testInfo.attach('server errors', { body: errors.join('\n'), contentType: 'text/plain' });
    },
    { auto: true },
  ],
});

/** A logged error on one short line (the reporter cuts long ones): its message and our frames it passed. */
function readable(line: string): string {
  try {
    const entry = JSON.parse(line) as { msg?: string; err?: { message?: string; stack?: string } };
    const ours = (entry.err?.stack ?? '')
      .split('\n')
      .slice(1)
      .filter((frame) => !frame.includes('node_modules'))
      .slice(0, 3)
      .map((frame) =>
        frame
          .trim()
          .replace(/^at /, '')
          .replace(/\(?\/\S*?\/(server|common)\//, '($1/'),
      );
    return `${entry.err?.message ?? entry.msg ?? ''} ${ours.join(' < ')}`.slice(0, 240);
  } catch {
    return line.slice(0, 240);
  }
}
