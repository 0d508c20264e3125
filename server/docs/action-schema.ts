import type { Resource } from '../../common/schema/types.ts';
import type { Registry } from '../schema/registry.ts';
import { validating } from '../http/route-validation.ts';
import { namesOf, ID_PARAMS, type Security } from './components.ts';
import { schemaRef, type Schema } from './refs.ts';
import { errorResponses, RECORD_ERRORS, type ErrorStatus } from './error-answers.ts';
import { listQuery, queryString } from './resource-schemas.ts';

/** One answer of an action route: JSON by a schema, or by content type (PDF, CSV, other files). */
export interface ActionAnswer {
  description: string;
  /** The JSON answer's schema. */
  schema?: Schema;
  /** Schemas by content type, for answers that are files (`application/pdf`) or one of several kinds. */
  content?: Record<string, Schema>;
}

/** What the action routes of SPEC 7 beyond the generic routes declare, for their schema and document. */
export interface ActionOptions {
  /** The resource (or group) the operation is listed under. */
  tag: string;
  operationId: string;
  summary: string;
  description?: string;
  /** Only when it differs from the document's default (a bearer token or a quote token). */
  security?: Security;
  /** Path parameters: `id` is the record id (`{id}`, the default); false for a path without one. */
  params?: 'id' | false | Record<string, Schema>;
  /** Query parameters by name. */
  query?: Record<string, Schema>;
  /** The JSON body's schema, or bodies by content type (a multipart form and its JSON twin). */
  body?: Schema | { content: Record<string, Schema> };
  /** The answers that are not errors, by status. */
  answers: Record<number, ActionAnswer>;
  /** The error answers (shared descriptions); default: those of a call on a record. */
  errors?: readonly ErrorStatus[];
}

/** A file as an answer: its bytes. */
export const BINARY: Schema = { type: 'string', format: 'binary' };

/**
 * The Fastify route schema of an action route: the route carries it, fast-json-stringify writes its
 * answers from it and @fastify/swagger documents the route from it. Component schemas are referenced
 * as Fastify's shared schemas (`schemaRef('Ticket')`).
 */
export function actionSchema(options: ActionOptions): Schema {
  const { tag, params = 'id', query, body, answers, errors = RECORD_ERRORS, ...texts } = options;
  const schema: Schema = { tags: [tag], ...texts };
  const path = params === 'id' ? ID_PARAMS.properties : params || {};
  const names = Object.keys(path);
  if (names.length) schema.params = { type: 'object', required: names, properties: path };
  if (query) schema.querystring = queryString(query);
  if (body) {
    schema.body =
      'content' in body
        ? {
            content: Object.fromEntries(
              Object.entries(body.content as Record<string, Schema>).map(([type, s]) => [
                type,
                { schema: s },
              ]),
            ),
          }
        : body;
  }
  const success = Object.entries(answers).map(([status, answer]) => [status, answerSchema(answer)]);
  schema.response = { ...Object.fromEntries(success), ...errorResponses(...errors) };
  return schema;
}

function answerSchema({ description, schema, content }: ActionAnswer): Schema {
  if (content) {
    return {
      description,
      content: Object.fromEntries(Object.entries(content).map(([type, s]) => [type, { schema: s }])),
    };
  }
  return { description, ...schema };
}

/**
 * The route options of an action route: its schema documents the route, writes its answers and checks
 * its params, query and body (server/http/route-validation.ts). The handler calls `validInput(request)`
 * once the caller is known and allowed, where its input is first needed.
 */
export function actionRoute(options: ActionOptions) {
  return validating(actionSchema(options));
}

/** A JSON body of named fields, nothing else. */
export const closedBody = (properties: Record<string, Schema>, required: string[] = []): Schema => ({
  type: 'object',
  ...(required.length ? { required } : {}),
  properties,
  additionalProperties: false,
});

/**
 * A value that is missing when null or '' too, as the hand checks took it: those say `missing` (a key of
 * common/server-texts.ts or a text, as not sending it does), anything else is `schema`'s to judge.
 * if/then/else, so that only one of the two is said (server/schema/input-errors.ts skips the `if`).
 */
export const blankIsMissing = (missing: string, schema: Schema): Schema => ({
  'x-error': { required: missing },
  if: { enum: [null, ''] },
  then: { not: {}, 'x-error': missing },
  else: schema,
});

export const OPERATORS_ONLY = 'Operators only: clients get 403.';

/** A reference to the record component of a resource (`Ticket#`). */
export const recordRef = (registry: Registry, resource: Resource) =>
  schemaRef(namesOf(registry, resource).record);

export { listQuery, schemaRef };
