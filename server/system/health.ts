import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import type { Db } from '../db/database.ts';

/** Liveness and readiness in one: 200 when the database answers, 503 when it does not. */
export async function healthRoutes(app: FastifyInstance, { db }: { db: Db }): Promise<void> {
  app.get('/api/health', { logLevel: 'warn' }, async (_request, reply) => {
    try {
      await sql`select 1`.execute(db);
      return { status: 'ok', database: 'ok' };
    } catch {
      return reply.status(503).send({ status: 'unavailable', database: 'unreachable' });
    }
  });
}
