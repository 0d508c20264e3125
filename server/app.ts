import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import cookie from '@fastify/cookie';
import type { Config } from './config.ts';
import { embeddedDatabase, type Db } from './db/database.ts';
import type { Registry } from './schema/registry.ts';
import { installErrorHandler } from './http/error-handler.ts';
import { compressionPlugin } from './http/compression.ts';
import { securityHeadersPlugin } from './http/security-headers.ts';
import { ValidationError } from './http/errors.ts';
import { refuseNulText } from './http/nul-text.ts';
import { refuseHostileHosts } from './http/host-header.ts';
import { connectionLimits } from './http/timeouts.ts';
import { installFaults } from './http/faults.ts';
import { tenancyPlugin } from './tenancy/plugin.ts';
import { setupRoutes } from './setup/routes.ts';
import { authPlugin } from './auth/plugin.ts';
import { healthRoutes, type Lifecycle } from './system/health.ts';
import type { KeyRing } from './db/signing-keys.ts';
import { metricsPlugin } from './metrics/plugin.ts';
import { docsPlugin } from './docs/plugin.ts';
import { resourceRoutes } from './resources/plugin.ts';
import { webApps } from './web/plugin.ts';
import { resourceActions } from './resources/actions.ts';
import { parseQueryString, queryStringProblems } from './query/query-string.ts';
import { exportRoutes } from './exports/routes.ts';
import { reportRoutes } from './reports/routes.ts';
import { timeReportRoutes } from './reports/time-routes.ts';
import { serviceOverviewRoutes } from './reports/service-overview-routes.ts';
import { searchRoutes } from './search/routes.ts';
import type { ExportWorkerOptions } from './exports/worker.ts';
import { fileStoreFor } from './files/store.ts';
import { scheduleFileSweep } from './files/sweep.ts';
import { installOutbox } from './mail/plugin.ts';
import { installMailFetcher } from './mail/inbound/plugin.ts';
import { installReadRouting } from './http/read-position.ts';
import { PgListener } from './db/listener.ts';
import { EmbeddedListener } from './db/embedded-listener.ts';
import { livePlugin } from './live/plugin.ts';
import { serializationCheckEnabled } from './http/serialization-check.ts';
import { answerSerializers } from './http/answer-serializers.ts';

/** How often files of deleted attachments are removed from the store. */
const FILE_SWEEP_MS = 5 * 60 * 1000;

export interface AppOptions {
  db: Db;
  /** PostgreSQL: the read replica's pool (DATABASE_READ_URL), for generic list and detail reads only. */
  readDb?: Db;
  registry: Registry;
  /** Needs `jwtSecret` unless `jwtKeys` is given. */
  config: Config;
  /** The access tokens' signing keys (boot.ts jwtKeys); default: config.jwtSecret as the one key. */
  jwtKeys?: KeyRing;
  logger?: FastifyServerOptions['logger'];
  /** The export worker of this process (tests switch it off to leave jobs for a restart). */
  exports?: ExportWorkerOptions;
  /** Milliseconds between sweeps of removed files; 0 switches the sweep off. */
  fileSweepMs?: number;
  /** The browser tests' faults on request (server/http/faults.ts); never on in production. */
  faults?: boolean;
  /** PostgreSQL: a direct connection for LISTEN (DATABASE_LISTEN_URL, else DATABASE_URL). */
  listenUrl?: string;
  /** Set by server.ts when the process is stopping: /api/health/ready then answers 503. */
  lifecycle?: Lifecycle;
  /**
   * Check every answer against what its response schema writes (server/http/serialization-check.ts);
   * default: on in tests (SERIALIZATION_CHECK=1 and NODE_ENV=test), never in production.
   */
  checkSerialization?: boolean;
}

/** Paths whose values never reach a log line. */
export const REDACTED_LOG_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-quote-token"]',
  'res.headers["set-cookie"]',
  'password',
  'access_token',
];

/** The whole API as a plugin tree that tests build and `inject` into; server.ts only listens. */
export async function buildApp({
  db,
  readDb,
  registry,
  config,
  logger = false,
  exports,
  fileSweepMs = FILE_SWEEP_MS,
  faults = false,
  listenUrl,
  lifecycle,
  jwtKeys,
  checkSerialization = serializationCheckEnabled(process.env),
}: AppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger,
    bodyLimit: 1024 * 1024,
    // Slow and idle clients are cut off (slowloris): header, request, keep-alive and idle timeouts.
    ...connectionLimits(config),
    // Behind a TLS proxy: request.protocol (the refresh cookie's Secure flag) and request.ip (the
    // rate limits) come from its X-Forwarded-* headers, and only then. Fastify takes a hop count at run
    // time (lib/request.js) but its type leaves number out.
    trustProxy: config.trustProxy as boolean | string | string[],
    // Unknown body fields are an error the caller should hear about, not something to drop silently.
    ajv: { customOptions: { removeAdditional: false } },
    routerOptions: {
      querystringParser: parseQueryString,
      maxParamLength: 200,
    },
    // Answers are written from their response schemas (fast-json-stringify), each route's writer made
    // at its first answer; the tests check each one against JSON.stringify, so a schema that lags behind
    // its handler fails a test instead of quietly dropping a field.
    schemaController: answerSerializers(checkSerialization),
  });
  installErrorHandler(app);
  refuseNulText(app);
  if (lifecycle) {
    // Draining (SIGTERM): each answer closes its connection, so keep-alive clients and balancers open
    // their next request elsewhere instead of holding this process open.
    app.addHook('onSend', async (_request, reply) => {
      if (lifecycle.stopping) reply.header('connection', 'close');
    });
  }
  if (faults) installFaults(app);
  app.addHook('preValidation', async (request) => {
    const problems = queryStringProblems(request.query);
    if (problems) throw new ValidationError(problems);
  });
  // First: every answer, an early refusal included, carries the security headers.
  await app.register(securityHeadersPlugin);
  // Before every route: its hook compresses what they answer.
  await app.register(compressionPlugin);
  // Before every plugin that mails: they queue through app.outbox.
  installOutbox(app, db, config);
  // Incoming mail (issue 19): every instance fetches the tenants' mailboxes; stops before the database closes.
  installMailFetcher(app, db, registry, config);
  await app.register(cookie);
  // Before every plugin that declares routes: @fastify/swagger documents the routes it sees added.
  await app.register(docsPlugin, { registry });
  // Before the tenancy: its hook counts the answers of every later refusal too.
  await app.register(metricsPlugin, { db, config });
  // Before every route: its hook hands out the write position after each write (counted by the metrics).
  installReadRouting(app, { db, readDb, maxLagMs: config.replicaMaxLagMs });
  // Before the tenancy and every route: a Host that is not one plain `host[:port]` names nothing (400).
  refuseHostileHosts(app);
  await app.register(tenancyPlugin, { db, config });
  // PostgreSQL: one LISTEN connection per instance, on which the auth cache and the live events hear
  // the other instances (server/db/listener.ts); started once both have added their channels.
  const listener = listenUrl ? new PgListener({ url: listenUrl, log: app.log }) : undefined;
  // PGlite: the same triggers' notifications, heard in process by the auth cache alone.
  const pglite = listener ? undefined : embeddedDatabase(db);
  const embedded = pglite ? new EmbeddedListener(pglite) : undefined;
  if (embedded) {
    app.addHook('onReady', () => embedded.start());
    app.addHook('preClose', () => embedded.stop());
  }
  await app.register(authPlugin, { db, config, registry, listener: listener ?? embedded, jwtKeys });
  await app.register(healthRoutes, { db, lifecycle });
  await app.register(setupRoutes, { db, registry, config });
  // Actions first: a resource's own route replaces the generic one of the same address (messages and
  // attachments are created from multipart forms), and the generic plugin skips what exists.
  await app.register(resourceActions, { db, registry, config });
  await app.register(resourceRoutes, { db, registry });
  await app.register(searchRoutes, { registry });
  // GET /api/events and the deadline check; its bus hears on the listener (or in process).
  await app.register(livePlugin, { db, registry, config, listener });
  if (listener) {
    app.addHook('onReady', () => listener.start());
    app.addHook('onClose', () => listener.stop());
  }
  // Starts its worker when the app is ready and stops it on close (onReady/onClose hooks).
  await app.register(exportRoutes, { db, registry, config, worker: exports });
  await app.register(reportRoutes, { db });
  await app.register(timeReportRoutes, { db });
  await app.register(serviceOverviewRoutes, { db });
  scheduleFileSweep(app, db, fileStoreFor(config, db), fileSweepMs);
  await app.register(webApps);
  return app;
}
