/**
 * The parts of the OpenAPI 3.1 document that routes share: the component schemas (added to Fastify with
 * addSchema, so route schemas reference them as `Name#` and @fastify/swagger emits them once), the shared
 * error answers and the document's head. The paths come from the routes' own schemas (@fastify/swagger).
 * The builder's components are builder-schema.ts, the error answers error-answers.ts.
 */
import pkg from '../../package.json' with { type: 'json' };
import type { Registry } from '../schema/registry.ts';
import type { Field, Resource } from '../../common/schema/types.ts';
import { writableFieldsFor } from '../../common/schema/fields.ts';
import { recordBodySchema } from '../schema/record-body.ts';
import { CUSTOM_FIELDS_KEY } from '../resources/custom-values.ts';
import { AUTH_SCHEMAS } from '../auth/schemas.ts';
import { MAX_PAGE_SIZE } from '../../common/page.ts';
import { MAX_ID } from '../http/ids.ts';
import { withoutDefaults } from '../http/without-defaults.ts';
import { builderSchemas } from './builder-schema.ts';
import { ERROR_BODIES } from './error-answers.ts';
import { schemaRef, type Schema } from './refs.ts';
import { cleanSchema, openSchema } from './schema-cleaning.ts';

export type Names = { record: string; create: string; update: string; page: string };

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
  apiToken: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'sdk_ API token',
    description: [
      'An API token (`POST /api-tokens`, shown once): `Authorization: Bearer sdk_…`. Every call that takes',
      'the access token takes it too, save creating tokens; it ends no sign-in session (not by a logout); it acts as its owner with those of its scopes the owner holds (403 for another permission),',
      'leaves the owner signed in elsewhere, and has its own limit of calls per minute (429 with',
      '`Retry-After`). An expired or revoked token is a 401.',
    ].join(' '),
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

/**
 * `params` of a route on one record: `:id`, a positive whole number that fits PostgreSQL's integer
 * (server/http/ids.ts), said in the words the routes' hand check (`parseId`) said.
 */
export const ID_PARAMS = {
  type: 'object',
  required: ['id'],
  properties: {
    id: {
      type: 'integer',
      minimum: 1,
      maximum: MAX_ID,
      description: 'The record id.',
      'x-error': 'The id {value} is not valid: it must be a positive whole number.',
    },
  },
} as const;

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

function openObjects(props: Record<string, Schema>): Record<string, Schema> {
  return Object.fromEntries(Object.entries(props).map(([name, s]) => [name, openSchema(s) as Schema]));
}

function resourceSchemas(r: Resource, n: Names, registry: Registry): Record<string, Schema> {
  const customFields: Record<string, Schema> = r.morphType
    ? {
        [CUSTOM_FIELDS_KEY]: {
          type: 'object',
          description: "The tenant's custom fields of this record, by name.",
        },
      }
    : {};
  // x-flags: no fields, a word to the resource's own rules about this change.
  const flags = Object.fromEntries(
    Object.entries(r.flags).map(([name, description]) => [name, { type: 'boolean', description }]),
  );
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
    // The bodies as they are checked (server/schema/record-body.ts), an operator's fields; a client's
    // are named in the operation (resource-schemas.ts). Custom field values and x-flags are taken out of
    // the body before that check and checked on their own (resources/custom-values.ts, flags.ts).
    [n.create]: {
      title: `${r.title} (create)`,
      description: 'The body of a create. Read-only fields are not accepted.',
      ...withExtras(recordBody(r, registry, true), customFields),
    },
    [n.update]: {
      title: `${r.title} (update)`,
      description: 'The body of an update: only the fields that change. Read-only fields are not accepted.',
      ...withExtras(recordBody(r, registry, false), { ...customFields, ...flags }),
    },
    [n.page]: paginated(schemaRef(n.record)),
  };
}

/** The body of an operator's create or update of `r`, as it is checked, with the document's field texts. */
export function recordBody(r: Resource, registry: Registry, create: boolean): Schema {
  return recordBodySchema(r, writableFieldsFor(r, false), {
    create,
    fieldSchema: (f) => fieldSchema(f, registry),
  });
}

/** A body with the parts taken out of it before its check (custom field values, flags). */
function withExtras(body: Schema, extras: Record<string, Schema>): Schema {
  return { ...body, properties: { ...(body.properties as Record<string, Schema>), ...extras } };
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

function sharedSchemas(): Record<string, Schema> {
  return { ...ERROR_BODIES, ...moreSharedSchemas() };
}

function moreSharedSchemas(): Record<string, Schema> {
  return {
    ...builderSchemas(),
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
