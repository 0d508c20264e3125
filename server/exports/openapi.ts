/**
 * The schemas of the export calls (SPEC 7 `POST exports`, issue 6): ask for an export, list one's
 * exports, download a finished one. The routes (routes.ts) carry them; they write the answers and the
 * OpenAPI document.
 */
import { actionSchema, schemaRef } from '../docs/action-schema.ts';
import type { Schema } from '../docs/refs.ts';
import { ID_PARAMS } from '../docs/components.ts';
import type { Registry } from '../schema/registry.ts';

const PERMISSION =
  'Permission `tenant.exports.index` (clients: `portal.exports.index`, which no role holds) and the ' +
  "list's own index permission; without: 403.";

/** A job as `present` (routes.ts) writes it. */
const JOB: Schema = {
  type: 'object',
  required: [
    'id',
    'model',
    'status',
    'row_count',
    'error',
    'created_at',
    'finished_at',
    'csv_url',
    'xlsx_url',
  ],
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
  additionalProperties: false,
};

/** The resources that have a list: what may be exported. */
const listable = (registry: Registry) =>
  [...registry.resources.values()]
    .filter((r) => r.actions.includes('index'))
    .map((r) => r.name)
    .sort();

export function queueExportSchema(registry: Registry): Schema {
  const models = listable(registry);
  return actionSchema({
    tag: 'exports',
    operationId: 'exportsStore',
    summary: 'Export a filtered list as CSV and XLSX',
    description:
      'Checks the request as a list call would (every builder item against the whitelist: a bad ' +
      'filter is 422 and nothing is queued), queues a job and answers its message at once, in the ' +
      'language of `locale`, else of Accept-Language, else Dutch. A background job writes every row of ' +
      'the list with the filter (all pages) and the columns asked for, in the order asked for; then the ' +
      'user gets an e-mail with a link to the exports page. Jobs live in the database: a restart ' +
      `finishes them. CSV: UTF-8 with BOM, \`;\` between fields. ${PERMISSION}`,
    params: false,
    body: {
      type: 'object',
      required: ['userId', 'model'],
      additionalProperties: false,
      properties: {
        userId: {
          type: ['integer', 'string'],
          description: "The caller's own id; any other user's is 422 (nobody exports in another's name).",
        },
        model: models.length ? { type: 'string', enum: models } : { type: 'string' },
        filter: {
          ...schemaRef('Builder'),
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
        locale: {
          type: 'string',
          // pickLocale: another value is not refused, it falls back as none does.
          description:
            'The language of the file and its mail: `nl`, `en` or `de`; another or none: Accept-Language, else Dutch.',
        },
      },
    },
    answers: {
      200: { description: 'Queued: `{message}` to show the user.', schema: schemaRef('MessageResponse') },
    },
    errors: [401, 403, 422],
  });
}

export const LIST_EXPORTS_SCHEMA: Schema = actionSchema({
  tag: 'exports',
  operationId: 'exportsIndex',
  summary: "The caller's own exports, newest first (the last 50)",
  description: 'Permission `tenant.exports.index`.',
  params: false,
  answers: {
    200: {
      description: 'The jobs.',
      schema: {
        type: 'object',
        required: ['data'],
        properties: { data: { type: 'array', items: JOB } },
        additionalProperties: false,
      },
    },
  },
  errors: [401, 403],
});

export const DOWNLOAD_EXPORT_SCHEMA: Schema = actionSchema({
  tag: 'exports',
  operationId: 'exportsDownload',
  summary: 'Download a finished export',
  description:
    'Only for the user who asked for it: anyone else, a job not done and an unknown format are 404. ' +
    'Answered as an attachment (`tickets-2026-11-22-12.csv`).',
  params: {
    // A record id, in the words every route says of one (ID_PARAMS).
    id: { ...ID_PARAMS.properties.id, description: 'The export job.' },
    format: { type: 'string', enum: ['csv', 'xlsx'] },
  },
  answers: {
    200: {
      description: 'The file.',
      content: {
        'text/csv': { type: 'string' },
        'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': {
          type: 'string',
          contentMediaType: 'application/octet-stream',
        },
      },
    },
  },
  errors: [401, 403, 404],
});
