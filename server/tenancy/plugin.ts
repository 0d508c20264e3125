import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.ts';
import type { Db } from '../db/database.ts';
import { HttpError } from '../http/errors.ts';
import { TenantDirectory } from './directory.ts';
import { UNKNOWN_TENANT, tenantSlugFromHost } from './host.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Tenants by slug (cached); call `forget` after changing a tenant row. */
    tenants: TenantDirectory;
  }
}

export interface TenancyOptions {
  db: Db;
  config: Pick<Config, 'defaultTenant'>;
  /** How long a tenant (or its absence) is remembered. */
  cacheMs?: number;
}

/**
 * API routes that answer without a tenant: the probe and the scrape must not depend on the Host header,
 * and the first run has none yet.
 */
const TENANTLESS = [
  /^\/api\/health(?:\/|$)/,
  /^\/api\/docs(?:\/|$)/,
  /^\/api\/metrics$/,
  // The first run creates the tenant (server/setup/routes.ts).
  /^\/api\/setup(?:\/|$)/,
];

/**
 * Judged by the route the router matched, not by the address as sent: the router decodes `/%61pi/…`
 * to `/api/…`, and a route of the API must never run without its tenant. No route matched: the
 * answer is a 404 that needs none.
 */
function isTenantRoute(route: string | undefined): boolean {
  return (
    route !== undefined &&
    (route === '/api' || route.startsWith('/api/')) &&
    !TENANTLESS.some((p) => p.test(route))
  );
}

/**
 * Sets `request.tenant` on every /api request from the Host header's subdomain (the default tenant on
 * a bare host). An unknown subdomain answers 404 before any route runs, so no route ever sees a
 * request without its tenant.
 */
async function tenancy(app: FastifyInstance, { db, config, cacheMs }: TenancyOptions): Promise<void> {
  const directory = new TenantDirectory(db, cacheMs);
  app.decorate('tenants', directory);
  app.decorateRequest('tenant', null as never);

  app.addHook('onRequest', async (request) => {
    if (!isTenantRoute(request.routeOptions.url)) return;
    const slug = tenantSlugFromHost(request.host, config.defaultTenant);
    const tenant = slug === undefined ? undefined : await directory.find(slug);
    if (!tenant) throw new HttpError(404, UNKNOWN_TENANT);
    request.tenant = tenant;
  });
}

export const tenancyPlugin = fp(tenancy, { name: 'tenancy', fastify: '5.x' });
