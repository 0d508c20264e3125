/**
 * The OpenAPI text of the message thread's calls (issue 5), which replace or extend the generic ones:
 * create a message (multipart or JSON), upload an attachment, fetch an attachment's file. Kept apart
 * from openapi.ts so the thread's contract is read in one place.
 */
import { type Schema, ref } from '../refs.ts';

const error = (name: string) => ref('responses', name);
const tooLarge = {
  description:
    'The file is larger than ATTACHMENT_MAX_BYTES (default 20 MB), or too many files: `{message}`.',
  content: { 'application/json': { schema: ref('schemas', 'Error') } },
};

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
};

const URL_TEXT =
  'The file address with a download token for this reader, valid for 6 hours; usable in `<img src>` and ' +
  'links, which cannot send the bearer token.';

const UPLOAD: Schema = {
  type: 'object',
  properties: {
    id: { type: 'integer' },
    url: { type: 'string', description: URL_TEXT },
    name: { type: 'string' },
    extension: { type: 'string' },
    size: { type: 'integer' },
    mime_type: { type: 'string' },
    is_embedded: { type: 'boolean' },
    message_id: { type: ['integer', 'null'] },
  },
};

const THREAD_MESSAGE: Schema = {
  allOf: [
    ref('schemas', 'Message'),
    {
      type: 'object',
      properties: {
        actor: ACTOR,
        attachments: {
          type: 'array',
          items: {
            allOf: [
              ref('schemas', 'Attachment'),
              { type: 'object', properties: { url: { type: 'string', description: URL_TEXT } } },
            ],
          },
        },
        mail_error: {
          type: 'string',
          description:
            'In this answer: the message was saved but the first attempt at its e-mail failed; it is tried again automatically. On a stored message (operators only): its e-mail was given up after its last attempt.',
        },
      },
    },
  ],
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

function createMessage(): Schema {
  return {
    tags: ['messages'],
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
    requestBody: {
      required: true,
      content: {
        'multipart/form-data': {
          schema: {
            type: 'object',
            required: ['message', 'morphable_type', 'morphable_id'],
            properties: FORM_FIELDS,
          },
        },
        'application/json': {
          schema: {
            allOf: [
              ref('schemas', 'MessageCreate'),
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
    },
    responses: {
      201: {
        description: 'The message as `GET /messages/{id}?with[]=attachments` shows it.',
        content: { 'application/json': { schema: THREAD_MESSAGE } },
      },
      401: error('Unauthenticated'),
      403: error('Forbidden'),
      404: error('NotFound'),
      413: tooLarge,
      422: error('Unprocessable'),
    },
  };
}

function uploadAttachment(): Schema {
  return {
    tags: ['attachments'],
    operationId: 'attachmentsStore',
    summary: 'Upload a file (an inline image of the editor, or a file of a message)',
    description:
      'Allowed: images, PDF, office documents, audio, video, archives, code and text files, checked by ' +
      'extension and by content (a `.png` must be a PNG; text must be UTF-8 without NUL bytes); anything ' +
      'else is a 422 saying what is allowed. Without `message_id` the file belongs to no message yet and is ' +
      'visible to its uploader and operators only, until a message of the uploader links it. With ' +
      '`message_id`: a message the caller sees (404 otherwise); clients only their own messages.',
    requestBody: {
      required: true,
      content: {
        'multipart/form-data': {
          schema: {
            type: 'object',
            required: ['file'],
            properties: {
              file: { type: 'string', format: 'binary' },
              is_embedded: { type: 'boolean' },
              message_id: { type: 'integer' },
            },
          },
        },
      },
    },
    responses: {
      201: { description: 'The stored file.', content: { 'application/json': { schema: UPLOAD } } },
      401: error('Unauthenticated'),
      403: error('Forbidden'),
      404: error('NotFound'),
      413: tooLarge,
      422: error('Unprocessable'),
    },
  };
}

function attachmentFile(): Schema {
  return {
    tags: ['attachments'],
    operationId: 'attachmentsFile',
    summary: 'The file of an attachment',
    description:
      'With the bearer token, or with the `token` of the address an attachment row (`url`) or an image in a ' +
      "message's HTML carries. Served only to who may see the attachment's message (clients: visible " +
      'messages on their records; an upload without a message: its uploader and operators). Content-Type ' +
      'from the extension, `X-Content-Type-Options: nosniff`, `Content-Security-Policy: sandbox`; inline ' +
      'for PNG, JPEG, GIF, WebP, BMP, ICO and PDF, a download for everything else (SVG and HTML included).',
    security: [{}, { bearerAuth: [] }],
    parameters: [
      ref('parameters', 'Id'),
      { name: 'token', in: 'query', required: false, schema: { type: 'string' } },
    ],
    responses: {
      200: { description: 'The file.', content: { '*/*': { schema: { type: 'string', format: 'binary' } } } },
      401: error('Unauthenticated'),
      403: error('Forbidden'),
      404: error('NotFound'),
      422: error('Unprocessable'),
    },
  };
}

/** Path items to merge over the generic ones (POST replaces the generic create). */
export function messageThreadPaths(
  has: (resource: string) => boolean,
): Record<string, Record<string, Schema>> {
  return {
    ...(has('messages') && { '/messages': { post: createMessage() } }),
    ...(has('attachments') && {
      '/attachments': { post: uploadAttachment() },
      '/attachments/{id}/file': { get: attachmentFile() },
    }),
  };
}

/** Every call's documentation; a route finds its own (route-schema.ts `documented`). */
export const MESSAGES = messageThreadPaths(() => true);
