/**
 * GET /api/search?q=…: the app bar's global search (issue 18 item 2). Operators search what their role
 * may list; clients what their portal shows them (the portal's scope and fields); a quote link's holder
 * is refused (403): the link opens one quote, not a search. The read runs where list reads run
 * (`app.reads`: the replica when it may answer).
 */
import type { FastifyInstance } from 'fastify';
import type { Registry } from '../schema/registry.ts';
import { forbidden, ValidationError } from '../http/errors.ts';
import { serverText } from '../../common/server-texts.ts';
import { documentationOnly } from '../docs/validation.ts';
import { globalSearch, MAX_SEARCH_LENGTH, MIN_SEARCH_LENGTH } from './global-search.ts';
import { searchSchema } from './openapi.ts';

/** The search text, trimmed, or a 422 that says what is wrong with it. */
export function searchText(raw: unknown): string {
  const text = typeof raw === 'string' ? raw.trim() : '';
  if (text.length < MIN_SEARCH_LENGTH || text.length > MAX_SEARCH_LENGTH) {
    throw new ValidationError({ q: [serverText('search_text_length')] });
  }
  return text;
}

export async function searchRoutes(
  app: FastifyInstance,
  { registry }: { registry: Registry },
): Promise<void> {
  app.get(
    '/api/search',
    { schema: searchSchema(registry), validatorCompiler: documentationOnly },
    async (request) => {
      const auth = await request.getAuth();
      if (auth.kind === 'record-token') throw forbidden();
      const text = searchText((request.query as Record<string, unknown>).q);
      const data = await app.reads.run(request, (reader) => globalSearch(reader, registry, auth, text));
      return { data };
    },
  );
}
