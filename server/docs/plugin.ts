import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import swaggerUi from '@fastify/swagger-ui';
import type { Registry } from '../schema/registry.ts';
import { buildOpenApi } from './openapi.ts';
import { APP_CSP_DIRECTIVES, cspHeader } from '../http/security-headers.ts';

export const DOCS_PREFIX = '/api/docs';
export const OPENAPI_PATH = `${DOCS_PREFIX}/openapi.json`;

/**
 * The apps' policy (server/http/security-headers.ts), without even the apps' one outside image host:
 * this server only, so no validator badge and no fonts from elsewhere. Its inline styles are needed
 * here too: the viewer's logo is an SVG with a <style> element. Set by the viewer's own routes, so it
 * holds wherever this plugin is mounted.
 */
const VIEWER_CSP = cspHeader({ ...APP_CSP_DIRECTIVES, 'img-src': ["'self'", 'data:'] });

/**
 * @fastify/swagger-ui declares @fastify/swagger as a dependency and serves `fastify.swagger()` at
 * `<prefix>/json`. We do not generate the document from routes but from the schemas, so this stand-in
 * takes the dependency's name and hands out our document. JSON is valid YAML, so `/yaml` gets it too.
 */
function swaggerStandIn(document: object, text: string) {
  return fp(
    async (app: FastifyInstance) => {
      app.decorate('swagger', (options?: { yaml?: boolean }) => (options?.yaml ? text : document));
    },
    { name: '@fastify/swagger', fastify: '5.x' },
  );
}

/**
 * `GET /api/docs/openapi.json`: the OpenAPI 3.1 document of the registry; `GET /api/docs`: the Swagger
 * UI viewer of it. Not wrapped in fastify-plugin, so the stand-in decorator stays inside this plugin.
 */
export async function docsPlugin(app: FastifyInstance, { registry }: { registry: Registry }): Promise<void> {
  // Built once: the schemas are read at start and do not change while the process runs.
  const document = buildOpenApi(registry);
  const text = JSON.stringify(document);

  app.get(OPENAPI_PATH, { logLevel: 'warn' }, async (_request, reply) =>
    reply.type('application/json; charset=utf-8').send(text),
  );

  await app.register(swaggerStandIn(document, text));
  await app.register(swaggerUi, {
    routePrefix: DOCS_PREFIX,
    logLevel: 'warn',
    staticCSP: VIEWER_CSP,
    theme: { title: 'Service desk API' },
    uiConfig: {
      // The initializer always sets `url` to `./json`; `urls` takes precedence over it, so the viewer
      // loads the same address that clients use.
      urls: [{ url: OPENAPI_PATH, name: 'Service desk API' }],
      deepLinking: true,
      docExpansion: 'none',
    },
  });
}
