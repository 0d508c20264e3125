import Fastify, { type FastifyInstance, type LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { docsPlugin } from '../../server/docs/plugin.ts';
import { registry } from '../../server/schema/registry.ts';
import { resourceRoutes } from '../../server/resources/plugin.ts';
import type { Db } from '../../server/db/database.ts';
import { answerSerializers } from '../../server/http/answer-serializers.ts';

/**
 * The docs need no database and no tenant: a bare app with this plugin and the generic routes (whose
 * schemas are the document's resource operations; none is called) is the whole setup.
 */
let app: FastifyInstance;

beforeAll(async () => {
  app = Fastify({ schemaController: answerSerializers() });
  await app.register(docsPlugin, { registry: registry() });
  await app.register(resourceRoutes, { db: {} as Db, registry: registry() });
  await app.ready();
});

afterAll(async () => {
  await app.close();
});

/** GET, following redirects on this server the way a browser would. */
async function get(url: string, hops = 5): Promise<LightMyRequestResponse & { url: string }> {
  const response = await app.inject({ method: 'GET', url });
  const location = response.headers.location;
  if (response.statusCode >= 300 && response.statusCode < 400 && typeof location === 'string' && hops > 0) {
    return get(new URL(location, `http://docs.test${url}`).pathname, hops - 1);
  }
  return Object.assign(response, { url });
}

/** The addresses of the scripts, style sheets and icons that a page loads. */
function assetUrls(html: string): string[] {
  return [...html.matchAll(/<(?:script|link)\b[^>]*?\b(?:src|href)="([^"]+)"/g)].map((m) => m[1] as string);
}

describe('GET /api/docs/openapi.json', () => {
  it('answers the OpenAPI 3.1 document as JSON', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/docs/openapi.json' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    const doc = response.json();
    expect(doc.openapi).toMatch(/^3\.1\./);
    expect(doc.info.title).toBe('Service desk API');
    expect(doc.paths['/tickets'].get.parameters.length).toBeGreaterThan(0);
  });
});

describe.each(['/api/docs', '/api/docs/'])('the viewer at %s', (entry) => {
  it('answers an HTML page whose assets all load from this server', async () => {
    const page = await get(entry);
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    const assets = assetUrls(page.body);
    expect(assets.length).toBeGreaterThanOrEqual(4);
    expect(assets.filter((a) => a.endsWith('swagger-ui-bundle.js'))).toHaveLength(1);
    for (const asset of assets) {
      // Relative or rooted on this server: nothing from another host.
      expect(asset, asset).not.toMatch(/^(?:[a-z]+:)?\/\//i);
      const path = new URL(asset, `http://docs.test${page.url}`).pathname;
      const response = await app.inject({ method: 'GET', url: path });
      expect(response.statusCode, path).toBe(200);
      expect(response.rawPayload.length, path).toBeGreaterThan(0);
      if (path.endsWith('.js')) expect(response.headers['content-type'], path).toMatch(/javascript/);
      if (path.endsWith('.css')) expect(response.headers['content-type'], path).toMatch(/^text\/css/);
    }
  });
});

describe('the viewer', () => {
  it('is pointed at /api/docs/openapi.json and at no validator', async () => {
    const initializer = await app.inject({ method: 'GET', url: '/api/docs/static/swagger-initializer.js' });
    expect(initializer.statusCode).toBe(200);
    expect(initializer.body).toContain('"urls":[{"url":"/api/docs/openapi.json"');
    expect(initializer.body).toContain('validatorUrl: null');
  });

  it('is told by its Content-Security-Policy to load from this server only', async () => {
    const page = await get('/api/docs');
    const csp = String(page.headers['content-security-policy']);
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("connect-src 'self'");
    expect(csp).not.toMatch(/https?:|\*/);
  });

  it('serves the same document at the address the package keeps for it', async () => {
    const ours = await app.inject({ method: 'GET', url: '/api/docs/openapi.json' });
    const packages = await app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(packages.statusCode).toBe(200);
    expect(packages.json()).toEqual(ours.json());
  });

  it('answers 404 for an asset it does not have', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/docs/static/nothing-here.js' });
    expect(response.statusCode).toBe(404);
  });
});
