import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import swaggerUi from '@fastify/swagger-ui';
import type { Registry } from '../schema/registry.ts';
import { buildOpenApi } from './openapi.ts';

export const DOCS_PREFIX = '/api/docs';
export const OPENAPI_PATH = `${DOCS_PREFIX}/openapi.json`;

/**
 * The viewer's pages may load from this server only: the bundled assets, the document and data: URIs
 * (inline images of the bundled CSS). No validator badge, no fonts or styles from elsewhere. Based on
 * the package's own `staticCSP: true` policy, minus its external hosts and `upgrade-insecure-requests`
 * (which would break a plain-http deployment).
 */
const VIEWER_CSP = [
  "default-src 'self'",
  "base-uri 'self'",
  "connect-src 'self'",
  "font-src 'self' data:",
  "frame-ancestors 'self'",
  "img-src 'self' data:",
  "object-src 'none'",
  "script-src 'self'",
  "script-src-attr 'none'",
  "style-src 'self'",
].join('; ');

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
