/**
 * Read-your-own-writes with a read replica, across instances behind a balancer: after a request that
 * may have written (any method but GET, HEAD and OPTIONS, answered below 400) the primary's WAL
 * position goes back to the client in an HttpOnly cookie on /api for a minute; a read that carries it
 * goes to the standby only once the standby has replayed that far (db/read-replica.ts). The cookie is
 * the only state, so the next read may land on any instance. Without DATABASE_READ_URL nothing of
 * this runs: no cookie, no extra statement, every read on the one database.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import type { Db } from '../db/database.ts';
import { ReadReplica, type ReplicaView } from '../db/read-replica.ts';
import { END_OF_WAL, parseLsn } from '../db/wal-position.ts';
import { replicaGauges } from '../metrics/metrics.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Where generic list and detail reads run: the read replica when it may, else the primary. */
    reads: Reads;
  }
}

export interface Reads {
  /** Runs a read that needs to see no more than the caller's own writes; `work` may run twice. */
  run<T>(request: FastifyRequest, work: (db: Db) => Promise<T>): Promise<T>;
  /** The standby as last seen; undefined without DATABASE_READ_URL. */
  replica(): Promise<ReplicaView | undefined>;
}

export const READ_POSITION_COOKIE = 'read_after';
/** Far longer than the lag a standby may have and still serve (REPLICA_MAX_LAG_MS). */
const READ_POSITION_SECONDS = 60;
const READS_ONLY = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * The position a request carries: undefined without the cookie. A value that is no WAL position
 * (tampered with, cut off) counts as "after everything", so that read goes to the primary: no value a
 * client sends can move a read to the standby that the standby should not answer.
 */
export function readPosition(request: FastifyRequest): bigint | undefined {
  const text = request.cookies?.[READ_POSITION_COOKIE];
  if (text === undefined || text === '') return undefined;
  return parseLsn(text) ?? parseLsn(END_OF_WAL);
}

export function installReadRouting(
  app: FastifyInstance,
  { db, readDb, maxLagMs }: { db: Db; readDb?: Db; maxLagMs: number },
): void {
  if (!readDb) {
    app.decorate('reads', {
      run: (_request, work) => work(db),
      replica: async () => undefined,
    } satisfies Reads);
    return;
  }
  const gauges = app.metrics ? replicaGauges(app.metrics) : undefined;
  const replica = new ReadReplica({
    primary: db,
    replica: readDb,
    maxLagMs,
    log: app.log,
    onRead: (database, reason) => app.metrics?.reads.inc({ database, reason }),
    onMeasured: (view) => gauges?.set(view),
  });
  app.decorate('reads', {
    run: (request, work) => replica.run(readPosition(request), work),
    replica: () => replica.view(),
  } satisfies Reads);

  app.addHook('onSend', async (request, reply, payload) => {
    if (READS_ONLY.has(request.method) || reply.statusCode >= 400) return payload;
    // The insert position: at or past the end of every commit this request made (the write position
    // may trail it under synchronous_commit = off). The standby reaches it once it has replayed them.
    const position = await sql<{ lsn: string }>`select pg_current_wal_insert_lsn()::text as lsn`
      .execute(db)
      .then(
        ({ rows }) => rows[0]!.lsn,
        (error: unknown) => {
          // The write went through, its position did not: this caller reads from the primary for a while.
          request.log.warn({ err: error }, 'WAL position not read: the next reads go to the primary');
          return END_OF_WAL;
        },
      );
    reply.setCookie(READ_POSITION_COOKIE, position, {
      httpOnly: true,
      sameSite: 'strict',
      path: '/api',
      secure: request.protocol === 'https',
      maxAge: READ_POSITION_SECONDS,
    });
    return payload;
  });
}
