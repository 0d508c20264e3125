import { configDefaults, defineConfig } from 'vitest/config';
import { schemaLabelsApart } from './common/schema/label-split-plugin.ts';
import { PGLITE_NODE_FLAGS } from './tests/node-flags.ts';

export default defineConfig({
  // The language chunks import the schemas' words of their language only (`?labels=nl`).
  plugins: [schemaLabelsApart()],
  test: {
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // PGlite takes about 1 GB per instance; two cores.
    maxWorkers: 2,
    // Every answer of an app built in a test is checked against what its response schema writes
    // (server/http/serialization-check.ts; vitest sets NODE_ENV=test, the check's second key).
    env: { SERIALIZATION_CHECK: '1' },
    // What the server reads from disk instead of importing, which vitest's import graph (`--changed`,
    // npm run test:changed, watch mode) cannot follow: a change to one of them runs every file.
    forceRerunTriggers: [
      ...configDefaults.forceRerunTriggers,
      '**/schemas/**',
      '**/server/db/migrations/**',
      '**/server/**/*.txt',
    ],
    // Two projects so that only a run with API tests in it pays for seeding their databases.
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['tests/unit/**/*.test.ts'],
          // Node-only files that share each worker's loaded modules, as the API files do: importing the
          // server's registry, ajv and Kysely again per file was most of this project's time. No file
          // here changes a module's state or process.env, and the run passes in shuffled order.
          isolate: false,
        },
      },
      {
        extends: true,
        // The browser code's files, mostly in jsdom: each keeps its own module graph and document, since
        // react-admin, i18n and the HTTP client hold state per module (stores, tokens, fake timers).
        test: { name: 'browser', include: ['tests/browser/**/*.test.{ts,tsx}'] },
      },
      {
        extends: true,
        test: {
          name: 'api',
          include: ['tests/api/**/*.test.ts'],
          globalSetup: ['tests/api/global-setup.ts'],
          // The API files share each worker's loaded modules (the server, Fastify, ajv, Kysely) instead
          // of importing them again per file: a quarter of the phase's CPU. Each file still has its own
          // database copy and apps, and no file changes a module's state or process.env.
          isolate: false,
          // Their PGlite on V8's baseline compiler only (tests/node-flags.ts).
          execArgv: PGLITE_NODE_FLAGS,
        },
      },
      {
        extends: true,
        // The Dockerfile built and run with podman (tests/container/podman.ts): no database seed of the
        // API tests, and minutes on a machine's first run (the base image).
        test: { name: 'container', include: ['tests/container/**/*.test.ts'] },
      },
    ],
  },
});
