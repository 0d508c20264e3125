/**
 * The knowledge base's calls beside the generic routes (issue 39, item 4):
 *
 * GET /api/knowledge-articles/search?q=&limit= : the articles the caller may read, best match first
 * (search.ts). The portal asks it while a client types a new ticket's description; the back office's
 * message editor asks it to insert an article's link.
 *
 * POST /api/knowledge-articles/{id}/deflect : a client pressed "this solved it" on an article they may
 * read (any other: 404): their counter row for the article goes up by one, and so does the article's
 * `deflections`, in one transaction. Clients only: an operator's press is no deflection (403).
 */
import { sql } from 'kysely';
import { actionRoute } from '../../docs/action-schema.ts';
import { forbidden } from '../../http/errors.ts';
import { validInput, type RecordParams } from '../../http/route-validation.ts';
import { BodyValidation } from '../../schema/validate.ts';
import type { ActionPlugin } from '../action-contract.ts';
import { authorize } from '../plugin.ts';
import { findRecord, type Deps } from '../repository.ts';
import { searchArticles } from './search.ts';

const HIT = {
  type: 'object',
  required: ['id', 'title', 'language', 'category_id', 'tags', 'updated_at', 'excerpt', 'rank', 'public'],
  additionalProperties: false,
  properties: {
    id: { type: 'integer' },
    title: { type: 'string' },
    language: { type: 'string', enum: ['nl', 'en', 'de'] },
    category_id: { type: ['integer', 'null'] },
    tags: { type: 'string' },
    updated_at: { type: 'string', format: 'date-time' },
    excerpt: { type: 'string', description: 'The first words of the text, without markup.' },
    rank: { type: 'number', description: 'ts_rank of the match: higher is better.' },
    public: { type: 'boolean', description: 'On the public pages (/kb): a link to it needs no sign-in.' },
  },
} as const;

export const articleRoutes: ActionPlugin = async (app, { db, registry }) => {
  const articles = registry.require('knowledge-articles');
  const deps: Deps = { db, registry, validation: new BodyValidation() };

  app.get<{ Querystring: { q: string; limit?: number } }>(
    '/api/knowledge-articles/search',
    actionRoute({
      tag: articles.name,
      operationId: 'knowledgeArticlesSearch',
      params: false,
      summary: 'Search the knowledge base',
      description:
        'Full-text search with each article’s own language’s dictionary (Dutch, English, German); any ' +
        'of the words may match, the best matches first. The articles the caller may list: a client those ' +
        'the portal shows them. Permission `tenant.knowledge-articles.index` (clients: `portal.`…).',
      query: {
        q: { type: 'string', minLength: 1, maxLength: 2000, description: 'The words to look for.' },
        limit: { type: 'integer', minimum: 1, maximum: 20, default: 5 },
      },
      answers: {
        200: {
          description: 'The matching articles, best first.',
          schema: {
            type: 'object',
            required: ['data'],
            additionalProperties: false,
            properties: { data: { type: 'array', items: HIT } },
          },
        },
      },
      errors: [401, 403, 422, 503],
    }),
    async (request) => {
      const auth = await authorize(request, articles, 'index');
      validInput(request);
      const { q, limit = 5 } = request.query;
      return { data: await searchArticles(db, registry, { auth }, q, limit) };
    },
  );

  app.post<RecordParams>(
    '/api/knowledge-articles/:id/deflect',
    actionRoute({
      tag: articles.name,
      operationId: 'knowledgeArticlesDeflect',
      summary: 'Record that an article solved a client’s question',
      description:
        'A client pressed “this solved it” instead of creating a ticket: counted per client and on the ' +
        'article (`deflections`). An article the client may not read is a 404. Permission ' +
        '`portal.knowledge-articles.deflect`; clients only (operators get 403).',
      answers: { 204: { description: 'Counted.' } },
    }),
    async (request, reply) => {
      const auth = await authorize(request, articles, 'deflect');
      if (auth.kind !== 'client' || auth.userId === null) throw forbidden();
      validInput(request);
      const article = await findRecord(deps, auth, articles, request.params.id);
      const id = Number(article.id);
      await db.transaction().execute(async (trx) => {
        await trx
          .insertInto('knowledge_deflections')
          .values({ tenant_id: auth.tenantId, knowledge_article_id: id, user_id: auth.userId! })
          .onConflict((oc) =>
            oc.columns(['knowledge_article_id', 'user_id']).doUpdateSet({
              count: sql`knowledge_deflections.count + 1`,
              updated_at: sql`now()`,
            }),
          )
          .execute();
        await trx
          .updateTable('knowledge_articles')
          .set({ deflections: sql`deflections + 1` })
          .where('tenant_id', '=', auth.tenantId)
          .where('id', '=', id)
          .execute();
      });
      return reply.status(204).send();
    },
  );
};
