import pkg from '../../package.json' with { type: 'json' };
import type { Registry } from '../schema/registry.ts';
import type { Field, Resource } from '../../common/schema/types.ts';
import { AUTH_SCHEMAS } from '../auth/schemas.ts';
import { ANSWER_LIMITS, WITH_LIMITS } from '../query/limits.ts';
import { withoutDefaults } from '../http/without-defaults.ts';

/**
 * The parts of the OpenAPI 3.1 document that routes share: the component schemas (added to Fastify with
 * addSchema, so route schemas reference them as `Name#` and @fastify/swagger emits them once), the shared
 * error answers and the document's head. The paths come from the routes' own schemas (@fastify/swagger).
 */

export type Schema = Record<string, unknown>;
export type Names = { record: string; create: string; update: string; page: string };

/** A reference, in a route schema, to a component added with addSchema. */
export const schemaRef = (name: string) => ({ $ref: `${name}#` });
export const code = (items: readonly string[]) =>
  items.length ? items.map((i) => `\`${i}\``).join(', ') : 'none';

export const OPERATORS = ['=', '!=', '<', '<=', '>', '>=', 'like'];
export const DEFAULT_PAGE_SIZE = 15;
export const MAX_PAGE_SIZE = 100;

export const INFO = {
  title: 'Service desk API',
  version: pkg.version,
  description: [
    "The REST API of the service desk and its client portal, generated from the routes' schemas, which for",
    'the records come from the JSON Schemas in `schemas/`.',
    'Authenticate with `POST /auth/login` and send the `access_token` as a bearer token; a quote link',
    'sends its quote token in the `X-Quote-Token` header instead and opens exactly that quote.',
    'The tenant comes from the host name (its subdomain).',
    '',
    'Errors: 401 only for a missing or expired token, 403 for a missing permission, 404 for a record that',
    'does not exist or that the caller may not see, 422 for bad input with `{message, errors: {field: [lines]}}`,',
    '429 with `Retry-After` for too many sign-in or reset attempts, 503 with `Retry-After` when the database',
    'cannot be reached or stopped a statement that ran too long (`STATEMENT_TIMEOUT_MS`): try again later.',
  ].join('\n'),
};

export const SECURITY_SCHEMES = {
  bearerAuth: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'JWT',
    description: 'The access token of `POST /auth/login`.',
  },
  metricsToken: {
    type: 'http',
    scheme: 'bearer',
    description: 'The `METRICS_TOKEN` setting of the installation; only `GET /metrics` takes it.',
  },
  quoteToken: {
    type: 'apiKey',
    in: 'header',
    name: 'X-Quote-Token',
    description: 'The token of a quote e-mail link; it opens exactly that quote.',
  },
} as const;

/** Security of a call that needs no token. */
export const PUBLIC: Security = [];

/** An operation's security requirements, as OpenAPI lists them. */
export type Security = Record<string, string[]>[];

// ---------------------------------------------------------------------------------------------------
// Component names

export const pascal = (text: string) =>
  text
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join('');

const variants = (base: string): Names => ({
  record: base,
  create: `${base}Create`,
  update: `${base}Update`,
  page: `Paginated${base}`,
});

/**
 * `<Title>`, `<Title>Create`, `<Title>Update`, `Paginated<Title>` per resource. Two resources may share a
 * title (views on one table), so a clash falls back to the resource name, then to a number.
 */
function componentNames(resources: Resource[], reserved: string[]): Map<string, Names> {
  const taken = new Set(reserved);
  const result = new Map<string, Names>();
  for (const r of resources) {
    const candidates = [pascal(r.title), pascal(r.name)].filter((c) => /^[A-Za-z]/.test(c));
    let chosen = candidates.map(variants).find((v) => Object.values(v).every((n) => !taken.has(n)));
    for (let i = 2; !chosen; i++) {
      const v = variants(`${candidates[0] ?? 'Resource'}${i}`);
      if (Object.values(v).every((n) => !taken.has(n))) chosen = v;
    }
    Object.values(chosen).forEach((n) => taken.add(n));
    result.set(r.name, chosen);
  }
  return result;
}

// ---------------------------------------------------------------------------------------------------
// Schemas

/** Keywords whose value is a map from names to schemas: the names are data, not keywords. */
const NAMED_SCHEMAS = new Set([
  'properties',
  'patternProperties',
  '$defs',
  'definitions',
  'dependentSchemas',
]);
/** Keywords whose value is data (an instance), never a schema. */
const DATA_KEYWORDS = new Set(['enum', 'const', 'default', 'examples', 'example']);

/** A schema without our `x-` vocabulary and without the file's identity, which means nothing here. */
function cleanSchema(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(cleanSchema);
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    if (key.startsWith('x-') || key === '$id' || key === '$schema') continue;
    if (DATA_KEYWORDS.has(key)) out[key] = v;
    else if (NAMED_SCHEMAS.has(key) && typeof v === 'object' && v !== null) {
      out[key] = Object.fromEntries(Object.entries(v).map(([name, s]) => [name, cleanSchema(s)]));
    } else out[key] = cleanSchema(v);
  }
  return out;
}

function fieldSchema(field: Field, registry: Registry): Schema {
  const schema = cleanSchema(field.schema) as Schema;
  const enumeration = field.enumName ? registry.enums[field.enumName] : undefined;
  if (!enumeration) return schema;
  // x-enum is a lookup list, not a validation rule: name the values in the description.
  const values = enumeration.values.map((v) => `\`${v.id}\` ${v.name}`).join(', ');
  const text = `Values of the enumeration ${field.enumName}: ${values}.`;
  return { ...schema, description: schema.description ? `${String(schema.description)} ${text}` : text };
}

function properties(r: Resource, registry: Registry, keep: (f: Field) => boolean): Record<string, Schema> {
  const result: Record<string, Schema> = {};
  for (const field of Object.values(r.fields)) {
    if (keep(field)) result[field.name] = fieldSchema(field, registry);
  }
  return result;
}

/**
 * Every object schema inside a record's fields lets through what it does not list: a record is written
 * with its schema, and a JSON field (settings, a version-2 shape) keeps the keys that the schema leaves out.
 */
export function openSchema(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(openSchema);
  if (typeof value !== 'object' || value === null) return value;
  const out: Schema = {};
  for (const [key, v] of Object.entries(value)) {
    if (DATA_KEYWORDS.has(key)) out[key] = v;
    else if (NAMED_SCHEMAS.has(key) && typeof v === 'object' && v !== null) {
      out[key] = Object.fromEntries(Object.entries(v).map(([name, s]) => [name, openSchema(s)]));
    } else out[key] = openSchema(v);
  }
  const types = Array.isArray(out.type) ? out.type : [out.type];
  // fast-json-stringify writes an object schema without `additionalProperties` as only its listed keys
  // (`{}` for a bare `type: object`): the keys it does not list are written as they are instead.
  if ((types.includes('object') || 'properties' in out) && !('additionalProperties' in out)) {
    out.additionalProperties = true;
  }
  return out;
}

function openObjects(props: Record<string, Schema>): Record<string, Schema> {
  return Object.fromEntries(Object.entries(props).map(([name, s]) => [name, openSchema(s) as Schema]));
}

function resourceSchemas(r: Resource, n: Names, registry: Registry): Record<string, Schema> {
  const writable = (f: Field) => !f.readOnly;
  const required = r.required.filter((name) => r.fields[name] && !r.fields[name].readOnly);
  return {
    [n.record]: {
      type: 'object',
      title: r.title,
      description:
        `The ${r.title} record as the API returns it. Relations loaded with \`with[]\` and counts asked for with ` +
        '`withCount[]` come as extra properties.',
      // Without the fields' defaults: they are for input; an answer holds what is stored (issue 34).
      properties: withoutDefaults(openObjects(properties(r, registry, (f) => !f.writeOnly))),
      // Serialised with this schema (fast-json-stringify): the relations, counts, sums and custom
      // fields that a query adds are written as they are, not dropped.
      additionalProperties: true,
    },
    [n.create]: {
      type: 'object',
      title: `${r.title} (create)`,
      description: 'The body of a create. Read-only fields are not accepted.',
      properties: properties(r, registry, writable),
      ...(required.length ? { required } : {}),
    },
    [n.update]: {
      type: 'object',
      title: `${r.title} (update)`,
      description: 'The body of an update: only the fields that change. Read-only fields are not accepted.',
      properties: properties(r, registry, writable),
    },
    [n.page]: paginated(schemaRef(n.record)),
  };
}

/** A page of a list: its rows and where it is. */
export function paginated(row: Schema): Schema {
  const count = { type: 'integer', minimum: 0 };
  const position = { type: ['integer', 'null'], minimum: 1, description: 'Null when the page is empty.' };
  return {
    type: 'object',
    required: ['data', 'total', 'from', 'to', 'per_page', 'current_page', 'last_page'],
    properties: {
      data: { type: 'array', items: row },
      total: { ...count, description: 'Rows matching the filters, over all pages.' },
      from: {
        ...position,
        description: 'Position of the first row of this page; null when the page is empty.',
      },
      to: { ...position, description: 'Position of the last row of this page; null when the page is empty.' },
      per_page: { type: 'integer', minimum: 1, maximum: MAX_PAGE_SIZE },
      current_page: { type: 'integer', minimum: 1 },
      last_page: { type: 'integer', minimum: 1 },
    },
  };
}

const tuple = (items: Schema[], minItems = items.length): Schema => ({
  type: 'array',
  prefixItems: items,
  minItems,
  maxItems: items.length,
});
const named = (description: string): Schema => ({ type: 'string', description });
const item = (key: string, description: string, value: Schema): Schema => ({
  type: 'object',
  description,
  required: [key],
  properties: { [key]: value },
  additionalProperties: false,
});

function builderItem(): Schema {
  const value = schemaRef('BuilderValue');
  const op = schemaRef('BuilderOperator');
  return {
    description:
      'One builder item: an object with exactly one key (the value as `qs` parses the query string).',
    oneOf: [
      item('orderBy', 'Sort by a sortable field.', tuple([named('field'), { enum: ['asc', 'desc'] }])),
      item('paginate', 'Page size.', {
        type: 'integer',
        minimum: 1,
        maximum: MAX_PAGE_SIZE,
        default: DEFAULT_PAGE_SIZE,
      }),
      item('where', 'Compare a filterable field; `[field, value]` means `=`.', {
        oneOf: [tuple([named('field'), op, value]), tuple([named('field'), value])],
      }),
      item(
        'whereIn',
        'The field is one of the values.',
        tuple([named('field'), { type: 'array', items: value }]),
      ),
      item('whereNull', 'The field is null.', named('field')),
      item('whereNotNull', 'The field is not null.', named('field')),
      item(
        'whereHas',
        'A related record matches the nested builder items.',
        tuple([named('relation'), schemaRef('Builder')]),
      ),
      item('doesntHave', 'No related record exists.', named('relation')),
      item(
        'whereBetween',
        'The field lies between from and to.',
        tuple([named('field'), tuple([value, value])]),
      ),
      item(
        'customField',
        'Compare the value of a custom field.',
        tuple([named('custom field name'), op, value]),
      ),
      item('s', 'Case-insensitive search in the searchable fields.', { type: 'string' }),
    ],
  };
}

function sharedSchemas(): Record<string, Schema> {
  return { ...ERROR_BODIES, ...moreSharedSchemas() };
}

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

function moreSharedSchemas(): Record<string, Schema> {
  return {
    Builder: { type: 'array', description: BUILDER_DESCRIPTION, items: schemaRef('BuilderItem') },
    BuilderItem: builderItem(),
    BuilderValue: {
      type: ['string', 'number', 'boolean', 'null'],
      description: 'A value to compare with; `me` stands for the caller where the field allows it.',
    },
    BuilderOperator: { enum: OPERATORS },
    ...AUTH_SCHEMAS,
    Health: {
      type: 'object',
      required: ['status', 'database'],
      properties: { status: { enum: ['ok', 'unavailable'] }, database: { enum: ['ok', 'unreachable'] } },
    },
    Liveness: {
      type: 'object',
      required: ['status'],
      properties: { status: { const: 'ok' } },
    },
    Readiness: {
      type: 'object',
      required: ['status', 'database', 'migrations', 'shutting_down', 'failed'],
      properties: {
        status: { enum: ['ready', 'unavailable'] },
        database: { enum: ['ok', 'unreachable'] },
        migrations: {
          enum: ['done', 'pending', 'unknown'],
          description: '`unknown` while the database does not answer.',
        },
        shutting_down: { type: 'boolean', description: 'The process received SIGTERM and drains.' },
        failed: {
          type: 'array',
          items: { enum: ['database', 'migrations', 'shutdown'] },
          description: 'Which checks failed; empty when ready.',
        },
        replica: {
          enum: ['ok', 'lagging', 'not_streaming', 'not_standby', 'unreachable'],
          description:
            'With DATABASE_READ_URL only: the read replica (`ok`: reads go there); never a reason for 503.',
        },
      },
    },
    PresetCount: {
      type: 'object',
      required: ['id', 'count'],
      properties: { id: { type: ['integer', 'string'] }, count: { type: 'integer', minimum: 0 } },
    },
  };
}

// ---------------------------------------------------------------------------------------------------
// Parameters and responses

const BUILDER_DESCRIPTION = `The list query: a list of builder items, each an object with one key, in the bracket style of the
\`qs\` library with indices, e.g.
\`builder[0][orderBy][0]=updated_at&builder[0][orderBy][1]=desc&builder[1][where][0]=status_id&builder[1][where][1]==&builder[1][where][2]=3&builder[2][paginate]=15\`.

| item | value | meaning |
|---|---|---|
| \`orderBy\` | \`[field, asc\\|desc]\` | sort by a sortable field; several items sort by several fields |
| \`paginate\` | \`n\` | page size, 1 to ${MAX_PAGE_SIZE}, default ${DEFAULT_PAGE_SIZE} |
| \`where\` | \`[field, op, value]\` or \`[field, value]\` | compare a filterable field (\`[field, value]\` means \`=\`) |
| \`whereIn\` | \`[field, [values]]\` | the field is one of the values |
| \`whereNull\` | \`field\` | the field is null |
| \`whereNotNull\` | \`field\` | the field is not null |
| \`whereHas\` | \`[relation, [builder items]]\` | a related record matches the nested items |
| \`doesntHave\` | \`relation\` | no related record exists |
| \`whereBetween\` | \`[field, [from, to]]\` | the field lies between from and to |
| \`customField\` | \`[name, op, value]\` | compare the value of the custom field \`name\` |
| \`s\` | \`text\` | case-insensitive search in the searchable fields |

Operators: ${OPERATORS.map((o) => `\`${o}\``).join(' ')}.

The value \`me\` stands for the caller on the fields that allow it (listed per operation): the caller's
user id, the caller's line (\`is_operator\`) or the caller's categories (then compared as \`whereIn\`).

Which fields may be filtered and sorted, which fields \`s\` searches and which relations exist is listed
in the description of each list operation. An unknown field, relation or operator, a value of the wrong
type and a page size over ${MAX_PAGE_SIZE} are answered with 422, and so is a query whose cost is over the
budget (nested \`whereHas\`, searches through relations, \`withCount\` and the presets of one count call
add up; the message names the cost and what to reduce).

\`with\` loads at most ${WITH_LIMITS.perRecord} rows of a to-many relation for each record (the first in the
relation's default order; \`withCount\` gives the full number, the relation's own list all of them). The
rows a \`with\` can bring, the records of the page times ${WITH_LIMITS.perRecord} for each to-many level,
may be at most ${WITH_LIMITS.rows}: past that, 422 under \`with\` naming the relations and the limit (a
to-many relation inside a to-many relation fits only on a page of one record). An answer larger than
${ANSWER_LIMITS.maxBytes / 1_000_000} MB is a 422 that asks for fewer records per page or fewer relations.`;

// ---------------------------------------------------------------------------------------------------
// Error answers

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

/** `params` of a route on one record: `:id`. */
export const ID_PARAMS = {
  type: 'object',
  required: ['id'],
  properties: { id: { type: 'integer', minimum: 1, description: 'The record id.' } },
} as const;

// ---------------------------------------------------------------------------------------------------
// The component list

const namesCache = new WeakMap<Registry, Map<string, Names>>();

/** The component names of each resource (`Ticket`, `TicketCreate`, …), the same for every caller. */
export function resourceNames(registry: Registry): Map<string, Names> {
  let names = namesCache.get(registry);
  if (!names) {
    const resources = [...registry.resources.values()].sort((a, b) => a.name.localeCompare(b.name));
    names = componentNames(resources, Object.keys(sharedSchemas()));
    namesCache.set(registry, names);
  }
  return names;
}

/** The names of the components of this resource: every resource of the registry has them. */
export function namesOf(registry: Registry, resource: Resource): Names {
  return resourceNames(registry).get(resource.name) as Names;
}

/** Every component schema, with its `$id`, for `app.addSchema`. */
export function componentSchemas(registry: Registry): Schema[] {
  const schemas: Record<string, Schema> = sharedSchemas();
  // Sorted so that the document does not change with the order in which the files were read.
  const resources = [...registry.resources.values()].sort((a, b) => a.name.localeCompare(b.name));
  for (const resource of resources) {
    Object.assign(schemas, resourceSchemas(resource, namesOf(registry, resource), registry));
  }
  return Object.entries(schemas).map(([$id, schema]) => ({ $id, ...schema }));
}
