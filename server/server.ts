import { join } from 'node:path';
import { buildApp, REDACTED_LOG_PATHS } from './app.ts';
import { configFromEnv } from './config.ts';
import { embeddedDatabase, openDatabase, type DatabaseConnection } from './db/database.ts';
import { underStartupLock } from './db/startup-lock.ts';
import { Lifecycle } from './system/health.ts';
import { withoutStatementTimeout } from './db/statement-timeout.ts';
import { FolderInUse } from './db/folder-lock.ts';
import { registry } from './schema/registry.ts';
import { jwtKeys, prepareDatabase, DEMO_PASSWORD } from './boot.ts';
import { fileStoreFor } from './files/store.ts';
import { checkS3Bucket } from './files/s3-store.ts';
import { installSafetyNet } from './safety-net.ts';
import { faultsEnabled } from './http/faults.ts';
import { NewerDatabase } from './db/migrate.ts';
import { serveBackups } from './backup/socket.ts';
import type { Server as SocketServer } from 'node:net';

const config = configFromEnv();
const pgliteDir = join(config.dataDir, 'pglite');
// The app's logger once it exists; before that, errors go to stderr.
let log: Pick<Console, 'warn'> = { warn: (...args) => console.warn(...args) };
/** The server's pool, or the one start-up uses: PostgreSQL's connections ask for no session state. */
const open = (statementTimeoutMs: number, poolSize: number) =>
  openDatabase(
    config.databaseUrl
      ? {
          url: config.databaseUrl,
          onConnectionError: (error) => log.warn({ err: error }, 'database connection lost'),
          statementTimeoutMs,
          poolSize,
          idleTimeoutMs: config.databaseIdleTimeoutMs,
          minConnections: config.databasePoolMin,
        }
      : { dataDir: pgliteDir },
  ).catch((error: unknown) => {
    // Another process serves from the same embedded folder: say which, and do not start.
    if (!(error instanceof FolderInUse)) throw error;
    console.error(error.message);
    process.exit(1);
  });

// A bucket that is missing or refuses us stops the start with the setting to fix; one that does not
// answer is a warning: files answer 503 until it does, everything else works (decisions, 2026-11-24).
if (config.s3) {
  try {
    const warning = await checkS3Bucket(config.s3);
    if (warning) console.warn(warning);
  } catch (error) {
    console.error((error as Error).message);
    process.exit(1);
  }
}

let seeded = false;
let database: DatabaseConnection;
/** A database upgraded by a newer version stops the start with what to do, not a stack trace. */
const refuseNewer = (error: unknown): never => {
  if (!(error instanceof NewerDatabase)) throw error;
  console.error(error.message);
  process.exit(1);
};
if (config.databaseUrl) {
  // Migrations and the demo seed may rightly take longer than any request may: they run on a pool of
  // their own with no statement timeout (no `SET` on a shared connection), two connections: one holds
  // the lock that lets parallel starts take turns, the other works.
  const boot = await open(0, 2);
  try {
    ({ seeded } = await underStartupLock(boot.db, () =>
      prepareDatabase(boot.db, registry(), config.seed, undefined, fileStoreFor(config, boot.db)),
    ));
  } catch (error) {
    await boot.close();
    refuseNewer(error);
  }
  await boot.close();
  database = await open(config.statementTimeoutMs, config.databasePoolSize);
} else {
  database = await open(0, 1);
  try {
    ({ seeded } = await withoutStatementTimeout(database.db, (db) =>
      prepareDatabase(db, registry(), config.seed, undefined, fileStoreFor(config, db)),
    ));
  } catch (error) {
    await database.close();
    refuseNewer(error);
  }
}
// The read replica: a pool of its own, the same size and statement timeout, used by reads only (a
// standby refuses writes, so nothing above ran on it). Opening connects nothing: a standby that is
// down at start only sends the reads to the primary.
const readDatabase = config.databaseReadUrl
  ? await openDatabase({
      url: config.databaseReadUrl,
      onConnectionError: (error) => log.warn({ err: error }, 'read replica connection lost'),
      statementTimeoutMs: config.statementTimeoutMs,
      poolSize: config.databasePoolSize,
      idleTimeoutMs: config.databaseIdleTimeoutMs,
      minConnections: config.databasePoolMin,
    })
  : undefined;
const lifecycle = new Lifecycle();
const app = await buildApp({
  db: database.db,
  readDb: readDatabase?.db,
  registry: registry(),
  config,
  jwtKeys: await jwtKeys(config, database.db, database.kind === 'postgres'),
  logger: { level: config.logLevel, redact: REDACTED_LOG_PATHS },
  faults: faultsEnabled(process.env, (message) => console.warn(message)),
  // Other instances' logouts and logins reach this one's auth cache (PostgreSQL only).
  listenUrl: config.databaseUrl ? (config.databaseListenUrl ?? config.databaseUrl) : undefined,
  lifecycle,
});
log = app.log;

let closing = false;
/** The backup socket of an embedded database, once listening (a signal may come before). */
const backups: { socket?: SocketServer } = {};
let endDrain: (() => void) | undefined;
/**
 * SIGTERM (a balancer's orchestrator stopping this instance): first answer not-ready and serve on for
 * SHUTDOWN_DRAIN_MS, so the balancer's health checks take the instance out of rotation before its door
 * closes; then requests in flight finish, the export worker hands its job back, the database closes.
 * SIGINT (a person at a terminal) and a crash skip the drain; a second signal cuts it short.
 */
async function shutdown(reason: string, exitCode = 0, drainMs = 0) {
  if (closing) {
    endDrain?.();
    return;
  }
  closing = true;
  lifecycle.stopping = true;
  if (drainMs > 0) {
    app.log.info({ reason, drainMs }, 'not ready: draining before shutdown');
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, drainMs);
      endDrain = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }
  app.log.info({ reason }, 'shutting down');
  // Closing waits for every open connection; idle keep-alive ones go at once, but a client that holds
  // one mid-request (a stalled upload, a balancer's half-sent request) would keep this process alive
  // until its own timeout. Requests in flight get SHUTDOWN_CLOSE_MS to finish, then what is open is cut.
  const cut = setTimeout(() => {
    app.log.warn({ reason }, 'shutting down: cutting the connections still open');
    app.server.closeAllConnections();
  }, config.shutdownCloseMs);
  cut.unref();
  await app.close();
  clearTimeout(cut);
  await new Promise((resolve) => (backups.socket ? backups.socket.close(resolve) : resolve(undefined)));
  // PGlite writes its folder on close; a killed process would lose the last writes.
  await database.close();
  await readDatabase?.close();
  process.exit(exitCode);
}
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM', 0, config.shutdownDrainMs));
// Once serving, an error that escaped its request is logged and the others are served on.
installSafetyNet(app.log, (reason) => void shutdown(reason, 1));

await app.listen({ port: config.port, host: config.host });
// npm run backup asks this process for the dump while it holds the embedded folder (backup/socket.ts).
const pglite = embeddedDatabase(database.db);
backups.socket = pglite
  ? await serveBackups({ db: database.db, pglite, dataDir: config.dataDir }, app.log)
  : undefined;
const where = config.databaseUrl
  ? `PostgreSQL (DATABASE_URL${config.databaseReadUrl ? ', reads also on DATABASE_READ_URL' : ''})`
  : `embedded PostgreSQL in ${pgliteDir}`;
const demoAccounts = `
Demo accounts (password "${DEMO_PASSWORD}"):
  admin@example.com      second-line operator, every permission
  operator@example.com   first-line operator
  client@example.com     client of Jansen BV
  other@example.com      client of De Vries Installaties
`;
// An installation without a tenant has one thing to do (issue 32): say what and where.
const firstRun = (await database.db.selectFrom('tenants').select('id').limit(1).executeTakeFirst())
  ? ''
  : `
No tenant yet: open http://localhost:${config.port}/ to set up this desk (the first visitor does),
or run: npm run setup -- --tenant "Your company" --admin-email you@example.com --admin-name "First Last"
`;
console.log(`
Service desk running at http://localhost:${config.port}
  API:       http://localhost:${config.port}/api   (docs: /api/docs)
  Database:  ${where}${seeded ? ', filled with demo data' : ''}
${config.seed === 'demo' ? demoAccounts : firstRun}`);
