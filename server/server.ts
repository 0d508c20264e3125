import { join } from 'node:path';
import { buildApp, REDACTED_LOG_PATHS } from './app.ts';
import { configFromEnv } from './config.ts';
import { openDatabase } from './db/database.ts';
import { registry } from './schema/registry.ts';
import { jwtSecret, prepareDatabase, DEMO_PASSWORD } from './boot.ts';
import { fileStoreFor } from './files/store.ts';

const config = configFromEnv();
const database = await openDatabase(
  config.databaseUrl ? { url: config.databaseUrl } : { dataDir: join(config.dataDir, 'pglite') },
);
const { seeded } = await prepareDatabase(
  database.db,
  registry(),
  config.seed,
  undefined,
  fileStoreFor(config),
);
const app = await buildApp({
  db: database.db,
  registry: registry(),
  config: { ...config, jwtSecret: jwtSecret(config) },
  logger: { level: config.logLevel, redact: REDACTED_LOG_PATHS },
});

let closing = false;
async function shutdown(signal: string) {
  if (closing) return;
  closing = true;
  app.log.info({ signal }, 'shutting down');
  await app.close();
  // PGlite writes its folder on close; a killed process would lose the last writes.
  await database.close();
  process.exit(0);
}
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));

await app.listen({ port: config.port, host: config.host });
const where = config.databaseUrl
  ? 'PostgreSQL (DATABASE_URL)'
  : `embedded PostgreSQL in ${join(config.dataDir, 'pglite')}`;
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
