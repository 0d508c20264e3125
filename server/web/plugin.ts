import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fastifyStatic from '@fastify/static';
import { ASSETS_DIR } from '../../common/build.ts';
import { siteFiles } from './site-files.ts';

export const DIST_DIR = fileURLToPath(new URL('../../dist/', import.meta.url));

/** First path segments that are never a page of an app. */
const NOT_PAGES = new Set(['api', ASSETS_DIR]);

/**
 * A last segment that ends like a file the build could hold: a script, style, map, image or font that
 * is not in dist/ is a miss (404), not a page. The apps' own addresses are ids and words, never these.
 */
const FILE_LIKE =
  /\.(?:m?js|css|map|json|txt|xml|html?|ico|png|jpe?g|gif|svg|webp|avif|woff2?|ttf|otf|wasm|br|gz)$/i;

/**
 * The first segment of a path however it is spelt: escapes decoded (more than once: a proxy in front
 * may decode again), backslashes and repeated slashes read as one slash, dot segments resolved, case
 * folded. `/%2561pi/…`, `//API/…` and `/app/../api/…` all name the API.
 */
function firstSegment(url: string): string {
  let path = url.split('?')[0]!;
  for (let round = 0; round < 3; round++) {
    let decoded: string;
    try {
      decoded = decodeURIComponent(path);
    } catch {
      break;
    }
    if (decoded === path) break;
    path = decoded;
  }
  const segments: string[] = [];
  for (const segment of path.split(/[/\\]+/)) {
    if (segment === '..') segments.pop();
    else if (segment !== '' && segment !== '.') segments.push(segment);
  }
  return (segments[0] ?? '').toLowerCase();
}

/**
 * The two browser apps, built by Vite into dist/: the portal under /app (history mode), the back office
 * everywhere else that is not /api. Built files are served as they are; any other path gets its app's
 * index.html so the router can take it from there.
 */
export async function webApps(
  app: FastifyInstance,
  { distDir = DIST_DIR }: { distDir?: string } = {},
): Promise<void> {
  siteFiles(app);
  if (!existsSync(`${distDir}/index.html`)) {
    app.log.warn(`no built apps in ${distDir}: run npm run build (npm start does it)`);
    return;
  }
  await app.register(fastifyStatic, {
    root: distDir,
    wildcard: false,
    index: false,
    maxAge: '1h',
    immutable: false,
    // The build writes .br and .gz copies beside each script and page (vite.config.ts, precompress).
    preCompressed: true,
  });
  // Hashed assets never change; index.html must never be cached, or a new build would not show.
  // By the matched route (one per built file), not the address as sent, which may be spelt otherwise.
  app.addHook('onSend', async (request, reply) => {
    if (request.routeOptions.url?.startsWith(`/${ASSETS_DIR}/`))
      reply.header('cache-control', 'public, max-age=31536000, immutable');
  });
  // An address the router did not give to the API or to a built file, but that names either in some
  // other spelling, is a miss: the app's page would answer 200 where the plain address answers 404.
  const page = (file: string) => (request: FastifyRequest, reply: FastifyReply) =>
    NOT_PAGES.has(firstSegment(request.url)) || FILE_LIKE.test(request.url.split('?')[0]!)
      ? reply.status(404).send({ message: 'Not found.' })
      : reply.header('cache-control', 'no-cache').sendFile(file);
  // The apps' pages are not the API: they stay out of its OpenAPI document (the built files too:
  // @fastify/static hides its routes by default).
  const notApi = { schema: { hide: true } };
  app.get('/app', notApi, (_request, reply) => reply.redirect('/app/tickets'));
  app.get('/app/', notApi, (_request, reply) => reply.redirect('/app/tickets'));
  app.get('/app/*', notApi, page('app/index.html'));
  app.get('/', notApi, page('index.html'));
  app.get('/*', notApi, page('index.html'));
}
