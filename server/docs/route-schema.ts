import { documentationOnly } from './validation.ts';
import {
  errorResponses,
  ID_PARAMS,
  openSchema,
  SHARED_RESPONSES,
  type ErrorStatus,
  type Schema,
} from './components.ts';
import { listQuery, queryString } from './resource-schemas.ts';

/**
 * The Fastify route schema of a call written as an OpenAPI operation (its parameters, request body and
 * answers), for the action routes whose texts read best in OpenAPI's own terms. The route then carries
 * it, and @fastify/swagger writes it back into the document; a component reference
 * (`#/components/schemas/Ticket`) becomes Fastify's shared-schema reference (`Ticket#`).
 */
export function routeSchema(operation: Schema): Schema {
  const { parameters, requestBody, responses, ...rest } = operation as {
    parameters?: Schema[];
    requestBody?: { content: Record<string, { schema: Schema }> };
    responses?: Record<string, Schema>;
  };
  const result: Schema = { ...rest };
  const params: Record<string, Schema> = {};
  const query: Record<string, Schema> = {};
  for (const parameter of parameters ?? []) {
    const ref = parameter.$ref as string | undefined;
    if (ref === '#/components/parameters/Id') Object.assign(params, ID_PARAMS.properties);
    else if (ref && /\/(Builder|Page|Version)$/.test(ref)) {
      const key = ref.split('/').at(-1)!.toLowerCase();
      query[key] = listQuery()[key]!;
    } else if (ref) throw new Error(`No parameter component ${ref}`);
    else {
      const {
        name,
        in: where,
        schema,
        description,
      } = parameter as {
        name: string;
        in: string;
        schema: Schema;
        description?: string;
      };
      const target = where === 'path' ? params : query;
      target[name] = localRefs({ ...schema, ...(description ? { description } : {}) }) as Schema;
    }
  }
  const paramNames = Object.keys(params);
  if (paramNames.length) result.params = { type: 'object', required: paramNames, properties: params };
  if (Object.keys(query).length) result.querystring = queryString(query);
  if (requestBody) {
    const types = Object.keys(requestBody.content);
    result.body =
      types.length === 1 && types[0] === 'application/json'
        ? localRefs(requestBody.content['application/json']!.schema)
        : { content: localRefs(requestBody.content) };
  }
  result.response = Object.fromEntries(
    Object.entries(responses ?? {}).map(([status, response]) => [status, answer(status, response)]),
  );
  return result;
}

function answer(status: string, response: Schema): Schema {
  const ref = response.$ref as string | undefined;
  if (ref) {
    const shared = Object.entries(SHARED_RESPONSES).find(([, r]) => ref.endsWith(`/${r.name}`));
    if (!shared) throw new Error(`No response component ${ref}`);
    return errorResponses(Number(shared[0]) as ErrorStatus)[shared[0]] as Schema;
  }
  const { description, content, headers } = response as {
    description: string;
    content?: Record<string, { schema: Schema }>;
    headers?: Schema;
  };
  const extra = headers ? { headers } : {};
  if (!content) return { description, ...extra };
  const types = Object.keys(content);
  if (types.length === 1 && types[0] === 'application/json') {
    return {
      description,
      ...extra,
      ...(openSchema(localRefs(content['application/json']!.schema)) as Schema),
    };
  }
  return { description, ...extra, content: openSchema(localRefs(content)) };
}

/** `#/components/schemas/X` as Fastify's shared-schema reference `X#`, throughout. */
function localRefs(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(localRefs);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, v]) =>
      key === '$ref' && typeof v === 'string' && v.startsWith('#/components/schemas/')
        ? [key, `${v.slice('#/components/schemas/'.length)}#`]
        : [key, localRefs(v)],
    ),
  );
}

/** OpenAPI path items by path, then by method: what the files in server/docs/routes/ export. */
export type PathItems = Record<string, Record<string, Schema>>;

/**
 * The route options that give an action route its documented schema: found by the route's own method
 * and path (a route with no documentation fails at start, not in a reader's hands). The schema
 * documents and serialises; the handler checks its input with our messages.
 */
export function documented(paths: PathItems, method: string, path: string) {
  const operation = paths[path]?.[method];
  if (!operation) throw new Error(`No documentation for ${method.toUpperCase()} ${path}`);
  return { schema: routeSchema(operation), validatorCompiler: documentationOnly };
}
