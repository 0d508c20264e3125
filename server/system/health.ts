import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import type { Db } from '../db/database.ts';
import { RETRY_AFTER_SECONDS } from '../db/unavailable.ts';

/**
 * A database that does not answer within this time counts as unavailable: a load balancer asking
 * should hear so now, not after its own timeout.
 */
const HEALTH_TIMEOUT_MS = 2_000;

/** Resolves when the database has answered a statement, rejects when it fails or takes too long. */
async function touchDatabase(db: Db): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('database health check timed out')), HEALTH_TIMEOUT_MS);
  });
  try {
    await Promise.race([sql`select 1`.execute(db), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** Liveness and readiness in one: 200 when the database answers, 503 when it does not. */
export async function healthRoutes(app: FastifyInstance, { db }: { db: Db }): Promise<void> {
  app.get('/api/health', { logLevel: 'warn' }, async (_request, reply) => {
    try {
      await touchDatabase(db);
      return { status: 'ok', database: 'ok' };
    } catch {
      return reply
        .status(503)
        .header('retry-after', String(RETRY_AFTER_SECONDS))
        .send({ status: 'unavailable', database: 'unreachable' });
    }
  });
}
