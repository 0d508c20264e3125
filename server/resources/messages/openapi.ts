/**
 * The schema of `POST /messages` (issue 5), which replaces the generic create: a message from a
 * multipart form with files, or from JSON. The route (actions.ts) carries it; it writes the answer and
 * the OpenAPI document.
 */
import { actionSchema, schemaRef } from '../../docs/action-schema.ts';
import type { Schema } from '../../docs/refs.ts';
import type { Registry } from '../../schema/registry.ts';
import type { Resource } from '../../../common/schema/types.ts';
import { namesOf } from '../../docs/components.ts';
import { TOO_LARGE, URL_TEXT } from '../attachments/openapi.ts';

const ACTOR: Schema = {
  type: ['object', 'null'],
  description:
    'Who wrote the message, operator or client: added to every message a caller reads (no `with` needed).',
  properties: {
    id: { type: 'integer' },
    is_operator: { type: 'integer', enum: [0, 1, 2], description: '0 for a client, else the line.' },
    full_name: { type: ['string', 'null'] },
    first_name: { type: ['string', 'null'] },
    last_name: { type: ['string', 'null'] },
    acronym: { type: ['string', 'null'], description: 'The stored acronym, else the initials.' },
    gravatar: {
      type: ['string', 'null'],
      description: 'Gravatar image address (d=404: no picture is a 404).',
    },
  },
  additionalProperties: true,
};

const FORM_FIELDS: Record<string, Schema> = {
  message: { type: 'string', description: 'HTML; sanitised on the server before it is stored.' },
  morphable_type: { type: 'string', enum: ['ticket', 'asset', 'company', 'user'] },
  morphable_id: { type: 'integer' },
  description: { type: 'string', maxLength: 255 },
  is_from_client: { type: 'boolean', description: 'Clients: always true (false is a 422).' },
  visible_to_client: {
    type: 'boolean',
    description: 'Clients: always true (false is a 422). Operators: default false (an internal note).',
  },
  activity_id: { type: 'integer' },
  'attachment_ids[]': {
    type: 'array',
    items: { type: 'integer' },
    description: "The caller's own uploads (POST /attachments) that no message holds yet.",
  },
  action: { type: 'string', pattern: '^send_from_portal([_-][A-Za-z0-9_-]{1,50})?$' },
  send_to_client: { type: 'boolean', description: 'Operators: mail the message to the client.' },
  'to[]': { type: 'array', items: { type: 'string', format: 'email' } },
  'cc[]': { type: 'array', items: { type: 'string', format: 'email' } },
  'bcc[]': { type: 'array', items: { type: 'string', format: 'email' } },
  'file[0]': {
    type: 'string',
    format: 'binary',
    description: '`file[0]`, `file[1]`, … or `file[]`: up to 20 files.',
  },
};

export function createMessageSchema(registry: Registry, messages: Resource, attachments: Resource): Schema {
  const names = namesOf(registry, messages);
  return actionSchema({
    tag: messages.name,
    operationId: 'messagesStore',
    summary: 'Create a message, with files',
    description: [
      'Multipart (`multipart/form-data`, as the editor sends it, with files) or JSON (the same fields, no files).',
      'The record the message is on (`morphable_type`, `morphable_id`) must be one the caller sees, else 404.',
      'Clients (`portal.messages.store`) write only `message`, `description` and the record; the message is always',
      'from the client and visible to the client. Images the HTML shows (`/api/attachments/{id}/file`) that the',
      "caller uploaded and no message holds are linked to the message, like `attachment_ids[]`. An operator's",
      'message with `send_to_client` is mailed to `to` (default: the client of the ticket or asset, else the address',
      'the ticket came in from), `cc` and `bcc` with its attachments through the mail outbox, and the recipients are',
      'recorded when it is sent (`recipients`, operators only).',
    ].join(' '),
    params: false,
    body: {
      content: {
        'multipart/form-data': {
          type: 'object',
          required: ['message', 'morphable_type', 'morphable_id'],
          properties: FORM_FIELDS,
        },
        'application/json': {
          allOf: [
            schemaRef(names.create),
            {
              type: 'object',
              properties: {
                attachment_ids: { type: 'array', items: { type: 'integer' } },
                action: FORM_FIELDS.action,
              },
            },
          ],
        },
      },
    },
    answers: {
      201: {
        description: 'The message as `GET /messages/{id}?with[]=attachments` shows it.',
        schema: {
          allOf: [
            schemaRef(names.record),
            {
              type: 'object',
              properties: {
                actor: ACTOR,
                attachments: {
                  type: 'array',
                  items: {
                    allOf: [
                      schemaRef(namesOf(registry, attachments).record),
                      { type: 'object', properties: { url: { type: 'string', description: URL_TEXT } } },
                    ],
                  },
                },
                mail_error: {
                  type: ['string', 'null'],
                  description:
                    'In this answer: the message was saved but the first attempt at its e-mail failed; it is ' +
                    'tried again automatically. On a stored message (operators only): its e-mail was given up ' +
                    'after its last attempt.',
                },
              },
            },
          ],
        },
      },
      413: TOO_LARGE,
    },
    errors: [401, 403, 404, 422],
  });
}
