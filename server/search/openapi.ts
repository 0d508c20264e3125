/** The schema of GET /api/search (routes.ts): it documents the call and writes its answer. */
import { actionSchema } from '../docs/action-schema.ts';
import type { Schema } from '../docs/refs.ts';
import type { Registry } from '../schema/registry.ts';
import { MAX_SEARCH_LENGTH, MIN_SEARCH_LENGTH, ROWS_PER_GROUP } from './global-search.ts';

const HIT: Schema = {
  type: 'object',
  required: ['id', 'label', 'detail'],
  properties: {
    id: { type: 'integer' },
    label: { type: 'string', description: "The record's label (its x-label field)." },
    detail: {
      type: ['string', 'null'],
      description:
        'The next searched field (a ticket’s description, a client’s e-mail), cut at 120 characters.',
    },
  },
  additionalProperties: false,
};

export function searchSchema(registry: Registry): Schema {
  const schema = searchCall(registry);
  (schema.querystring as Schema).required = ['q'];
  return schema;
}

function searchCall(registry: Registry): Schema {
  const searched = [...registry.resources.values()]
    .filter((r) => r.globalSearch)
    .sort((a, b) => a.globalSearch!.order - b.globalSearch!.order)
    .map((r) => `${r.name} (${r.globalSearch!.fields.join(', ')})`);
  return actionSchema({
    tag: 'search',
    operationId: 'search',
    summary: 'Search tickets, companies, clients, assets, quotes and invoices at once',
    description:
      `Case-insensitive substring search in the fields each schema lists under \`x-global-search\`: ` +
      `${searched.join('; ')}. Only resources the caller may list (\`tenant.<resource>.index\`; ` +
      `clients: \`portal.<resource>.index\`, their own companies' records and the fields the portal ` +
      `shows them) are searched; at most ${ROWS_PER_GROUP} records each, in the list's default order; ` +
      'groups without a match are left out. A quote link is refused (403).',
    params: false,
    query: {
      q: {
        type: 'string',
        // MIN to MAX characters once trimmed: a non-space at each end, any characters between.
        pattern: `^\\s*\\S[\\s\\S]{${MIN_SEARCH_LENGTH - 2},${MAX_SEARCH_LENGTH - 2}}\\S\\s*$`,
        description: `The text, ${MIN_SEARCH_LENGTH} to ${MAX_SEARCH_LENGTH} characters after trimming; else 422.`,
        'x-error': 'search_text_length',
      },
    },
    answers: {
      200: {
        description: 'The matches, grouped by resource, in the order of `x-global-search.order`.',
        schema: {
          type: 'object',
          required: ['data'],
          properties: {
            data: {
              type: 'array',
              items: {
                type: 'object',
                required: ['resource', 'records'],
                properties: {
                  resource: { type: 'string' },
                  records: { type: 'array', items: HIT },
                },
                additionalProperties: false,
              },
            },
          },
          additionalProperties: false,
        },
      },
    },
    errors: [401, 403, 422, 503],
  });
}
