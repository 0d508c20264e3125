import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.ts';
import type { Db } from '../db/database.ts';
import { HttpError } from '../http/errors.ts';
import { TenantDirectory } from './directory.ts';
import { tenantSlugFromHost } from './host.ts';

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

/** API paths that answer without a tenant: the probe must not depend on the Host header. */
const TENANTLESS = [/^\/api\/health(?:[/?]|$)/, /^\/api\/docs(?:[/?]|$)/];

function isTenantPath(url: string): boolean {
  return (
    (url === '/api' || url.startsWith('/api/') || url.startsWith('/api?')) &&
    !TENANTLESS.some((p) => p.test(url))
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
    if (!isTenantPath(request.url)) return;
    const slug = tenantSlugFromHost(request.host, config.defaultTenant);
    const tenant = slug === undefined ? undefined : await directory.find(slug);
    if (!tenant) throw new HttpError(404, 'Unknown tenant.');
    request.tenant = tenant;
  });
}

export const tenancyPlugin = fp(tenancy, { name: 'tenancy', fastify: '5.x' });
