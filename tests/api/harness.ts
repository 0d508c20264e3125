import { AsyncLocalStorage } from 'node:async_hooks';
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql, type KyselyPlugin } from 'kysely';
import pg from 'pg';
import type { FastifyInstance, FastifyServerOptions, InjectOptions, LightMyRequestResponse } from 'fastify';
import { inject } from 'vitest';
import { buildApp } from '../../server/app.ts';
import { configFromEnv, type Config } from '../../server/config.ts';
import { openDatabase, type Db } from '../../server/db/database.ts';
import { withoutStatementTimeout } from '../../server/db/statement-timeout.ts';
import { registry } from '../../server/schema/registry.ts';
import { jwtKeys, prepareDatabase } from '../../server/boot.ts';
import { fileStoreFor } from '../../server/files/store.ts';
import { pgliteCopy, postgresCopy, type Copy } from './seed-copy.ts';

export interface Target {
  name: 'pglite' | 'postgres';
  url?: string;
}

/** PGlite always; a real PostgreSQL as well when TEST_DATABASE_URL is set (CI sets it). */
export const targets: Target[] = [
  { name: 'pglite' },
  ...(process.env.TEST_DATABASE_URL
    ? [{ name: 'postgres' as const, url: process.env.TEST_DATABASE_URL }]
    : []),
];

if (!process.env.TEST_DATABASE_URL && !process.env.VITEST_QUIET_PG) {
  process.env.VITEST_QUIET_PG = '1';
  console.warn('TEST_DATABASE_URL is not set: API tests run on PGlite only, the PostgreSQL run is skipped.');
}

export interface TestApp {
  app: FastifyInstance;
  db: Db;
  target: Target;
  /** Logs in through the API; returns the bearer token, the refresh cookie and the body. */
  login(email: string, password?: string): Promise<{ token: string; cookie: string; body: any }>;
  /** Authorization header for a demo account (logged in once per test app, then cached). */
  as(email: string): Promise<Record<string, string>>;
  close(): Promise<void>;
  /** The settings the app runs with (its own DATA_DIR, its JWT secret unless `keysInDatabase`). */
  config: Config;
  /** PostgreSQL only: where its database is, so `buildSecondInstance` can open another app on it. */
  connection?: { url: string; schema?: string };
}

interface Counter {
  statements: number;
  /** Count only statements that name one of these tables (all when absent). */
  tables?: string[];
}

const counting = new AsyncLocalStorage<Counter>();

/** The names a statement's tree holds (its identifiers) and the text of its raw SQL parts. */
function namesIn(node: unknown, names: string[] = []): string[] {
  if (Array.isArray(node)) for (const item of node) namesIn(item, names);
  else if (node && typeof node === 'object') {
    const n = node as { kind?: string; name?: unknown; sqlFragments?: unknown };
    if (n.kind === 'IdentifierNode' && typeof n.name === 'string') names.push(n.name);
    if (n.kind === 'RawNode' && Array.isArray(n.sqlFragments))
      names.push(...n.sqlFragments.join(' ').split(/\W+/));
    for (const value of Object.values(node)) namesIn(value, names);
  }
  return names;
}

/** Counts every statement the app compiles inside `statementsOf` (its async context: no other caller's). */
const statementCounter: KyselyPlugin = {
  transformQuery({ node }) {
    const counter = counting.getStore();
    if (counter && (!counter.tables || namesIn(node).some((name) => counter.tables!.includes(name))))
      counter.statements += 1;
    return node;
  },
  transformResult: async ({ result }) => result,
};

const COUNTER_HEADER = 'x-test-statement-counter';
const counters = new Map<string, Counter>();

/**
 * Runs each request of an app built with `countStatements` in the async context of its counter, named by
 * a header (inject loses the caller's own context, so the request carries it).
 */
function countRequests(app: FastifyInstance): void {
  app.addHook('onRequest', (request, _reply, done) => {
    const counter = counters.get(String(request.headers[COUNTER_HEADER]));
    if (counter) counting.run(counter, done);
    else done();
  });
}

/**
 * One API call of an app built with `countStatements`, and the statements it ran: the round trips to
 * the database the call costs. Transaction control (begin, commit) is not counted.
 */
export async function statementsOf(
  t: TestApp,
  options: InjectOptions,
): Promise<{ response: LightMyRequestResponse; statements: number }> {
  const id = randomBytes(6).toString('hex');
  const counter = { statements: 0 };
  counters.set(id, counter);
  try {
    const response = await t.app.inject({
      ...options,
      headers: { ...options.headers, [COUNTER_HEADER]: id },
    });
    return { response, statements: counter.statements };
  } finally {
    counters.delete(id);
  }
}

/**
 * A counter for a request that outlives one inject (a real HTTP request, an event stream): send the
 * header with it, and every statement the app runs for that request, then or later, is counted, until
 * `stop`; with `tables`, only those that read or write one of them (not, say, the loading of the
 * caller's auth context, which its cache keeps only a few seconds).
 */
export function requestStatements(tables?: string[]): {
  headers: Record<string, string>;
  statements(): number;
  stop(): void;
} {
  const id = randomBytes(6).toString('hex');
  const counter: Counter = { statements: 0, tables };
  counters.set(id, counter);
  return {
    headers: { [COUNTER_HEADER]: id },
    statements: () => counter.statements,
    stop: () => counters.delete(id),
  };
}

/**
 * A migrated, demo-seeded database and the app on top of it: a copy of the run's seed (seed-copy.ts),
 * a database of its own on either engine. Without the demo seed, or with a statement timeout (which
 * the migrations and the seed must be shown to run without), it is built from scratch as the server
 * builds it: on PostgreSQL in a schema of its own, so test files can run side by side in one database.
 */
export async function buildTestApp(
  target: Target,
  options: {
    seed?: 'demo' | 'none';
    logger?: FastifyServerOptions['logger'];
    /** Settings over the defaults (SMTP_URL, MSGRAPH_*, …). */
    config?: Partial<Omit<Config, 'jwtSecret'>>;
    /** Milliseconds between the app's file sweeps (0: none). */
    fileSweepMs?: number;
    /** PostgreSQL: the pool's statement timeout (STATEMENT_TIMEOUT_MS); absent: none. */
    statementTimeoutMs?: number;
    /**
     * PostgreSQL: no JWT secret; the access tokens' keys come from the database, as the server's do
     * with DATABASE_URL and no JWT_SECRET. Second instances of this app do the same.
     */
    keysInDatabase?: boolean;
    /** The app's statements pass a counter, read with `statementsOf` (a handle of its own: off by default). */
    countStatements?: boolean;
  } = {},
): Promise<TestApp> {
  if (options.keysInDatabase && !target.url) throw new Error('keysInDatabase needs PostgreSQL');
  const config: Config = {
    ...configFromEnv({}),
    dataDir: join(tmpdir(), `sd-test-${randomBytes(4).toString('hex')}`),
    jwtSecret: options.keysInDatabase ? undefined : 'test-secret-' + randomBytes(8).toString('hex'),
    ...options.config,
  };
  // The seed reads no setting but the file store's folder (DATA_DIR), and a copy brings its files.
  const copy =
    (options.seed ?? 'demo') === 'demo' && !options.statementTimeoutMs
      ? await copyOfSeed(target, config.dataDir)
      : undefined;
  let schema: string | undefined;
  if (!copy && target.url) {
    schema = `t_${randomBytes(6).toString('hex')}`;
    const client = new pg.Client({ connectionString: target.url });
    await client.connect();
    await client.query(`create schema ${schema}`);
    await client.end();
  }
  const database =
    copy?.database ??
    (await openDatabase(
      target.url
        ? { url: target.url, schema, poolSize: 4, statementTimeoutMs: options.statementTimeoutMs }
        : {},
    ));
  const connection = copy?.url ? { url: copy.url } : target.url ? { url: target.url, schema } : undefined;
  const reg = registry();
  // On a copy too: what the server does at every boot (migrations due, permissions in sync) happens
  // here as there; the copy's tenants keep the seed from running again.
  await withoutStatementTimeout(database.db, (db) =>
    prepareDatabase(db, reg, options.seed ?? 'demo', schema, fileStoreFor(config, db)),
  );
  const app = await buildApp({
    db: options.countStatements ? database.db.withPlugin(statementCounter) : database.db,
    registry: reg,
    config,
    jwtKeys: options.keysInDatabase ? await jwtKeys(config, database.db, true) : undefined,
    logger: options.logger ?? false,
    fileSweepMs: options.fileSweepMs,
    listenUrl: connection?.url,
  });
  if (options.countStatements) countRequests(app);
  await app.ready();
  return testApp(app, database.db, target, config, connection, async () => {
    // Without the app's statement timeout: a test may set it at 200 ms, and dropping a schema of the
    // whole seed can take longer on a busy machine.
    if (schema)
      await withoutStatementTimeout(database.db, (db) =>
        sql.raw(`drop schema ${schema} cascade`).execute(db),
      );
    await database.close();
    await copy?.drop();
    // A DATA_DIR made here (with the seed's files in it) goes with the app; one the test gave, stays.
    if (!options.config?.dataDir) rmSync(config.dataDir, { recursive: true, force: true });
  });
}

/**
 * Another instance on the first one's PostgreSQL database, as a second process behind a balancer would
 * be: its own pool, app and DATA_DIR (instances share no disk), the same JWT secret unless `config`
 * says otherwise (or, when the first has its keys in the database, those keys). Close it before the first, which owns the database.
 */
export async function buildSecondInstance(
  first: TestApp,
  options: { config?: Partial<Omit<Config, 'dataDir' | 'jwtSecret'>>; fileSweepMs?: number } = {},
): Promise<TestApp> {
  if (!first.connection) throw new Error('a second instance needs the first on PostgreSQL');
  const config: Config = {
    ...first.config,
    dataDir: join(tmpdir(), `sd-test-${randomBytes(4).toString('hex')}`),
    ...options.config,
  };
  const database = await openDatabase({ ...first.connection, poolSize: 4 });
  const app = await buildApp({
    db: database.db,
    registry: registry(),
    config,
    // Without a secret, as the first: the keys from the shared database.
    jwtKeys: config.jwtSecret ? undefined : await jwtKeys(config, database.db, true),
    logger: false,
    fileSweepMs: options.fileSweepMs,
    listenUrl: first.connection.url,
  });
  await app.ready();
  return testApp(app, database.db, first.target, config, first.connection, async () => {
    await database.close();
    rmSync(config.dataDir, { recursive: true, force: true });
  });
}

/** The test's handle on an app: logins through the API, tokens per demo account, closing. */
function testApp(
  app: FastifyInstance,
  db: Db,
  target: Target,
  config: TestApp['config'],
  connection: TestApp['connection'],
  closeDatabase: () => Promise<void>,
): TestApp {
  const tokens = new Map<string, string>();
  const login: TestApp['login'] = async (email, password = 'demo') => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { username: email, password },
    });
    if (res.statusCode !== 200) throw new Error(`login ${email}: ${res.statusCode} ${res.body}`);
    const setCookie = res.headers['set-cookie'];
    const cookie = (Array.isArray(setCookie) ? setCookie[0] : setCookie)?.split(';')[0] ?? '';
    const body = res.json();
    // An operator has one session: a new login replaces the token `as()` hands out.
    tokens.set(email, body.access_token);
    return { token: body.access_token, cookie, body };
  };
  return {
    app,
    db,
    target,
    config,
    connection,
    login,
    async as(email) {
      if (!tokens.has(email)) tokens.set(email, (await login(email)).token);
      return { authorization: `Bearer ${tokens.get(email)}` };
    },
    async close() {
      await app.close();
      await closeDatabase();
    },
  };
}

/** The run's seed copied (global-setup.ts); none when this runs without that setup (another config). */
async function copyOfSeed(target: Target, dataDir: string): Promise<Copy | undefined> {
  const seeds = inject('seeds');
  if (!seeds) return undefined;
  return target.url ? postgresCopy(seeds, target.url, dataDir, { poolSize: 4 }) : pgliteCopy(seeds, dataDir);
}

/** The first real ticket (no template) of the demo client's company, Jansen BV. */
export async function firstClientTicketId(db: Db): Promise<number> {
  const ticket = await db
    .selectFrom('tickets')
    .innerJoin('companies', 'companies.id', 'tickets.company_id')
    .select('tickets.id')
    .where('companies.name', '=', 'Jansen BV')
    .where('tickets.is_template', '=', false)
    .orderBy('tickets.id')
    .executeTakeFirstOrThrow();
  return Number(ticket.id);
}
