/**
 * The schemas of the attachment calls that replace or extend the generic ones (issue 5): upload a file,
 * fetch an attachment's file. The routes (actions.ts) carry them; they write the answers and the
 * OpenAPI document.
 */
import { actionSchema, BINARY, type ActionAnswer } from '../../docs/action-schema.ts';
import { type Schema } from '../../docs/refs.ts';
import { ERROR_BODIES } from '../../docs/error-answers.ts';

export const URL_TEXT =
  'The file address with a download token for this reader, valid for 6 hours; usable in `<img src>` and ' +
  'links, which cannot send the bearer token.';

/** 413 with what the limit is (the shared answer only says that there is one). */
export const TOO_LARGE: ActionAnswer = {
  description:
    'The file is larger than ATTACHMENT_MAX_BYTES (default 20 MB), or too many files: `{message}`.',
  schema: ERROR_BODIES.Error,
};

/** The stored file, as the upload answers it. */
const UPLOAD: Schema = {
  type: 'object',
  required: ['id', 'url', 'name', 'extension', 'size', 'mime_type', 'is_embedded', 'message_id'],
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
  additionalProperties: false,
};

/** The upload's form, as its route checks it (server/http/form-body.ts): the file and two fields. */
export const UPLOAD_FORM: Schema = {
  type: 'object',
  required: ['file'],
  properties: {
    file: BINARY,
    is_embedded: { type: 'boolean', 'x-error': 'The is_embedded field must be true or false.' },
    message_id: {
      type: ['integer', 'null'],
      minimum: 1,
      maximum: 2_147_483_647,
      description: 'Empty: no message.',
      'x-error': 'The message_id must be a positive whole number.',
    },
  },
  additionalProperties: false,
  'x-error': { additionalProperties: 'Unknown field {name}.' },
};

export const UPLOAD_SCHEMA: Schema = actionSchema({
  tag: 'attachments',
  operationId: 'attachmentsStore',
  summary: 'Upload a file (an inline image of the editor, or a file of a message)',
  description:
    'Allowed: images, PDF, office documents, audio, video, archives, code and text files, checked by ' +
    'extension and by content (a `.png` must be a PNG; text must be UTF-8 without NUL bytes); anything ' +
    'else is a 422 saying what is allowed. Without `message_id` the file belongs to no message yet and is ' +
    'visible to its uploader and operators only, until a message of the uploader links it. With ' +
    '`message_id`: a message the caller sees (404 otherwise); clients only their own messages.',
  params: false,
  body: {
    content: {
      'multipart/form-data': UPLOAD_FORM,
    },
  },
  answers: { 201: { description: 'The stored file.', schema: UPLOAD }, 413: TOO_LARGE },
  errors: [401, 403, 404, 422],
});

export const FILE_SCHEMA: Schema = actionSchema({
  tag: 'attachments',
  operationId: 'attachmentsFile',
  summary: 'The file of an attachment',
  description:
    'With the bearer token, or with the `token` of the address an attachment row (`url`) or an image in a ' +
    "message's HTML carries. Served only to who may see the attachment's message (clients: visible " +
    'messages on their records; an upload without a message: its uploader and operators). Content-Type ' +
    'from the extension, `X-Content-Type-Options: nosniff`, `Content-Security-Policy: sandbox`; inline ' +
    'for PNG, JPEG, GIF, WebP, BMP, ICO and PDF, a download for everything else (SVG and HTML included).',
  security: [{}, { bearerAuth: [] }],
  query: { token: { type: 'string', maxLength: 200 } },
  answers: { 200: { description: 'The file.', content: { '*/*': BINARY } } },
  errors: [401, 403, 404, 422],
});
