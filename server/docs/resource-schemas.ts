import type { PortalScope, Resource } from '../../common/schema/types.ts';
import type { Registry } from '../schema/registry.ts';
import { writableFieldsFor } from '../../common/schema/fields.ts';
import { ID_PARAMS, namesOf, pascal } from './components.ts';
import { code, schemaRef, type Schema } from './refs.ts';
import { errorResponses, RECORD_ERRORS } from './error-answers.ts';
import { RECORD_BODY_LINES } from '../schema/record-body.ts';

/**
 * The Fastify schemas of the generic resource routes (server/resources/plugin.ts), from the registry:
 * each route carries its own, and @fastify/swagger turns them into the document's operations. They
 * document and serialise; the routes validate with our own parser and messages (SPEC 7/8).
 */

/** The generic actions: a route each. */
export type GenericAction = 'index' | 'show' | 'store' | 'update' | 'destroy' | 'update-order';

/**
 * The query keys that name relations, as qs hands them to the route: `with[]=company&with[]=status`
 * is a list, `with=company,status` one text the parser splits at its commas. A name may be a path
 * (`company.contacts`), so the relations are named in the description, not as an enum; the parser
 * checks each against what the caller may load. The document names them in the bracket style
 * (`with[]`: ./transform.ts, styleQueryParameters).
 */
export const RELATION_LISTS = ['with', 'withCount', 'withSum'] as const;

function relationList(description: string): Schema {
  return { type: ['array', 'string'], description, items: { type: 'string' } };
}

function relationQuery(r: Resource, key: 'with' | 'withCount'): Schema {
  const relations = Object.keys(r.relations);
  const names = relations.length ? ` Relations: ${code(relations)}.` : '';
  return relationList(
    key === 'with'
      ? `Relations to load into each record (\`with[]=company\`, \`with[0]=company\` or \`with=company,status\`; \`company.contacts\` goes deeper).${names}`
      : `Relations to count for each record (\`withCount[]=messages\`); each comes back as \`<relation>_count\`.${names}`,
  );
}

/** `withSum[]` on a show: `relation.field` over this resource's to-many relations. */
function sumQuery(r: Resource): Schema {
  const toMany = Object.values(r.relations).filter(
    (rel) => rel.kind !== 'belongsTo' && rel.kind !== 'morphTo',
  );
  return relationList(
    'Sums of a number field over a to-many relation, as `relation.field` ' +
      `(${toMany.map((rel) => rel.name).join(', ') || 'none'}); each comes back as \`<relation>_sum_<field>\`.`,
  );
}

/**
 * A query string schema, as qs has parsed the brackets. A route that validates (`validating`) checks it
 * after our parser (server/query/parse.ts), whose 422s name every problem in the contract's words and
 * judge each name against what the caller may see; the schema then refuses what the document does not
 * allow and the parser let through. `closed`: no other parameter (the generic lists and records, whose
 * parser refuses any other name too).
 */
export function queryString(properties: Record<string, Schema>, { closed = false } = {}): Schema {
  return { type: 'object', properties, additionalProperties: !closed };
}

/** The list query of a list route: the builder grammar is the `Builder` component's description. */
export function listQuery(extra: Record<string, Schema> = {}): Record<string, Schema> {
  return {
    builder: {
      ...schemaRef('Builder'),
      description:
        'The list query: builder items (see the `Builder` schema) as one JSON-encoded parameter, ' +
        '`builder=[{"where":["status_id",1]},{"paginate":25}]`, or in the bracket style of `qs` that the ' +
        'apps send, `builder[0][where][0]=status_id&builder[0][where][1]=1&builder[1][paginate]=25`; both ' +
        'mean the same.',
    },
    page: { type: 'integer', minimum: 1, default: 1, description: 'The page to return, from 1.' },
    ...extra,
    version: {
      type: 'integer',
      minimum: 1,
      description: 'The listing version, for a resource that has more than one listing format (e.g. `2`).',
    },
  };
}

const camel = (text: string) => {
  const p = pascal(text);
  return p.charAt(0).toLowerCase() + p.slice(1);
};

/** The title with its indefinite article, for prose. */
const withArticle = (title: string) => `${/^[aeiou]/i.test(title) ? 'an' : 'a'} ${title}`;

/** The tag of a resource's operations, with the further actions (each a permission) it has. */
export function resourceTag(r: Resource): { name: string; description: string } {
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
  if ('relation' in scope) {
    const theirs = scope.whose ? ` and whose \`${scope.whose}\` is their own id` : '';
    return scope.byRole
      ? `rows whose \`${scope.relation}\` they may see${theirs}, in companies where their company role reaches this resource`
      : `rows whose \`${scope.relation}\` they may see${theirs}`;
  }
  if ('where' in scope) return `rows where ${conditionText(scope.where)}`;
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
  // A client's body is the create or update body with fewer fields (server/schema/record-body.ts).
  const writes =
    action === 'store' || action === 'update'
      ? ` They write only ${code(writableFieldsFor(r, true).map((f) => f.name))}.`
      : '';
  return `${tenant} Clients need \`portal.${r.name}.${action}\` and see ${scopeText(portal.scope)}${where}.${fields}${writes}`;
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

function operation(r: Resource, action: string, summary: string, body: Schema): Schema {
  const { description, ...rest } = body;
  return {
    tags: [r.name],
    operationId: `${camel(r.name)}${pascal(action)}`,
    summary,
    description: [description, permissionText(r, action)].filter(Boolean).join('\n\n'),
    ...rest,
  };
}

/**
 * The store route's schema for a create route of its own that validates (`validating`): its body, the
 * create component, is the record body as it is checked (server/schema/record-body.ts), an operator's.
 * Not for a resource whose clients create: they write other fields, which one schema cannot say.
 */
export function checkedStoreSchema(registry: Registry, r: Resource): Schema {
  if (r.portal?.actions.includes('store')) throw new Error(`${r.name}: clients create with other fields`);
  return resourceRouteSchema(registry, r, 'store');
}

/** The Fastify schema of one generic route of a resource. */
export function resourceRouteSchema(registry: Registry, r: Resource, action: GenericAction): Schema {
  const n = namesOf(registry, r);
  const errors = errorResponses(...RECORD_ERRORS);
  const withQuery = { with: relationQuery(r, 'with'), withCount: relationQuery(r, 'withCount') };
  const record = (description: string) => ({ description, ...schemaRef(n.record) });
  switch (action) {
    case 'index':
      return operation(r, 'index', `List ${r.name}`, {
        description: indexDescription(r),
        querystring: queryString(listQuery(withQuery), { closed: true }),
        response: { 200: { description: 'A page.', ...schemaRef(n.page) }, ...errors },
      });
    case 'store':
      return operation(r, 'store', `Create ${withArticle(r.title)}`, {
        body: schemaRef(n.create),
        response: { 201: record(`The created ${r.title}.`), ...errorResponses(400, 413), ...errors },
      });
    case 'show':
      return operation(r, 'show', `Show ${withArticle(r.title)}`, {
        params: ID_PARAMS,
        querystring: queryString({ ...withQuery, withSum: sumQuery(r) }, { closed: true }),
        response: { 200: record(`The ${r.title}.`), ...errors },
      });
    case 'update':
      return operation(r, 'update', `Update ${withArticle(r.title)}`, {
        description: 'Send only the fields that change.',
        params: ID_PARAMS,
        body: schemaRef(n.update),
        response: { 200: record(`The updated ${r.title}.`), ...errorResponses(400, 413), ...errors },
      });
    case 'destroy':
      return operation(r, 'destroy', `Delete ${withArticle(r.title)}`, {
        params: ID_PARAMS,
        response: {
          200: { description: 'Deleted.', ...schemaRef('MessageResponse') },
          ...errorResponses(409),
          ...errors,
        },
      });
    case 'update-order':
      return operation(r, 'update-order', `Move ${withArticle(r.title)} in its order`, {
        description: `Writes the field \`${r.orderField}\`.`,
        params: ID_PARAMS,
        body: {
          type: 'object',
          required: ['order'],
          properties: {
            order: { type: 'integer', minimum: 0, maximum: 1_000_000, 'x-error': 'order_out_of_range' },
          },
          additionalProperties: false,
          'x-error': { type: RECORD_BODY_LINES.notObject },
        },
        response: { 200: record(`The ${r.title}, with its order saved.`), ...errors },
      });
  }
}
