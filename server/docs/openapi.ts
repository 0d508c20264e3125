import pkg from '../../package.json' with { type: 'json' };
import {
  loginBody,
  meResponse,
  messageResponse,
  saveConfigsBody,
  statusResponse,
  tokenResponse,
  userResponse,
  userSchema,
} from '../auth/schemas.ts';
import type { Registry } from '../schema/registry.ts';
import { messageThreadPaths } from './message-paths.ts';
import { backOfficeActionPaths } from './action-paths.ts';
import { exportPaths } from './export-paths.ts';
import { invoicingPaths } from './invoicing-paths.ts';
import type { Field, PortalScope, Resource } from '../../common/schema/types.ts';

/**
 * The OpenAPI 3.1 document of the API, generated from the schema registry alone: a new schema file
 * shows up here with no code. Written by hand are only the calls that are not resources (auth, system
 * status, preset counts, health) and the grammar of the builder query, which is the same for all.
 */

type Schema = Record<string, unknown>;
type Operation = Record<string, unknown>;
type PathItem = Record<string, Operation>;
type Names = { record: string; create: string; update: string; page: string };

const schemaRef = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const parameterRef = (name: string) => ({ $ref: `#/components/parameters/${name}` });
const responseRef = (name: string) => ({ $ref: `#/components/responses/${name}` });
const json = (schema: Schema) => ({ 'application/json': { schema } });
const code = (items: readonly string[]) => (items.length ? items.map((i) => `\`${i}\``).join(', ') : 'none');

/** The title with its indefinite article, for prose. */
const withArticle = (title: string) => `${/^[aeiou]/i.test(title) ? 'an' : 'a'} ${title}`;

const OPERATORS = ['=', '!=', '<', '<=', '>', '>=', 'like'];
const DEFAULT_PAGE_SIZE = 15;
const MAX_PAGE_SIZE = 100;

export function buildOpenApi(registry: Registry): object {
  // Sorted so that the document does not change with the order in which the files were read.
  const resources = [...registry.resources.values()].sort((a, b) => a.name.localeCompare(b.name));
  const schemas: Record<string, Schema> = sharedSchemas();
  const names = componentNames(resources, Object.keys(schemas));
  const paths: Record<string, PathItem> = {};
  for (const resource of resources) {
    const n = names.get(resource.name) as Names;
    Object.assign(schemas, resourceSchemas(resource, n, registry));
    for (const [path, item] of Object.entries(resourcePaths(resource, n))) addPathItem(paths, path, item);
  }
  for (const [path, item] of Object.entries(fixedPaths(resources))) addPathItem(paths, path, item);
  return {
    openapi: '3.1.0',
    info: {
      title: 'Service desk API',
      version: pkg.version,
      description: INFO_DESCRIPTION,
    },
    servers: [{ url: '/api' }],
    security: [{ bearerAuth: [] }, { quoteToken: [] }],
    tags: [...resources.map(resourceTag), ...FIXED_TAGS],
    paths,
    components: {
      securitySchemes: SECURITY_SCHEMES,
      schemas,
      parameters: sharedParameters(),
      responses: ERROR_RESPONSES,
    },
  };
}

const INFO_DESCRIPTION = [
  'The REST API of the service desk and its client portal, generated from the JSON Schemas in `schemas/`.',
  'Authenticate with `POST /auth/login` and send the `access_token` as a bearer token; a quote link',
  'sends its quote token in the `X-Quote-Token` header instead and opens exactly that quote.',
  'The tenant comes from the host name (its subdomain).',
  '',
  'Errors: 401 only for a missing or expired token, 403 for a missing permission, 404 for a record that',
  'does not exist or that the caller may not see, 422 for bad input with `{message, errors: {field: [lines]}}`,',
  '429 with `Retry-After` for too many sign-in or reset attempts, 503 with `Retry-After` when the database',
  'cannot be reached or stopped a statement that ran too long (`STATEMENT_TIMEOUT_MS`): try again later.',
].join('\n');

const SECURITY_SCHEMES = {
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
};

/** `withSum[]` on a show: `relation.field` over this resource's to-many relations. */
function sumParameter(r: Resource): Schema {
  const toMany = Object.values(r.relations).filter(
    (rel) => rel.kind !== 'belongsTo' && rel.kind !== 'morphTo',
  );
  return {
    name: 'withSum[]',
    in: 'query',
    required: false,
    style: 'form',
    explode: true,
    description:
      'Sums of a number field over a to-many relation, as `relation.field` ' +
      `(${toMany.map((rel) => rel.name).join(', ') || 'none'}); each comes back as \`<relation>_sum_<field>\`.`,
    schema: { type: 'array', items: { type: 'string' } },
  };
}

// ---------------------------------------------------------------------------------------------------
// Component names

const pascal = (text: string) =>
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
      properties: properties(r, registry, (f) => !f.writeOnly),
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
    [n.page]: paginated(n.record),
  };
}

function paginated(record: string): Schema {
  const count = { type: 'integer', minimum: 0 };
  const position = { type: ['integer', 'null'], minimum: 1, description: 'Null when the page is empty.' };
  return {
    type: 'object',
    required: ['data', 'total', 'from', 'to', 'per_page', 'current_page', 'last_page'],
    properties: {
      data: { type: 'array', items: schemaRef(record) },
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
  return {
    Error: { type: 'object', required: ['message'], properties: { message: { type: 'string' } } },
    ValidationError: {
      type: 'object',
      required: ['message', 'errors'],
      properties: {
        message: { type: 'string', description: 'The first error line.' },
        errors: {
          type: 'object',
          description: 'Error lines per field (or per builder key).',
          additionalProperties: { type: 'array', items: { type: 'string' } },
        },
      },
    },
    Builder: { type: 'array', description: 'A list of builder items.', items: schemaRef('BuilderItem') },
    BuilderItem: builderItem(),
    BuilderValue: {
      type: ['string', 'number', 'boolean', 'null'],
      description: 'A value to compare with; `me` stands for the caller where the field allows it.',
    },
    BuilderOperator: { enum: OPERATORS },
    ...authSchemas(),
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
budget (nested \`whereHas\`, \`with\` through to-many relations, searches through relations and the presets
of one count call add up; the message names the cost and what to reduce).`;

function sharedParameters(): Record<string, Schema> {
  return {
    Builder: {
      name: 'builder',
      in: 'query',
      required: false,
      style: 'deepObject',
      explode: true,
      description: BUILDER_DESCRIPTION,
      schema: schemaRef('Builder'),
    },
    Page: {
      name: 'page',
      in: 'query',
      required: false,
      description: 'The page to return, from 1.',
      schema: { type: 'integer', minimum: 1, default: 1 },
    },
    Version: {
      name: 'version',
      in: 'query',
      required: false,
      description: 'The listing version, for a resource that has more than one listing format (e.g. `2`).',
      schema: { type: 'integer', minimum: 1 },
    },
    Id: {
      name: 'id',
      in: 'path',
      required: true,
      description: 'The record id.',
      schema: { type: 'integer', minimum: 1 },
    },
  };
}

const ERROR_RESPONSES = {
  Unauthenticated: { description: 'No token, or an expired one.', content: json(schemaRef('Error')) },
  Forbidden: { description: 'The caller lacks the permission.', content: json(schemaRef('Error')) },
  NotFound: {
    description: 'No such record, or one the caller may not see.',
    content: json(schemaRef('Error')),
  },
  Unprocessable: {
    description: 'Invalid input: `{message, errors: {field: [lines]}}`.',
    content: json(schemaRef('ValidationError')),
  },
};

const errors = (...codes: (401 | 403 | 404 | 422)[]) => {
  const byCode = { 401: 'Unauthenticated', 403: 'Forbidden', 404: 'NotFound', 422: 'Unprocessable' } as const;
  return Object.fromEntries(codes.map((c) => [String(c), responseRef(byCode[c])]));
};
const ALL_ERRORS = errors(401, 403, 404, 422);

/** `with[]` / `withCount[]` with this resource's relation names to pick from. */
function relationParameter(r: Resource, key: 'with[]' | 'withCount[]'): Schema {
  const relations = Object.keys(r.relations);
  return {
    name: key,
    in: 'query',
    required: false,
    style: 'form',
    explode: true,
    description:
      key === 'with[]'
        ? 'Relations to load into each record (`with[0]=company` works as well).'
        : 'Relations to count for each record (`withCount[0]=messages` works as well).',
    schema: {
      type: 'array',
      items: relations.length ? { type: 'string', enum: relations } : { type: 'string' },
    },
  };
}

// ---------------------------------------------------------------------------------------------------
// Resource paths

function addPathItem(paths: Record<string, PathItem>, path: string, item: PathItem): void {
  paths[path] = { ...paths[path], ...item };
}

const camel = (text: string) => {
  const p = pascal(text);
  return p.charAt(0).toLowerCase() + p.slice(1);
};

function resourceTag(r: Resource): Schema {
  const extra = r.actions.filter(
    (a) => !['index', 'show', 'store', 'update', 'destroy', 'update-order'].includes(a),
  );
  const more = extra.length
    ? ` Further actions (each a permission \`tenant.${r.name}.<action>\`): ${code(extra)}.`
    : '';
  return { name: r.name, description: `${r.title} records.${more}` };
}

function scopeText(scope: PortalScope): string {
  if (scope === 'tenant') return 'every row';
  if ('company' in scope) return `rows whose \`${scope.company}\` is one of their companies`;
  if ('user' in scope) return `rows whose \`${scope.user}\` is their own id`;
  if ('relation' in scope) return `rows whose \`${scope.relation}\` they may see`;
  return scope.any.map(scopeText).join(', or ');
}

const conditionText = (conditions: Resource['fixedWhere']) =>
  conditions.map(([f, op, v]) => `\`${f} ${op} ${JSON.stringify(v)}\``).join(' and ');

/** Who may call an action: the permission name, and for clients the portal rules. */
function permissionText(r: Resource, action: string): string {
  const tenant = `Permission \`tenant.${r.name}.${action}\`.`;
  const portal = r.portal;
  if (!portal?.actions.includes(action)) return `${tenant} Clients (portal) cannot call this.`;
  const where = portal.where.length ? ` where ${conditionText(portal.where)}` : '';
  const fields = portal.fields ? ` They receive only ${code(portal.fields)}.` : '';
  return `${tenant} Clients need \`portal.${r.name}.${action}\` and see ${scopeText(portal.scope)}${where}.${fields}`;
}

function relationsText(r: Resource): string {
  const entries = Object.values(r.relations).map((rel) => {
    const target = rel.kind === 'morphTo' ? Object.values(rel.types).join(' | ') : rel.resource;
    return `\`${rel.name}\` (${rel.kind} ${target})`;
  });
  return entries.length ? entries.join(', ') : 'none';
}

const ME_TEXT = {
  id: "the caller's id",
  is_operator: "the caller's line",
  categories: "the caller's categories",
};

function indexDescription(r: Resource): string {
  const fields = Object.values(r.fields);
  const me = fields
    .filter((f) => f.me)
    .map((f) => `\`${f.name}\` (${ME_TEXT[f.me as keyof typeof ME_TEXT]})`);
  const lines = [
    `A page of ${r.title} records; see the \`builder\` parameter for the query.`,
    '',
    `- **Filterable** (\`where\`, \`whereIn\`, \`whereNull\`, \`whereNotNull\`, \`whereBetween\`): ${code(fields.filter((f) => f.filter).map((f) => f.name))}`,
    `- **Sortable** (\`orderBy\`): ${code(fields.filter((f) => f.sort).map((f) => f.name))}`,
    `- **Searchable** (\`s\`): ${code(r.search)}`,
    `- **Relations** (\`with[]\`, \`withCount[]\`, \`whereHas\`, \`doesntHave\`): ${relationsText(r)}`,
    `- **Default sort** (without \`orderBy\`): \`${r.defaultSort[0]}\` ${r.defaultSort[1]}`,
  ];
  if (me.length) lines.push(`- **\`me\`** is accepted on: ${me.join(', ')}`);
  if (r.fixedWhere.length) lines.push(`- **Always** restricted to ${conditionText(r.fixedWhere)}`);
  return lines.join('\n');
}

function operation(r: Resource, action: string, summary: string, body: Operation): Operation {
  const { description, ...rest } = body;
  return {
    tags: [r.name],
    operationId: `${camel(r.name)}${pascal(action)}`,
    summary,
    description: [description, permissionText(r, action)].filter(Boolean).join('\n\n'),
    ...rest,
  };
}

function resourcePaths(r: Resource, n: Names): Record<string, PathItem> {
  const has = (action: string) => r.actions.includes(action);
  const collection: PathItem = {};
  const member: PathItem = {};
  const order: PathItem = {};
  const withParams = [relationParameter(r, 'with[]'), relationParameter(r, 'withCount[]')];
  const record = { description: `The ${r.title}.`, content: json(schemaRef(n.record)) };
  if (has('index')) {
    collection.get = operation(r, 'index', `List ${r.name}`, {
      description: indexDescription(r),
      parameters: [parameterRef('Builder'), parameterRef('Page'), ...withParams, parameterRef('Version')],
      responses: { 200: { description: 'A page.', content: json(schemaRef(n.page)) }, ...ALL_ERRORS },
    });
  }
  if (has('store')) {
    collection.post = operation(r, 'store', `Create ${withArticle(r.title)}`, {
      requestBody: { required: true, content: json(schemaRef(n.create)) },
      responses: { 201: { ...record, description: `The created ${r.title}.` }, ...ALL_ERRORS },
    });
  }
  if (has('show')) {
    member.get = operation(r, 'show', `Show ${withArticle(r.title)}`, {
      parameters: [parameterRef('Id'), ...withParams, sumParameter(r)],
      responses: { 200: record, ...ALL_ERRORS },
    });
  }
  if (has('update')) {
    member.put = operation(r, 'update', `Update ${withArticle(r.title)}`, {
      description: 'Send only the fields that change.',
      parameters: [parameterRef('Id')],
      requestBody: { required: true, content: json(schemaRef(n.update)) },
      responses: { 200: { ...record, description: `The updated ${r.title}.` }, ...ALL_ERRORS },
    });
  }
  if (has('destroy')) {
    member.delete = operation(r, 'destroy', `Delete ${withArticle(r.title)}`, {
      parameters: [parameterRef('Id')],
      responses: { 200: { description: 'Deleted.' }, ...ALL_ERRORS },
    });
  }
  if (has('update-order')) {
    order.put = operation(r, 'update-order', `Move ${withArticle(r.title)} in its order`, {
      description: `Writes the field \`${r.orderField}\`.`,
      parameters: [parameterRef('Id')],
      requestBody: {
        required: true,
        content: json({
          type: 'object',
          required: ['order'],
          properties: { order: { type: 'integer' } },
          additionalProperties: false,
        }),
      },
      responses: { 200: { description: 'The order is saved.' }, ...ALL_ERRORS },
    });
  }
  const entries: [string, PathItem][] = [
    [`/${r.name}`, collection],
    [`/${r.name}/{id}`, member],
    [`/${r.name}/{id}/update-order`, order],
  ];
  return Object.fromEntries(entries.filter(([, item]) => Object.keys(item).length > 0));
}

// ---------------------------------------------------------------------------------------------------
// The calls that are not resources

const FIXED_TAGS = [
  { name: 'system', description: 'Status and health of the installation.' },
  { name: 'auth', description: 'Sign-in, tokens and the signed-in user.' },
  { name: 'presets', description: 'Counts for saved list filters.' },
  { name: 'exports', description: 'Filtered lists as CSV and XLSX files, written in the background.' },
];

const PUBLIC: Schema[] = [];
const refreshCookie = {
  'Set-Cookie': {
    description: 'The rotating refresh token (an httpOnly cookie).',
    schema: { type: 'string' },
  },
};

const copy = (schema: object): Schema => structuredClone(schema) as Schema;

/** `schema` with its `user` property pointing at the one SignedInUser component. */
function withUserRef(schema: object): Schema {
  const result = copy(schema);
  return { ...result, properties: { ...(result.properties as Schema), user: schemaRef('SignedInUser') } };
}

/** The auth routes validate and serialise with these schemas: the document shows the same ones. */
function authSchemas(): Record<string, Schema> {
  return {
    SignedInUser: { ...copy(userSchema), description: 'The signed-in operator or client.' },
    Session: withUserRef(tokenResponse),
    Me: withUserRef(meResponse),
    CurrentUser: withUserRef(userResponse),
    MessageResponse: copy(messageResponse),
    SystemStatus: copy(statusResponse),
  };
}

const ok = (description: string, schema: string) => ({ description, content: json(schemaRef(schema)) });

function fixedPaths(resources: Resource[]): Record<string, PathItem> {
  const listable = resources.filter((r) => r.actions.includes('index')).map((r) => r.name);
  return {
    '/system/status': { get: systemStatus() },
    '/auth/login': { post: login() },
    '/auth/refresh': { post: refresh() },
    '/auth/logout': {
      post: {
        tags: ['auth'],
        operationId: 'authLogout',
        summary: 'Sign out',
        description:
          'Ends the session of the refresh-token cookie (or, without one, of the bearer token) and clears the cookie.',
        // The bearer token is optional here: the cookie alone is enough.
        security: [{}, { bearerAuth: [] }],
        responses: { 200: ok('Signed out.', 'MessageResponse') },
      },
    },
    '/auth/me': {
      get: {
        tags: ['auth'],
        operationId: 'authMe',
        summary: 'The signed-in user and their lists',
        responses: { 200: ok('The caller and the lists the applications need.', 'Me'), ...errors(401) },
      },
      post: saveUserConfigs(),
    },
    '/presets-result-count/{resource}': { get: presetCounts(listable) },
    ...exportPaths(listable),
    '/health': { get: health() },
    '/health/live': { get: liveness() },
    '/health/ready': { get: readiness() },
    '/metrics': { get: metrics() },
    ...messageThreadPaths(has),
    ...backOfficeActionPaths(has),
    ...invoicingPaths(resources),
    '/auth/password/forgot': {
      post: call(
        'auth',
        'passwordForgot',
        'Mail a password reset link',
        PUBLIC,
        {
          email: { type: 'string', format: 'email' },
          locale: { type: 'string', enum: ['nl', 'en', 'de'] },
        },
        ['email'],
        'The same answer whether or not the address is known.',
      ),
    },
    '/auth/password/reset': {
      post: call(
        'auth',
        'passwordReset',
        'Set a new password with a reset link token',
        PUBLIC,
        {
          token: { type: 'string' },
          password: { type: 'string', minLength: 8 },
          password_confirmation: { type: 'string' },
        },
        ['token', 'password', 'password_confirmation'],
        'The password is changed; every session of the user ends.',
      ),
    },
    '/auth/sso': {
      get: call(
        'auth',
        'ssoStatus',
        'Whether Microsoft single sign-on is configured, and where it starts',
        PUBLIC,
        undefined,
        [],
        '{enabled, authorize_url?}',
      ),
    },
    ...(has('mail-outbox') && {
      '/mail-outbox/{id}/retry': {
        post: call(
          'mail-outbox',
          'mailOutboxRetry',
          'Try a mail that was not sent again: due now, its attempts counted from zero',
          undefined,
          undefined,
          [],
          'The mail as GET /mail-outbox/{id} gives it, after one attempt at once, with `mail_error` when ' +
            'that attempt failed too (the outbox goes on trying). For operators with ' +
            'tenant.mail-outbox.retry; clients never. 404 for a mail of another tenant or one already ' +
            'sent; 422 while another instance is sending it, or when it was given up before bodies were ' +
            'kept (it cannot be sent again).',
        ),
      },
    }),
    ...(has('quotes') && {
      '/quotes/{id}/send': {
        post: call(
          'quotes',
          'quotesSend',
          "Send a concept or sent quote to its client: status 2 and an e-mail with the quote's link",
          undefined,
          undefined,
          [],
          "{message, recipient, mail_error?}. The quote is sent (status 2); its client (else its deal's " +
            'client) is mailed, in Dutch, a link `<public origin>/app/quotes/{id}?token=…` whose token ' +
            '(header `X-Quote-Token`) opens exactly this quote for 30 days. Operators only ' +
            '(tenant.quotes.send). An accepted or rejected quote answers 422. When the mail server refused ' +
            'the e-mail the answer is still 200 (the quote is sent) with `mail_error`: the outbox tries the ' +
            'mail again by itself, so do not send the quote again; a mail given up for good is listed at ' +
            '/mail-outbox, where it can be tried again.',
        ),
      },
      '/quotes/{id}/accept': {
        post: call(
          'quotes',
          'quotesAccept',
          'Accept a sent quote (status 2) with a signature',
          undefined,
          {
            name: { type: 'string', minLength: 1, maxLength: 255 },
            note: { type: 'string', maxLength: 2000 },
            signature: { type: 'string', description: 'A PNG data URL (data:image/png;base64,…).' },
          },
          ['name', 'signature'],
          'The quote, now accepted (status 3). Two accepts racing: one wins, the other gets 422.',
        ),
      },
      '/quotes/{id}/decline': {
        post: call(
          'quotes',
          'quotesDecline',
          'Decline a sent quote (status 4)',
          undefined,
          undefined,
          [],
          'The quote, now declined.',
        ),
      },
      '/quotes/{id}/download': {
        post: call(
          'quotes',
          'quotesDownload',
          'The quote as a PDF',
          undefined,
          undefined,
          [],
          'application/pdf, saved as {name}.pdf.',
        ),
      },
    }),
    ...(has('contracts') && {
      '/contracts/{id}/buy': {
        post: call(
          'contracts',
          'contractsBuy',
          'Buy a prepaid card on a prepaid contract (period none)',
          undefined,
          {
            prepaid_card_id: { type: 'integer' },
          },
          ['prepaid_card_id'],
          "The contract with the card's hours added.",
        ),
      },
    }),
    ...(has('invoices') && {
      '/invoices/{id}/download': {
        post: call(
          'invoices',
          'invoicesDownload',
          'The invoice as a PDF',
          undefined,
          undefined,
          [],
          'application/pdf.',
        ),
      },
      '/invoicing/{id}': {
        get: call(
          'invoices',
          'invoicingFile',
          'The invoice with its PDF as {Base64, Filename}',
          undefined,
          undefined,
          [],
          'The invoice, Base64 and Filename.',
        ),
      },
    }),
  };

  function has(name: string) {
    return resources.some((r) => r.name === name);
  }
}

/** A call of SPEC 7 beyond the generic routes: its body (if any) and a described answer. */
function call(
  tag: string,
  operationId: string,
  summary: string,
  security: Schema[] | undefined,
  body: Record<string, Schema> | undefined,
  required: string[],
  answer: string,
): Operation {
  const withId = !['auth'].includes(tag);
  return {
    tags: [tag],
    operationId,
    summary,
    ...(security && { security }),
    ...(withId && { parameters: [parameterRef('Id')] }),
    ...(body && {
      requestBody: {
        required: true,
        content: json({ type: 'object', required, properties: body, additionalProperties: false }),
      },
    }),
    responses: { 200: { description: answer }, ...ALL_ERRORS },
  } as Operation;
}

function systemStatus(): Operation {
  return {
    tags: ['system'],
    operationId: 'systemStatus',
    summary: 'Status of the tenant of this host',
    security: PUBLIC,
    responses: {
      200: ok('The status.', 'SystemStatus'),
      404: { description: 'No tenant for this subdomain.', content: json(schemaRef('Error')) },
    },
  };
}

function login(): Operation {
  const field = (key: keyof typeof loginBody.properties) => copy(loginBody.properties[key]);
  const password = {
    type: 'object',
    title: 'Password',
    required: ['username', 'password'],
    properties: { username: field('username'), password: { ...field('password'), writeOnly: true } },
    additionalProperties: false,
  };
  const singleSignOn = {
    type: 'object',
    title: 'Single sign-on',
    required: ['code', 'portal'],
    properties: {
      code: { ...field('code'), description: 'The code of the single sign-on redirect.' },
      portal: { const: true },
    },
    additionalProperties: false,
  };
  return {
    tags: ['auth'],
    operationId: 'authLogin',
    summary: 'Sign in',
    description: 'Returns the user and an access token and sets the refresh-token cookie.',
    security: PUBLIC,
    requestBody: { required: true, content: json({ oneOf: [password, singleSignOn] }) },
    responses: {
      200: { ...ok('Signed in.', 'Session'), headers: refreshCookie },
      ...errors(422),
      429: { description: 'Too many failed attempts; see `Retry-After`.', content: json(schemaRef('Error')) },
    },
  };
}

function refresh(): Operation {
  return {
    tags: ['auth'],
    operationId: 'authRefresh',
    summary: 'Rotate the refresh token',
    description:
      'Uses the refresh-token cookie, not a bearer token. A refresh token that was used before revokes its ' +
      'whole family; the caller then has to sign in again.',
    security: PUBLIC,
    responses: {
      200: { ...ok('A new access token; the cookie is rotated.', 'Session'), headers: refreshCookie },
      ...errors(401),
    },
  };
}

function saveUserConfigs(): Operation {
  return {
    tags: ['auth'],
    operationId: 'authMeUpdate',
    summary: "Save the signed-in user's settings",
    requestBody: { required: true, content: json(copy(saveConfigsBody)) },
    responses: { 200: ok('The caller, with the settings saved.', 'CurrentUser'), ...errors(401, 422) },
  };
}

function presetCounts(listable: string[]): Operation {
  return {
    tags: ['presets'],
    operationId: 'presetsResultCount',
    summary: 'Count the rows of several builder queries at once',
    description:
      'Each entry of `builders` is `{id, builder}`, sent in the same bracket style as a list query ' +
      '(`builders[0][id]=3&builders[0][builder][0][where][0]=status_id&…`); the same whitelist applies.',
    parameters: [
      {
        name: 'resource',
        in: 'path',
        required: true,
        description: 'A resource that has a list.',
        schema: listable.length ? { type: 'string', enum: listable } : { type: 'string' },
      },
      {
        name: 'builders',
        in: 'query',
        required: true,
        style: 'deepObject',
        explode: true,
        schema: {
          type: 'array',
          items: {
            type: 'object',
            required: ['id', 'builder'],
            properties: { id: { type: ['integer', 'string'] }, builder: schemaRef('Builder') },
          },
        },
      },
    ],
    responses: {
      200: {
        description: 'One count per preset.',
        content: json({ type: 'array', items: schemaRef('PresetCount') }),
      },
      ...ALL_ERRORS,
    },
  };
}

function liveness(): Operation {
  return {
    tags: ['system'],
    operationId: 'healthLive',
    summary: 'Liveness: the process answers',
    description: 'Touches no database: a slow database is no reason to restart a process.',
    security: PUBLIC,
    responses: { 200: ok('The process answers.', 'Liveness') },
  };
}

function readiness(): Operation {
  return {
    tags: ['system'],
    operationId: 'healthReady',
    summary: 'Readiness for a load balancer',
    description:
      'Ready when the database answers, its migrations are done and the process is not shutting down. ' +
      'After SIGTERM this answers 503 while the process still serves for `SHUTDOWN_DRAIN_MS`.',
    security: PUBLIC,
    responses: {
      200: ok('Send traffic here.', 'Readiness'),
      503: {
        ...ok('Send no traffic here; `failed` says why.', 'Readiness'),
        headers: { 'Retry-After': { description: 'Seconds to wait.', schema: { type: 'integer' } } },
      },
    },
  };
}

function metrics(): Operation {
  return {
    tags: ['system'],
    operationId: 'metrics',
    summary: 'Prometheus metrics of this instance',
    description:
      'The counters of the instance that answers, in Prometheus text format 0.0.4: requests and their ' +
      'latency by route pattern and status, the database pool, statement timeouts, queue depths, failed ' +
      'sign-ins and rate-limit refusals, Node process metrics; every series labelled `instance_id`. ' +
      'Off (404) unless `METRICS_TOKEN` is set; needs no tenant host.',
    security: [{ metricsToken: [] }],
    responses: {
      200: {
        description: 'The metrics.',
        content: { 'text/plain; version=0.0.4; charset=utf-8': { schema: { type: 'string' } } },
      },
      401: { description: 'No token, or not the `METRICS_TOKEN`.', content: json(schemaRef('Error')) },
      404: { description: '`METRICS_TOKEN` is not set.', content: json(schemaRef('Error')) },
    },
  };
}

function health(): Operation {
  return {
    tags: ['system'],
    operationId: 'health',
    summary: 'Liveness and readiness',
    security: PUBLIC,
    responses: {
      200: ok('The process runs and the database answers.', 'Health'),
      503: ok('The database does not answer.', 'Health'),
    },
  };
}
