import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import cookie from '@fastify/cookie';
import qs from 'qs';
import type { Config } from './config.ts';
import type { Db } from './db/database.ts';
import type { Registry } from './schema/registry.ts';
import { installErrorHandler } from './http/error-handler.ts';
import { tenancyPlugin } from './tenancy/plugin.ts';
import { authPlugin } from './auth/plugin.ts';
import { healthRoutes } from './system/health.ts';
import { docsPlugin } from './docs/plugin.ts';
import { resourceRoutes } from './resources/plugin.ts';
import { QUERY_LIMITS } from './query/parse.ts';

export interface AppOptions {
  db: Db;
  registry: Registry;
  config: Config & { jwtSecret: string };
  logger?: FastifyServerOptions['logger'];
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
export async function buildApp({ db, registry, config, logger = false }: AppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger,
    bodyLimit: 1024 * 1024,
    // The builder query is nested (`builder[0][where][0]=…`): qs with hard limits, so a hostile query
    // string costs bounded work before our own parser checks every name in it.
    routerOptions: {
      querystringParser: (s: string) =>
        qs.parse(s, {
          depth: QUERY_LIMITS.qsDepth,
          arrayLimit: QUERY_LIMITS.qsArrayLimit,
          parameterLimit: QUERY_LIMITS.qsParameterLimit,
          strictDepth: true,
        }) as Record<string, unknown>,
      maxParamLength: 200,
    },
  });
  installErrorHandler(app);
  await app.register(cookie);
  await app.register(tenancyPlugin, { db, config });
  await app.register(authPlugin, { db, config, registry });
  await app.register(healthRoutes, { db });
  await app.register(docsPlugin, { registry });
  await app.register(resourceRoutes, { db, registry });
  return app;
}
