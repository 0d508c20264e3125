/**
 * The `test` of the specs that use the demo server: each worker has a server and database of its own (a
 * copy of the seeded folder, see server.ts), so specs in different workers never see each other's writes
 * and run at the same time. Specs in one worker run one after another on its server, as before.
 */
import { test as base } from '@playwright/test';
import { startServer, type E2eServer } from './server.ts';

export { expect } from '@playwright/test';

export const test = base.extend<object, { demoServer: E2eServer }>({
  demoServer: [
    // eslint-disable-next-line no-empty-pattern -- Playwright reads the fixtures a fixture uses from this pattern.
    async ({}, use) => {
      const server = await startServer();
      await use(server);
      await server.stop();
    },
    { scope: 'worker', timeout: 180_000 },
  ],
  baseURL: async ({ demoServer }, use) => use(demoServer.baseURL),
});
