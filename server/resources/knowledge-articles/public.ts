/**
 * The knowledge base's public pages (issue 39, item 4), no sign-in: the public articles of the tenant
 * the Host names (server/tenancy/host.ts, as the API's tenancy hook reads it):
 *
 * GET /kb?q=            the public articles, newest first, or those matching q (full-text, search.ts)
 * GET /kb/{id}-{words}  one public article (the words after the id are the title's, never read)
 * GET /kb/sitemap.xml   every public article's address, for search engines
 * GET /kb/files/{id}    an image shown in a public article (attachments.knowledge_article_id)
 *
 * Anything that is not a public article of that tenant (portal, chosen companies, internal, another
 * tenant's, an unknown id) is the same 404.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { fileStoreFor } from '../../files/store.ts';
import { fileHeaders, UNCOMPRESSED } from '../../files/serve.ts';
import { requestLanguage } from '../../http/language.ts';
import { linkOrigin } from '../../mail/link-origin.ts';
import { validating, validInput } from '../../http/route-validation.ts';
import { tenantSlugFromHost } from '../../tenancy/host.ts';
import type { Language } from '../../../common/schema/types.ts';
import type { ActionPlugin } from '../action-contract.ts';
import { articlePage, indexPage, PUBLIC_TEXTS, sitemap } from './public-html.ts';
import { excerpt, searchArticles } from './search.ts';

/** The most articles the index and the sitemap list (a sitemap file holds at most 50,000 addresses). */
const MAX_LISTED = 200;
const MAX_SITEMAP = 50_000;

const HIDDEN = { hide: true } as const;

export const publicPages: ActionPlugin = async (app, { db, registry, config }) => {
  const store = fileStoreFor(config, db);

  async function tenantOf(request: FastifyRequest): Promise<number | undefined> {
    const slug = tenantSlugFromHost(request.host, config.defaultTenant);
    return slug === undefined ? undefined : (await app.tenants.find(slug))?.id;
  }

  const notFoundPage = (reply: FastifyReply, language: Language) =>
    reply
      .status(404)
      .type('text/html; charset=utf-8')
      .send(
        `<!doctype html><html lang="${language}"><head><meta charset="utf-8"><title>404</title></head><body><main><h1>404</h1><p><a href="/kb">${PUBLIC_TEXTS[language].back}</a></p></main></body></html>`,
      );

  app.get<{ Querystring: { q?: string } }>(
    '/kb',
    validating({
      ...HIDDEN,
      querystring: { type: 'object', properties: { q: { type: 'string', maxLength: 200 } } },
    }),
    async (request, reply) => {
      const language = requestLanguage(request.headers['accept-language']);
      const tenantId = await tenantOf(request);
      if (tenantId === undefined) return notFoundPage(reply, language);
      validInput(request);
      const q = (request.query.q ?? '').trim();
      const articles = q
        ? await searchArticles(db, registry, { publicTenant: tenantId }, q, MAX_LISTED)
        : (
            await db
              .selectFrom('knowledge_articles')
              .select(['id', 'title', 'body', 'language'])
              .where('tenant_id', '=', tenantId)
              .where('visibility', '=', 'public')
              .orderBy('updated_at', 'desc')
              .orderBy('id', 'desc')
              .limit(MAX_LISTED)
              .execute()
          ).map((a) => ({ id: a.id, title: a.title, excerpt: excerpt(a.body), language: a.language }));
      return reply.type('text/html; charset=utf-8').send(indexPage(language, q, articles));
    },
  );

  app.get('/kb/sitemap.xml', validating(HIDDEN), async (request, reply) => {
    const tenantId = await tenantOf(request);
    if (tenantId === undefined) return reply.status(404).type('text/plain').send('Not found.');
    const origin = linkOrigin(request, config);
    const articles = await db
      .selectFrom('knowledge_articles')
      .select(['id', 'title', 'updated_at'])
      .where('tenant_id', '=', tenantId)
      .where('visibility', '=', 'public')
      .orderBy('id')
      .limit(MAX_SITEMAP)
      .execute();
    return reply.type('application/xml; charset=utf-8').send(sitemap(origin, articles));
  });

  app.get<{ Params: { path: string } }>(
    '/kb/:path',
    validating({
      ...HIDDEN,
      params: { type: 'object', properties: { path: { type: 'string', maxLength: 300 } } },
    }),
    async (request, reply) => {
      const language = requestLanguage(request.headers['accept-language']);
      const tenantId = await tenantOf(request);
      validInput(request);
      // The id leads; the title's words after it are for people and search engines.
      const id = /^(\d{1,9})(?:-|$)/.exec(request.params.path)?.[1];
      if (tenantId === undefined || !id) return notFoundPage(reply, language);
      const article = await db
        .selectFrom('knowledge_articles')
        .select(['title', 'body', 'language', 'updated_at'])
        .where('tenant_id', '=', tenantId)
        .where('visibility', '=', 'public')
        .where('id', '=', Number(id))
        .executeTakeFirst();
      if (!article) return notFoundPage(reply, language);
      return reply
        .type('text/html; charset=utf-8')
        .send(articlePage(language, { ...article, language: article.language as Language }));
    },
  );

  app.get<{ Params: { id: string } }>(
    '/kb/files/:id',
    {
      ...validating({
        ...HIDDEN,
        params: { type: 'object', properties: { id: { type: 'string', pattern: '^\\d{1,9}$' } } },
      }),
      ...UNCOMPRESSED,
    },
    async (request, reply) => {
      const tenantId = await tenantOf(request);
      validInput(request);
      if (tenantId === undefined) return reply.status(404).send({ message: 'Not found.' });
      const attachment = await db
        .selectFrom('attachments')
        .innerJoin('knowledge_articles', 'knowledge_articles.id', 'attachments.knowledge_article_id')
        .select(['attachments.name', 'attachments.extension', 'attachments.path'])
        .where('attachments.tenant_id', '=', tenantId)
        .where('knowledge_articles.tenant_id', '=', tenantId)
        .where('knowledge_articles.visibility', '=', 'public')
        .where('attachments.id', '=', Number(request.params.id))
        .executeTakeFirst();
      const file = attachment && (await store.open(attachment.path));
      if (!attachment || !file) return reply.status(404).send({ message: 'Not found.' });
      return reply.headers(fileHeaders({ ...attachment, size: file.size })).send(file.stream);
    },
  );
};
