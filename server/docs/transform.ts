/**
 * The finishing touches on the document that @fastify/swagger builds from the routes: what a route
 * schema cannot say in OpenAPI terms. Pure functions of the document.
 */

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
 * Query parameters as qs reads them: the builder (and the presets' builders) in the deepObject style
 * (`builder[0][where][0]=…`), a list such as `with[]` as repeated `with[]=…` keys.
 */
export function styleQueryParameters(doc: Doc): Doc {
  for (const op of operations(doc)) {
    for (const parameter of op.parameters ?? []) {
      if (parameter.in !== 'query') continue;
      if (parameter.name === 'builder' || parameter.name === 'builders') {
        Object.assign(parameter, { style: 'deepObject', explode: true });
      } else if (String(parameter.name).endsWith('[]')) {
        Object.assign(parameter, { style: 'form', explode: true });
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
