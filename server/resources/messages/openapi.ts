/**
 * The schema of `POST /messages` (issue 5), which replaces the generic create: a message from a
 * multipart form with files, or from JSON. The route (actions.ts) carries it; it writes the answer and
 * the OpenAPI document.
 */
import { actionSchema, schemaRef } from '../../docs/action-schema.ts';
import type { Schema } from '../../docs/refs.ts';
import type { Registry } from '../../schema/registry.ts';
import type { Resource } from '../../../common/schema/types.ts';
import { namesOf, recordBody } from '../../docs/components.ts';
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

/** The call's own fields beside the message's: uploads to link, the portal's action, the files. */
const EXTRA_FIELDS: Record<string, Schema> = {
  attachment_ids: {
    type: 'array',
    maxItems: 50,
    items: {
      type: 'integer',
      minimum: 1,
      maximum: 2_147_483_647,
      'x-error': 'Each of the attachment_ids must be a positive whole number.',
    },
    description:
      "The caller's own uploads (POST /attachments) that no message holds yet; in a form `attachment_ids[]`.",
    'x-error': { maxItems: 'At most 50 attachments can be linked at once.' },
  },
  action: {
    type: ['string', 'null'],
    pattern: '^(send_from_portal([_-][A-Za-z0-9_-]{1,50})?)?$',
    'x-error': 'The action must be send_from_portal, optionally followed by a suffix.',
  },
};

/** The files of a form: `file[0]`, `file[1]`, … or `file[]`. */
const FILES: Schema = {
  type: 'array',
  items: { type: 'string', format: 'binary' },
  maxItems: 20,
  description: '`file[0]`, `file[1]`, … or `file[]`: up to 20 files.',
};

/**
 * An operator's message sent to the client is visible to the client: a body that says otherwise is
 * refused, not silently changed (a client's message is always visible, messages/form.ts).
 */
const SENT_IS_VISIBLE: Schema = {
  if: { required: ['send_to_client'], properties: { send_to_client: { const: true } } },
  then: {
    properties: {
      visible_to_client: {
        const: true,
        'x-error': 'A message sent to the client must be visible to the client.',
      },
    },
  },
};

/**
 * The body of a create, as JSON and as a form (the form adds its files): an operator's fields of a
 * message as the generic create checks them, the call's own fields, and the rule above. A client
 * writes fewer fields; who the caller is is not in the body, so messages/form.ts says that.
 */
function messageBodies(registry: Registry, messages: Resource): { json: Schema; form: Schema } {
  const record = recordBody(messages, registry, true);
  const json: Schema = {
    ...record,
    ...SENT_IS_VISIBLE,
    properties: { ...(record.properties as Record<string, Schema>), ...EXTRA_FIELDS },
    'x-error': { ...(record['x-error'] as Schema), type: NOT_A_BODY },
  };
  const form = { ...json, properties: { ...(json.properties as Record<string, Schema>), file: FILES } };
  return { json, form };
}

/** A body that is neither: no JSON object, no form (also said when there is no body at all). */
export const NOT_A_BODY = 'The request body must be a JSON object or a multipart form.';

export function createMessageSchema(
  registry: Registry,
  messages: Resource,
  attachments: Resource,
): { route: Schema; form: Schema } {
  const names = namesOf(registry, messages);
  const bodies = messageBodies(registry, messages);
  const route = actionSchema({
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
    body: { content: { 'multipart/form-data': bodies.form, 'application/json': bodies.json } },
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
  return { route, form: bodies.form };
}
