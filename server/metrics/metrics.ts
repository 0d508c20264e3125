/**
 * The metrics of one app (one instance), in a prom-client registry of its own: several apps in one
 * process (the tests) keep apart, and every series carries `instance_id` so that the instances behind a
 * balancer can be told apart after Prometheus adds them up. Labels only ever take values from a fixed,
 * small set (route patterns, methods, status codes, names in this code): never a raw address, an id or
 * user input, so no caller can grow the number of series.
 */
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { FastifyBaseLogger } from 'fastify';
import { poolStats, type Db } from '../db/database.ts';
import type { QueueDepth } from './queue-depths.ts';
import type { ReplicaView } from '../db/read-replica.ts';

/** How long a scrape waits for a queue count before it leaves that series out. */
const QUEUE_COUNT_TIMEOUT_MS = 2_000;

export interface AppMetrics {
  registry: Registry;
  requests: Counter<'method' | 'route' | 'status'>;
  requestSeconds: Histogram<'method' | 'route' | 'status'>;
  /** Statements PostgreSQL cancelled at STATEMENT_TIMEOUT_MS, answered 503. */
  statementTimeouts: Counter;
  /** Requests answered 503 because the database could not be reached. */
  databaseUnavailable: Counter;
  /** Sign-ins refused for wrong credentials (`method`: password or sso). */
  loginFailures: Counter<'method'>;
  /** 429 answers of the attempt limits (`limit`: login or password_reset). */
  rateLimitRefusals: Counter<'limit'>;
  /** Generic list and detail reads with DATABASE_READ_URL, by where they ran and why (db/read-replica.ts). */
  reads: Counter<'database' | 'reason'>;
}

export interface MetricsOptions {
  db: Db;
  instance: string;
  queues: QueueDepth[];
  log: FastifyBaseLogger;
  /** Node's process metrics (CPU, memory, event loop, GC); only when someone can scrape them. */
  processMetrics: boolean;
}

const PREFIX = 'servicedesk_';

export function createMetrics({ db, instance, queues, log, processMetrics }: MetricsOptions): AppMetrics {
  const registry = new Registry();
  registry.setDefaultLabels({ instance_id: instance });
  if (processMetrics) collectDefaultMetrics({ register: registry });
  const registers = [registry];

  const requestLabels = ['method', 'route', 'status'] as const;
  const metrics: AppMetrics = {
    registry,
    requests: new Counter({
      name: `${PREFIX}http_requests_total`,
      help: 'HTTP requests answered, by method, route pattern and status code.',
      labelNames: requestLabels,
      registers,
    }),
    requestSeconds: new Histogram({
      name: `${PREFIX}http_request_duration_seconds`,
      help: 'Time from receiving a request to sending its answer, by method, route pattern and status code.',
      labelNames: requestLabels,
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    }),
    statementTimeouts: new Counter({
      name: `${PREFIX}db_statement_timeouts_total`,
      help: 'Statements cancelled at STATEMENT_TIMEOUT_MS and answered with 503.',
      registers,
    }),
    databaseUnavailable: new Counter({
      name: `${PREFIX}db_unavailable_total`,
      help: 'Requests answered with 503 because the database could not be reached.',
      registers,
    }),
    loginFailures: new Counter({
      name: `${PREFIX}login_failures_total`,
      help: 'Sign-ins refused for credentials that do not match, by method (password or sso).',
      labelNames: ['method'],
      registers,
    }),
    rateLimitRefusals: new Counter({
      name: `${PREFIX}rate_limit_refusals_total`,
      help: 'Attempts refused with 429 by a rate limit, by limit (login, password_hashing or password_reset).',
      labelNames: ['limit'],
      registers,
    }),
    reads: new Counter({
      name: `${PREFIX}db_reads_total`,
      help: 'List and detail reads with a read replica, by database (replica or primary) and reason (ok, own_write, lagging, not_streaming, not_standby, unreachable, replica_failed).',
      labelNames: ['database', 'reason'],
      registers,
    }),
  };

  // The pool exists on PostgreSQL only; PGlite is one embedded connection with nothing to report.
  if (poolStats(db)) {
    const poolGauge = (
      name: string,
      help: string,
      read: (s: NonNullable<ReturnType<typeof poolStats>>) => number,
    ) =>
      new Gauge({
        name: `${PREFIX}db_pool_${name}`,
        help,
        registers,
        collect() {
          const stats = poolStats(db);
          if (stats) this.set(read(stats));
        },
      });
    poolGauge('connections', 'Connections the database pool holds open, in use or idle.', (s) => s.total);
    poolGauge('idle', 'Open connections of the pool that no request is using.', (s) => s.idle);
    poolGauge(
      'waiting',
      'Callers waiting for a connection because all of the pool is in use.',
      (s) => s.waiting,
    );
    poolGauge('max', 'The most connections the pool opens.', (s) => s.max);
  }

  new Gauge({
    name: `${PREFIX}queue_depth`,
    help: 'Work waiting in a queue table for a worker of any instance, counted at scrape time.',
    labelNames: ['queue'],
    registers,
    async collect() {
      const counts = await Promise.all(queues.map((q) => countWithin(q, db)));
      // A queue that could not be counted is left out of this scrape rather than shown as empty.
      this.reset();
      queues.forEach((q, i) => {
        const counted = counts[i]!;
        if (counted.ok) this.set({ queue: q.queue }, counted.depth);
        else log.warn({ err: counted.error, queue: q.queue }, 'metrics: queue depth not counted');
      });
    },
  });

  return metrics;
}

/**
 * The read replica's gauges, made only with DATABASE_READ_URL (a lag of 0 would otherwise claim a
 * replica that does not exist), set at each measurement of the standby.
 */
export function replicaGauges(metrics: AppMetrics): { set(view: ReplicaView): void } {
  const registers = [metrics.registry];
  const usable = new Gauge({
    name: `${PREFIX}db_replica_usable`,
    help: '1 while the read replica may serve reads (reachable, streaming, lag within REPLICA_MAX_LAG_MS), else 0.',
    registers,
  });
  const lag = new Gauge({
    name: `${PREFIX}db_replica_lag_seconds`,
    help: "The read replica's replay lag when last measured; NaN while it cannot be measured (unreachable).",
    registers,
  });
  usable.set(0);
  lag.set(Number.NaN);
  return {
    set(view) {
      usable.set(view.status === 'ok' ? 1 : 0);
      lag.set(view.lagMs === undefined ? Number.NaN : view.lagMs / 1000);
    },
  };
}

type Counted = { ok: true; depth: number } | { ok: false; error: unknown };

async function countWithin(queue: QueueDepth, db: Db): Promise<Counted> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('queue count timed out')), QUEUE_COUNT_TIMEOUT_MS);
  });
  try {
    return { ok: true, depth: await Promise.race([queue.depth(db), timeout]) };
  } catch (error) {
    return { ok: false, error };
  } finally {
    clearTimeout(timer);
  }
}

const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

export interface RequestLabels {
  readonly method: string;
  readonly route: string;
  readonly status: string;
}

/**
 * Every label set made so far, by route pattern, status and method: one lookup per answered request
 * instead of a new object and a number turned into text (issue 40). Bounded as the series are: route
 * patterns are the router's own, methods one of eight, statuses the few the app answers with.
 */
const labelSets = new Map<string | undefined, Map<number, Map<string, RequestLabels>>>();

/**
 * The labels of one answered request. The route is the pattern the router matched (`/api/tickets/:id`),
 * `unmatched` when none did; a method outside the usual few is `OTHER` (a caller may send any word).
 * The same frozen object for the same three: prom-client only reads it.
 */
export function requestLabels(method: string, route: string | undefined, status: number): RequestLabels {
  const known = METHODS.has(method) ? method : 'OTHER';
  let byStatus = labelSets.get(route);
  if (!byStatus) labelSets.set(route, (byStatus = new Map()));
  let byMethod = byStatus.get(status);
  if (!byMethod) byStatus.set(status, (byMethod = new Map()));
  let labels = byMethod.get(known);
  if (!labels) {
    labels = Object.freeze({ method: known, route: route ?? 'unmatched', status: String(status) });
    byMethod.set(known, labels);
  }
  return labels;
}
