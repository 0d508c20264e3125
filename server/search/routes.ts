/**
 * GET /api/search?q=…: the app bar's global search (issue 18 item 2). Operators search what their role
 * may list; clients what their portal shows them (the portal's scope and fields); a quote link's holder
 * is refused (403): the link opens one quote, not a search. The read runs where list reads run
 * (`app.reads`: the replica when it may answer).
 */
import type { FastifyInstance } from 'fastify';
import type { Registry } from '../schema/registry.ts';
import { forbidden } from '../http/errors.ts';
import { validating, validInput } from '../http/route-validation.ts';
import { globalSearch } from './global-search.ts';
import { searchSchema } from './openapi.ts';

export async function searchRoutes(
  app: FastifyInstance,
  { registry }: { registry: Registry },
): Promise<void> {
  app.get('/api/search', validating(searchSchema(registry)), async (request) => {
    const auth = await request.getAuth();
    if (auth.kind === 'record-token') throw forbidden();
    // The schema checks q: a text of 3 to 100 characters once trimmed (search_text_length).
    validInput(request);
    const text = (request.query as { q: string }).q.trim();
    const data = await app.reads.run(request, (reader) => globalSearch(reader, registry, auth, text));
    return { data };
  });
}
