import { createHash, timingSafeEqual } from 'node:crypto';
import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.ts';
import type { Db } from '../db/database.ts';
import { bearerToken } from '../auth/authenticate.ts';
import { createMetrics, requestLabels, type AppMetrics } from './metrics.ts';
import { QUEUE_DEPTHS, type QueueDepth } from './queue-depths.ts';
import { METRICS_SCHEMA } from '../docs/fixed-schemas.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * This instance's counters. Optional: an app built from single plugins (unit tests) has none, and
     * the places that count (error handler, sign-in) then count nothing.
     */
    metrics?: AppMetrics;
  }
}

export const METRICS_PATH = '/api/metrics';

export interface MetricsPluginOptions {
  db: Db;
  config: Pick<Config, 'metricsToken' | 'metricsInstance'>;
  /** The queues whose depth is read at scrape time (default: QUEUE_DEPTHS). */
  queues?: QueueDepth[];
}

/** Equal in constant time: both sides hashed first, so neither the content nor the length leaks. */
function sameToken(presented: string, expected: string): boolean {
  const digest = (s: string) => createHash('sha256').update(s).digest();
  return timingSafeEqual(digest(presented), digest(expected));
}

/**
 * Counts every answered request by route pattern and status, and serves `GET /api/metrics` in
 * Prometheus' text format to a scraper holding METRICS_TOKEN. Without the setting the route answers 404
 * like any unknown address, so nothing about the installation shows by default.
 */
async function metricsAndScrape(
  app: FastifyInstance,
  { db, config, queues }: MetricsPluginOptions,
): Promise<void> {
  const token = config.metricsToken;
  const metrics = createMetrics({
    db,
    instance: config.metricsInstance,
    queues: queues ?? QUEUE_DEPTHS,
    log: app.log,
    processMetrics: token !== undefined,
  });
  app.decorate('metrics', metrics);

  app.addHook('onResponse', async (request, reply) => {
    const labels = requestLabels(request.method, request.routeOptions.url, reply.statusCode);
    metrics.requests.inc(labels);
    metrics.requestSeconds.observe(labels, reply.elapsedTime / 1000);
  });

  // Tenantless (server/tenancy/plugin.ts), and outside the sign-in limits: a scrape every few seconds
  // costs a few counters' text and one count per queue.
  app.get(METRICS_PATH, { logLevel: 'warn', schema: METRICS_SCHEMA }, async (request, reply) => {
    if (token === undefined) return reply.status(404).send({ message: 'Not found.' });
    const presented = bearerToken(request.headers.authorization);
    if (presented === undefined || !sameToken(presented, token)) {
      return reply
        .status(401)
        .header('www-authenticate', 'Bearer realm="metrics"')
        .send({ message: 'The metrics need the METRICS_TOKEN as a bearer token.' });
    }
    const text = await metrics.registry.metrics();
    return reply.header('cache-control', 'no-store').type(metrics.registry.contentType).send(text);
  });
}

// fastify-plugin: the hook counts the requests of every plugin, and the decoration reaches them all.
export const metricsPlugin = fp(metricsAndScrape, { name: 'metrics', fastify: '5.x' });
