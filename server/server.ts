import { join } from 'node:path';
import { buildApp, REDACTED_LOG_PATHS } from './app.ts';
import { configFromEnv } from './config.ts';
import { openDatabase } from './db/database.ts';
import { withoutStatementTimeout } from './db/statement-timeout.ts';
import { FolderInUse } from './db/folder-lock.ts';
import { registry } from './schema/registry.ts';
import { jwtSecret, prepareDatabase, DEMO_PASSWORD } from './boot.ts';
import { fileStoreFor } from './files/store.ts';
import { installSafetyNet } from './safety-net.ts';
import { faultsEnabled } from './http/faults.ts';

const config = configFromEnv();
const pgliteDir = join(config.dataDir, 'pglite');
// The app's logger once it exists; before that, errors go to stderr.
let log: Pick<Console, 'warn'> = { warn: (...args) => console.warn(...args) };
const database = await openDatabase(
  config.databaseUrl
    ? {
        url: config.databaseUrl,
        onConnectionError: (error) => log.warn({ err: error }, 'database connection lost'),
        statementTimeoutMs: config.statementTimeoutMs,
      }
    : { dataDir: pgliteDir },
).catch((error: unknown) => {
  // Another process serves from the same embedded folder: say which, and do not start.
  if (!(error instanceof FolderInUse)) throw error;
  console.error(error.message);
  process.exit(1);
});
// Migrations and the demo seed may rightly take longer than any request may.
const { seeded } = await withoutStatementTimeout(database.db, (db) =>
  prepareDatabase(db, registry(), config.seed, undefined, fileStoreFor(config, db)),
);
const app = await buildApp({
  db: database.db,
  registry: registry(),
  config: { ...config, jwtSecret: jwtSecret(config) },
  logger: { level: config.logLevel, redact: REDACTED_LOG_PATHS },
  faults: faultsEnabled(process.env, (message) => console.warn(message)),
});
log = app.log;

let closing = false;
/** Requests in flight finish, the export worker hands its job back, then the database closes. */
async function shutdown(reason: string, exitCode = 0) {
  if (closing) return;
  closing = true;
  app.log.info({ reason }, 'shutting down');
  await app.close();
  // PGlite writes its folder on close; a killed process would lose the last writes.
  await database.close();
  process.exit(exitCode);
}
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));
// Once serving, an error that escaped its request is logged and the others are served on.
installSafetyNet(app.log, (reason) => void shutdown(reason, 1));

await app.listen({ port: config.port, host: config.host });
const where = config.databaseUrl ? 'PostgreSQL (DATABASE_URL)' : `embedded PostgreSQL in ${pgliteDir}`;
const demoAccounts = `
Demo accounts (password "${DEMO_PASSWORD}"):
  admin@example.com      second-line operator, every permission
  operator@example.com   first-line operator
  client@example.com     client of Jansen BV
  other@example.com      client of De Vries Installaties
`;
console.log(`
Service desk running at http://localhost:${config.port}
  API:       http://localhost:${config.port}/api   (docs: /api/docs)
  Database:  ${where}${seeded ? ', filled with demo data' : ''}
${config.seed === 'demo' ? demoAccounts : ''}`);
