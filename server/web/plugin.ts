import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import fastifyStatic from '@fastify/static';
import { ASSETS_DIR } from '../../common/build.ts';

export const DIST_DIR = fileURLToPath(new URL('../../dist/', import.meta.url));

/**
 * The two browser apps, built by Vite into dist/: the portal under /app (history mode), the back office
 * everywhere else that is not /api. Built files are served as they are; any other path gets its app's
 * index.html so the router can take it from there.
 */
export async function webApps(
  app: FastifyInstance,
  { distDir = DIST_DIR }: { distDir?: string } = {},
): Promise<void> {
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
  });
  // Hashed assets never change; index.html must never be cached, or a new build would not show.
  app.addHook('onSend', async (request, reply) => {
    if (request.url.startsWith(`/${ASSETS_DIR}/`))
      reply.header('cache-control', 'public, max-age=31536000, immutable');
  });
  const page = (file: string) => (_request: unknown, reply: any) =>
    reply.header('cache-control', 'no-cache').sendFile(file);
  app.get('/app', (_request, reply) => reply.redirect('/app/tickets'));
  app.get('/app/', (_request, reply) => reply.redirect('/app/tickets'));
  app.get('/app/*', page('app/index.html'));
  app.get('/', page('index.html'));
  app.get('/*', (request, reply) => {
    const path = request.url.split('?')[0]!;
    if (path === '/api' || path.startsWith('/api/') || path.startsWith(`/${ASSETS_DIR}/`)) {
      return reply.status(404).send({ message: 'Not found.' });
    }
    return page('index.html')(request, reply);
  });
}
