/**
 * The finishing touches on the document that @fastify/swagger builds from the routes: what a route
 * schema cannot say in OpenAPI terms. Pure functions of the document.
 */

import { JSON_QUERY_PARAMETERS } from '../query/json-query.ts';
import { RELATION_LISTS } from './resource-schemas.ts';

type Doc = Record<string, any>;
type Shared = Record<string, { name: string; description: string }>;

const METHODS = ['get', 'put', 'post', 'delete', 'patch'];

function* operations(doc: Doc): Generator<Doc> {
  for (const item of Object.values<Doc>(doc.paths ?? {})) {
    for (const method of METHODS) if (item[method]) yield item[method];
  }
}

/**
 * A route's error answer (errorResponses in error-answers.ts) carries the shared description of its status:
 * it becomes a reference to the one shared response, so each error is described once.
 */
export function shareErrorResponses(doc: Doc, shared: Shared): Doc {
  for (const op of operations(doc)) {
    for (const [status, response] of Object.entries<Doc>(op.responses ?? {})) {
      const common = shared[status];
      if (common && response.description === common.description) {
        op.responses[status] = { $ref: `#/components/responses/${common.name}` };
      }
    }
  }
  return doc;
}

/**
 * Query parameters as the server reads them. The builder (and the presets' builders) is a list of
 * objects holding lists: OpenAPI's deepObject style is defined for flat objects only, so generated
 * clients and contract testers could not write or check the bracket style (`builder[0][where][0]=…`).
 * The document describes the equivalent JSON-encoded parameter (`builder=[{"where":[…]}]`, decoded by
 * server/query/json-query.ts) and names the bracket style in the description. A list of relations
 * (`with`, as the route's schema names what qs makes of it) is written as the apps send it: repeated
 * `with[]=…` keys.
 */
export function styleQueryParameters(doc: Doc): Doc {
  for (const op of operations(doc)) {
    for (const parameter of op.parameters ?? []) {
      if (parameter.in !== 'query') continue;
      if (JSON_QUERY_PARAMETERS.includes(parameter.name)) {
        const { schema } = parameter;
        delete parameter.schema;
        delete parameter.style;
        delete parameter.explode;
        parameter.content = { 'application/json': { schema } };
      } else if ((RELATION_LISTS as readonly string[]).includes(parameter.name)) {
        Object.assign(parameter, { name: `${parameter.name}[]`, style: 'form', explode: true });
      }
    }
  }
  return doc;
}

/**
 * The document without `x-error`: a route schema's own 422 line (server/schema/input-errors.ts) is how
 * the server words an answer, not part of the contract; the answers' lines are documented by the
 * answers themselves. Like the rest of our x- vocabulary, it stays out of the document.
 */
export function withoutErrorTexts<T>(value: T): T {
  if (Array.isArray(value)) return value.map(withoutErrorTexts) as T;
  if (!value || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => key !== 'x-error')
      .map(([key, v]) => [key, withoutErrorTexts(v)]),
  ) as T;
}
