/**
 * The OpenAPI text of the export calls (SPEC 7 `POST exports`, issue 6): ask for an export, list one's
 * exports, download a finished one. Kept apart from openapi.ts so the contract is read in one place.
 */
import { type Schema, ref } from '../refs.ts';
import type { Registry } from '../../schema/registry.ts';

const error = (name: string) => ref('responses', name);
const PERMISSION =
  'Permission `tenant.exports.index` (clients: `portal.exports.index`, which no role holds) and the ' +
  "list's own index permission; without: 403.";

const JOB: Schema = {
  type: 'object',
  required: ['id', 'model', 'status', 'created_at'],
  properties: {
    id: { type: 'integer' },
    model: { type: 'string', description: 'The exported resource.' },
    status: { type: 'string', enum: ['queued', 'running', 'done', 'failed'] },
    row_count: { type: ['integer', 'null'], description: 'Rows written, once done.' },
    error: { type: ['string', 'null'], description: 'Why a failed export failed.' },
    created_at: { type: 'string', format: 'date-time' },
    finished_at: { type: ['string', 'null'], format: 'date-time' },
    csv_url: { type: ['string', 'null'], description: 'Once done: GET it with the bearer token.' },
    xlsx_url: { type: ['string', 'null'], description: 'Once done: GET it with the bearer token.' },
  },
};

/** Path items of the export calls; `listable` are the resources that have a list. */
export function exportPaths(listable: string[]): Record<string, Record<string, Schema>> {
  return {
    '/exports': {
      post: {
        tags: ['exports'],
        operationId: 'exportsStore',
        summary: 'Export a filtered list as CSV and XLSX',
        description:
          'Checks the request as a list call would (every builder item against the whitelist: a bad ' +
          'filter is 422 and nothing is queued), queues a job and answers its message at once, in the ' +
          'language of `locale`, else of Accept-Language, else Dutch. A background job writes every row of the list with the filter (all pages) and the ' +
          'columns asked for, in the order asked for; then the user gets an e-mail with a link to the ' +
          'exports page. Jobs live in the database: a restart finishes them. CSV: UTF-8 with BOM, `;` ' +
          `between fields. ${PERMISSION}`,
        requestBody: {
          required: true,
          content: {
            'application/json': {
              schema: {
                type: 'object',
                required: ['userId', 'model'],
                additionalProperties: false,
                properties: {
                  userId: {
                    type: ['integer', 'string'],
                    description:
                      "The caller's own id; any other user's is 422 (nobody exports in another's name).",
                  },
                  model: listable.length ? { type: 'string', enum: listable } : { type: 'string' },
                  filter: {
                    ...ref('schemas', 'Builder'),
                    description: 'Builder items as JSON, as a list call sends them (orderBy sets the order).',
                  },
                  columns: {
                    type: 'array',
                    minItems: 1,
                    maxItems: 100,
                    description:
                      "Field names, or {name, label} with the header shown above it; default: the list's columns.",
                    items: {
                      oneOf: [
                        { type: 'string' },
                        {
                          type: 'object',
                          required: ['name'],
                          properties: { name: { type: 'string' }, label: { type: 'string', maxLength: 100 } },
                        },
                      ],
                    },
                  },
                  locale: { type: 'string', enum: ['nl', 'en', 'de'] },
                },
              },
            },
          },
        },
        responses: {
          200: {
            description: 'Queued: `{message}` to show the user.',
            content: { 'application/json': { schema: ref('schemas', 'MessageResponse') } },
          },
          401: error('Unauthenticated'),
          403: error('Forbidden'),
          422: error('Unprocessable'),
        },
      },
      get: {
        tags: ['exports'],
        operationId: 'exportsIndex',
        summary: "The caller's own exports, newest first (the last 50)",
        description: 'Permission `tenant.exports.index`.',
        responses: {
          200: {
            description: 'The jobs.',
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  required: ['data'],
                  properties: { data: { type: 'array', items: JOB } },
                },
              },
            },
          },
          401: error('Unauthenticated'),
          403: error('Forbidden'),
        },
      },
    },
    '/exports/{id}/{format}': {
      get: {
        tags: ['exports'],
        operationId: 'exportsDownload',
        summary: 'Download a finished export',
        description:
          'Only for the user who asked for it: anyone else, a job not done and an unknown format are 404. ' +
          'Answered as an attachment (`tickets-2026-11-22-12.csv`).',
        parameters: [
          ref('parameters', 'Id'),
          { name: 'format', in: 'path', required: true, schema: { type: 'string', enum: ['csv', 'xlsx'] } },
        ],
        responses: {
          200: {
            description: 'The file.',
            content: {
              'text/csv': { schema: { type: 'string' } },
              'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': {
                schema: { type: 'string', contentMediaType: 'application/octet-stream' },
              },
            },
          },
          401: error('Unauthenticated'),
          403: error('Forbidden'),
          404: error('NotFound'),
        },
      },
    },
  };
}

/** The calls' documentation for this registry; a route finds its own (route-schema.ts `documented`). */
export const EXPORTS = (registry: Registry) =>
  exportPaths(
    [...registry.resources.values()]
      .filter((r) => r.actions.includes('index'))
      .map((r) => r.name)
      .sort(),
  );
