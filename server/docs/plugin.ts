import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import swagger, { type SwaggerOptions } from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { Registry } from '../schema/registry.ts';
import { APP_CSP_DIRECTIVES, cspHeader } from '../http/security-headers.ts';
import { componentCompiler, routeValidatorCompiler } from '../http/route-validation.ts';
import { componentSchemas, INFO, SECURITY_SCHEMES } from './components.ts';
import { SHARED_RESPONSES, sharedResponses } from './error-answers.ts';
import { resourceTag } from './resource-schemas.ts';
import { shareErrorResponses, styleQueryParameters, withoutErrorTexts } from './transform.ts';

export const DOCS_PREFIX = '/api/docs';
export const OPENAPI_PATH = `${DOCS_PREFIX}/openapi.json`;

/**
 * The apps' policy (server/http/security-headers.ts), without even the apps' one outside image host:
 * this server only, so no validator badge and no fonts from elsewhere. Its inline styles are needed
 * here too: the viewer's logo is an SVG with a <style> element. Set by the viewer's own routes, so it
 * holds wherever this plugin is mounted.
 */
const VIEWER_CSP = cspHeader({ ...APP_CSP_DIRECTIVES, 'img-src': ["'self'", 'data:'] });

const FIXED_TAGS = [
  { name: 'system', description: 'Status and health of the installation.' },
  { name: 'auth', description: 'Sign-in, tokens and the signed-in user.' },
  { name: 'presets', description: 'Counts for saved list filters.' },
  { name: 'exports', description: 'Filtered lists as CSV and XLSX files, written in the background.' },
  { name: 'reports', description: 'Service reports: tickets, response and resolution times, SLA outcomes.' },
  { name: 'events', description: 'Live updates of what the signed-in user may see (server-sent events).' },
];

/**
 * The component schemas and @fastify/swagger, on the root instance (fastify-plugin): its onRoute hook
 * must see every route, so app.ts registers this before any plugin that declares routes. Each route's
 * own schema (params, query, body, answers) is its operation in the document.
 */
async function openApi(app: FastifyInstance, { registry }: { registry: Registry }): Promise<void> {
  const components = componentSchemas(registry);
  for (const schema of components) app.addSchema(schema);
  // Routes that validate (server/http/route-validation.ts) compile with an ajv that knows the same
  // components, so that their params, query and body may reference them as they document them.
  const compiler = componentCompiler(components);
  app.addHook('onRoute', (route) => {
    if (route.validatorCompiler === routeValidatorCompiler) route.validatorCompiler = compiler;
  });
  const resources = [...registry.resources.values()].sort((a, b) => a.name.localeCompare(b.name));
  const options: SwaggerOptions = {
    openapi: {
      openapi: '3.1.0',
      info: INFO,
      servers: [{ url: '/api' }],
      security: [{ bearerAuth: [] }, { apiToken: [] }, { quoteToken: [] }],
      tags: [...resources.map(resourceTag), ...FIXED_TAGS],
      components: { securitySchemes: SECURITY_SCHEMES, responses: sharedResponses() },
    },
    // OpenAPI 3.1 has `const`; the viewer shows it.
    convertConstToEnum: false,
    // Components keep the names they were added with (`Ticket`), not `def-0`.
    refResolver: { buildLocalReference: (json) => String(json.$id) },
    transformObject: (document) =>
      'openapiObject' in document
        ? withoutErrorTexts(
            styleQueryParameters(shareErrorResponses(document.openapiObject, SHARED_RESPONSES)),
          )
        : document.swaggerObject,
  };
  await app.register(swagger, options);

  // The document and its viewer: in a child context, so that they stay out of the document.
  await app.register(async (docs) => {
    docs.get(OPENAPI_PATH, { logLevel: 'warn', schema: { hide: true } }, async (_request, reply) =>
      reply.type('application/json; charset=utf-8').send(JSON.stringify(app.swagger())),
    );
    await docs.register(swaggerUi, {
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
  });
}

/**
 * `GET /api/docs/openapi.json`: the OpenAPI 3.1 document that @fastify/swagger builds from the routes'
 * schemas; `GET /api/docs`: the Swagger UI viewer of it.
 */
export const docsPlugin = fp(openApi, { name: 'docs', fastify: '5.x' });
