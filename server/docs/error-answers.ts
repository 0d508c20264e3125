/**
 * The error answers of the API: their bodies, each status described once in `components.responses`,
 * and what a route schema lists so that its errors serialise and document alike.
 */
import type { Schema } from './refs.ts';

export const ERROR_BODIES = {
  Error: {
    type: 'object',
    required: ['message'],
    properties: { message: { type: 'string' } },
    // Some refusals say more (the fields of a 422, a retry time): written as they are.
    additionalProperties: true,
  },
  ValidationError: {
    type: 'object',
    // Without `errors` when the refusal is about the call as a whole (a bad id, a quote already accepted).
    required: ['message'],
    properties: {
      message: { type: 'string', description: 'The first error line.' },
      errors: {
        type: 'object',
        description: 'Error lines per field (or per builder key).',
        additionalProperties: { type: 'array', items: { type: 'string' } },
      },
    },
  },
} satisfies Record<string, Schema>;

/** The error answers, each described once in `components.responses` and referenced by the operations. */
export const SHARED_RESPONSES = {
  400: { name: 'BadRequest', description: 'A malformed request (its JSON, its content type).' },
  401: { name: 'Unauthenticated', description: 'No token, or an expired one.' },
  403: { name: 'Forbidden', description: 'The caller lacks the permission.' },
  404: { name: 'NotFound', description: 'No such record, or one the caller may not see.' },
  409: { name: 'Conflict', description: 'The record is still in use by other records.' },
  413: { name: 'PayloadTooLarge', description: 'The body or a file is larger than allowed.' },
  422: { name: 'Unprocessable', description: 'Invalid input: `{message, errors: {field: [lines]}}`.' },
  429: { name: 'TooManyRequests', description: 'Too many attempts; see `Retry-After`.' },
  503: {
    name: 'Unavailable',
    description:
      'The database or the file store cannot be reached, or a statement ran too long; see `Retry-After`.',
  },
} as const;

export type ErrorStatus = keyof typeof SHARED_RESPONSES;

const RETRY_AFTER = {
  'Retry-After': { description: 'Seconds to wait.', schema: { type: 'integer' } },
};

/** `components.responses` of the document. */
export function sharedResponses(): Record<string, { description: string }> {
  return Object.fromEntries(
    Object.entries(SHARED_RESPONSES).map(([status, { name, description }]) => [
      name,
      {
        description,
        content: {
          'application/json': {
            schema: { $ref: `#/components/schemas/${status === '422' ? 'ValidationError' : 'Error'}` },
          },
        },
        ...(status === '429' || status === '503' ? { headers: RETRY_AFTER } : {}),
      },
    ]),
  );
}

/**
 * The error answers of a route schema. They serialise the error body, and the document's transform
 * (plugin.ts) replaces each by a reference to its shared response: matched by status and description.
 */
export function errorResponses(...statuses: ErrorStatus[]): Record<string, Schema> {
  return Object.fromEntries(
    statuses.map((status) => [
      String(status),
      {
        description: SHARED_RESPONSES[status].description,
        // Written out, not referenced: routes of plugins that are used without the docs plugin (the
        // auth tests' bare apps) have no components to resolve.
        ...ERROR_BODIES[status === 422 ? 'ValidationError' : 'Error'],
      },
    ]),
  );
}

/** What a call on a record may answer besides its success. */
export const RECORD_ERRORS = [401, 403, 404, 422, 503] as const;
