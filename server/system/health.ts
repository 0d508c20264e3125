import type { FastifyInstance, FastifyReply } from 'fastify';
import { sql } from 'kysely';
import type { Db } from '../db/database.ts';
import { RETRY_AFTER_SECONDS } from '../db/unavailable.ts';
import { migrations } from '../db/migrations/index.ts';
import { HEALTH_SCHEMA, LIVENESS_SCHEMA, READINESS_SCHEMA } from '../docs/fixed-schemas.ts';

/**
 * A database that does not answer within this time counts as unavailable: a load balancer asking
 * should hear so now, not after its own timeout.
 */
const HEALTH_TIMEOUT_MS = 2_000;

/**
 * What the process knows of itself that the database cannot tell: server.ts sets `stopping` on SIGTERM,
 * so the balancer takes the instance out of rotation before it closes its door.
 */
export class Lifecycle {
  stopping = false;
}

/** Resolves with the statement's answer, rejects when it fails or takes too long. */
async function withinTimeout<T>(work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('database health check timed out')), HEALTH_TIMEOUT_MS);
  });
  try {
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

const touchDatabase = (db: Db) => withinTimeout(sql`select 1`.execute(db));

/**
 * Whether every migration this code knows is recorded as done. Kysely's bookkeeping table is found on
 * the connection's search path, like every other table of the app.
 */
async function migrationsDone(db: Db): Promise<boolean> {
  const { rows } = await withinTimeout(sql<{ name: string }>`select name from kysely_migration`.execute(db));
  const done = new Set(rows.map((r) => r.name));
  return Object.keys(migrations).every((name) => done.has(name));
}

/**
 * `/api/health`: the database answers (kept as it was for whoever uses it). `/api/health/live`: the
 * process answers, no database touched, so a slow database never gets a live process restarted.
 * `/api/health/ready`: the database answers, its migrations are done and the process is not stopping;
 * a balancer sends traffic only while it says 200. With DATABASE_READ_URL it also names the read
 * replica's status (db/read-replica.ts), which never makes it fail.
 */
export async function healthRoutes(
  app: FastifyInstance,
  { db, lifecycle = new Lifecycle() }: { db: Db; lifecycle?: Lifecycle },
): Promise<void> {
  const unavailable = (reply: FastifyReply) =>
    reply.status(503).header('retry-after', String(RETRY_AFTER_SECONDS));

  app.get('/api/health', { logLevel: 'warn', schema: HEALTH_SCHEMA }, async (_request, reply) => {
    try {
      await touchDatabase(db);
      return { status: 'ok', database: 'ok' };
    } catch {
      return unavailable(reply).send({ status: 'unavailable', database: 'unreachable' });
    }
  });

  app.get('/api/health/live', { logLevel: 'warn', schema: LIVENESS_SCHEMA }, async () => ({ status: 'ok' }));

  // Migrations are never undone under a running instance: once seen done, they need no second look.
  let migrated = false;
  app.get('/api/health/ready', { logLevel: 'warn', schema: READINESS_SCHEMA }, async (_request, reply) => {
    let database: 'ok' | 'unreachable' = 'ok';
    let migrationState: 'done' | 'pending' | 'unknown' = migrated ? 'done' : 'unknown';
    try {
      await touchDatabase(db);
    } catch {
      database = 'unreachable';
    }
    if (database === 'ok' && !migrated) {
      // No bookkeeping table yet counts as pending too: the first migration has not run.
      migrated = await migrationsDone(db).catch(() => false);
      migrationState = migrated ? 'done' : 'pending';
    }
    const failed = [
      ...(database === 'ok' ? [] : ['database']),
      ...(migrationState === 'done' ? [] : ['migrations']),
      ...(lifecycle.stopping ? ['shutdown'] : []),
    ];
    // The read replica is told, never counted as a failure: without it the primary serves every read.
    const replica = await app.reads.replica();
    const body = {
      status: failed.length ? 'unavailable' : 'ready',
      database,
      migrations: migrationState,
      shutting_down: lifecycle.stopping,
      failed,
      ...(replica ? { replica: replica.status } : {}),
    };
    return failed.length ? unavailable(reply).send(body) : body;
  });
}
