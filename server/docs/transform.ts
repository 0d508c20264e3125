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
