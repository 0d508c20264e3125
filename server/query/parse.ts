/**
 * Query string (already split by qs) -> typed ListQuery. The whitelist lives here: a name the schema
 * does not mark filterable, sortable, searchable or loadable is a 422 that says which and why.
 */
import type { AuthContext } from '../auth/context.ts';
import { readableFieldsFor } from '../../common/schema/fields.ts';
import { ValidationError } from '../http/errors.ts';
import type { Registry } from '../schema/registry.ts';
import type { Field, Relation, Resource } from '../../common/schema/types.ts';
import { recordLinkFields, recordLinkRefusal, type RelationUse } from './record-link.ts';
import {
  OPERATORS,
  type Condition,
  type ListQuery,
  type Operator,
  type RelatedTarget,
  type Scalar,
  type RelationSum,
  type Sort,
  type WithTree,
} from './tree.ts';
import { aggregatesCost, checkBudget, checkWithRows, conditionsCost } from './cost.ts';
import { QUERY_COST, QUERY_LIMITS } from './limits.ts';

export { QUERY_LIMITS };

const INT_MAX = 2_147_483_647;

class Problems {
  readonly errors: Record<string, string[]> = {};
  add(key: string, line: string): void {
    (this.errors[key] ??= []).push(line);
  }
  throwIfAny(): void {
    if (Object.keys(this.errors).length > 0) throw new ValidationError(this.errors);
  }
}

/** qs turns a[0]=x into an array, but a[150]=x (past arrayLimit) into an object with numeric keys. */
export function asList(value: unknown): unknown[] | undefined {
  if (Array.isArray(value)) return value;
  if (value && typeof value === 'object') {
    const keys = Object.keys(value);
    if (keys.length > 0 && keys.every((k) => /^\d+$/.test(k))) {
      return keys.sort((a, b) => Number(a) - Number(b)).map((k) => (value as Record<string, unknown>)[k]);
    }
  }
  return undefined;
}

function isScalarInput(v: unknown): v is string | number | boolean {
  return typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean';
}

const DATE_TIME = /^\d{4}-\d{2}-\d{2}([ T]\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}(:?\d{2})?)?)?$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

/**
 * Why a text from the query string cannot reach SQL, or undefined: too long, or holding the NUL
 * character, which PostgreSQL text cannot hold (the statement would fail with a 500).
 */
function textProblem(text: string, what: string): string | undefined {
  if (text.length > QUERY_LIMITS.maxTextLength) {
    return `${what} may not be longer than ${QUERY_LIMITS.maxTextLength} characters.`;
  }
  if (text.includes('\u0000')) return `${what} may not contain the NUL character.`;
  return undefined;
}

/** A query-string value converted to the field's type, or an error line. */
export function coerce(field: Field, raw: unknown): { value: Scalar } | { error: string } {
  if (!isScalarInput(raw)) return { error: `The value for ${field.name} must be a single value.` };
  const text = String(raw);
  const problem = textProblem(text, `The value for ${field.name}`);
  if (problem) return { error: problem };
  switch (field.type) {
    case 'integer': {
      if (!/^-?\d{1,10}$/.test(text) || Math.abs(Number(text)) > INT_MAX) {
        return { error: `The value for ${field.name} must be a whole number.` };
      }
      return { value: Number(text) };
    }
    case 'number': {
      const n = Number(text);
      if (text.trim() === '' || !Number.isFinite(n))
        return { error: `The value for ${field.name} must be a number.` };
      return { value: n };
    }
    case 'boolean': {
      if (['true', '1'].includes(text)) return { value: true };
      if (['false', '0'].includes(text)) return { value: false };
      return { error: `The value for ${field.name} must be true or false.` };
    }
    case 'string': {
      if (
        field.format === 'date-time' &&
        !(DATE_TIME.test(text) && !Number.isNaN(Date.parse(text.replace(' ', 'T'))))
      ) {
        return { error: `The value for ${field.name} must be a date and time (YYYY-MM-DD HH:mm:ss).` };
      }
      if (field.format === 'date' && !(DATE.test(text) && !Number.isNaN(Date.parse(text)))) {
        return { error: `The value for ${field.name} must be a date (YYYY-MM-DD).` };
      }
      return { value: text };
    }
    default:
      return { error: `The field ${field.name} cannot be filtered.` };
  }
}

export interface ParseContext {
  registry: Registry;
  auth: AuthContext;
}

/** Clients (and quote-link holders) see the portal: only fields and relations it allows. */
export function isPortalCaller(auth: AuthContext): boolean {
  return auth.kind !== 'operator';
}

/** The fields a caller may read on a resource (writeOnly never). */
export function readableFields(resource: Resource, auth: AuthContext): Field[] {
  return recordLinkFields(resource, auth) ?? readableFieldsFor(resource, isPortalCaller(auth));
}

function readableField(resource: Resource, name: unknown, auth: AuthContext): Field | undefined {
  if (typeof name !== 'string') return undefined;
  return readableFields(resource, auth).find((f) => f.name === name);
}

/** The targets of a relation a caller may use, or an error line. */
export function relationTargets(
  ctx: ParseContext,
  resource: Resource,
  name: unknown,
  use: RelationUse = 'filter',
): { relation: Relation; targets: RelatedTarget[] } | { error: string } {
  const relation =
    typeof name === 'string' && Object.hasOwn(resource.relations, name)
      ? resource.relations[name]
      : undefined;
  if (!relation) {
    const known = Object.keys(resource.relations).join(', ') || 'none';
    return {
      error: `Unknown relation ${JSON.stringify(String(name)).slice(0, 60)} on ${resource.name}. Allowed: ${known}.`,
    };
  }
  const refused = recordLinkRefusal(ctx.registry, ctx.auth, resource, relation, use);
  if (refused) return { error: refused };
  const targets: RelatedTarget[] =
    relation.kind === 'morphTo'
      ? Object.entries(relation.types).map(([morphType, r]) => ({
          resource: ctx.registry.require(r),
          morphType,
        }))
      : [{ resource: ctx.registry.require(relation.resource) }];
  if (isPortalCaller(ctx.auth)) {
    const visible = targets.filter((t) => t.resource.portal);
    if (visible.length === 0)
      return { error: `The relation ${relation.name} is not available in the portal.` };
    return { relation, targets: visible };
  }
  return { relation, targets };
}

/** Resolve the filter value 'me' as the field's x-me says (spec section 6). */
function resolveMe(field: Field, auth: AuthContext): Scalar | Scalar[] | undefined {
  switch (field.me) {
    case 'id':
      return auth.userId ?? -1;
    case 'is_operator':
      return auth.isOperator;
    case 'categories':
      return auth.categoryIds;
    default:
      return undefined;
  }
}

function filterField(
  resource: Resource,
  name: unknown,
  auth: AuthContext,
  p: Problems,
  key: string,
): Field | undefined {
  const field = readableField(resource, name, auth);
  if (!field) {
    p.add(key, `Unknown field ${JSON.stringify(String(name)).slice(0, 60)} on ${resource.name}.`);
    return undefined;
  }
  if (!field.filter) {
    p.add(key, `The field ${field.name} of ${resource.name} cannot be filtered.`);
    return undefined;
  }
  return field;
}

function parseOperator(raw: unknown): Operator | undefined {
  return OPERATORS.find((o) => o === raw);
}

/** One builder item -> a condition (or pagination/sort, returned separately). */
function parseConditionItem(
  ctx: ParseContext,
  resource: Resource,
  kind: string,
  arg: unknown,
  key: string,
  p: Problems,
  depth: number,
): Condition | undefined {
  const { auth } = ctx;
  const args = asList(arg);
  switch (kind) {
    case 'where': {
      if (!args || (args.length !== 2 && args.length !== 3)) {
        p.add(key, 'where takes [field, operator, value] or [field, value].');
        return undefined;
      }
      const [name, rawOp, rawValue] = args.length === 3 ? args : [args[0], '=', args[1]];
      const field = filterField(resource, name, auth, p, key);
      const op = parseOperator(rawOp);
      if (!op)
        p.add(
          key,
          `Unknown operator ${JSON.stringify(String(rawOp)).slice(0, 20)}. Allowed: ${OPERATORS.join(' ')}.`,
        );
      if (!field || !op) return undefined;
      if (rawValue === 'me' && field.me) {
        const me = resolveMe(field, auth);
        if (Array.isArray(me)) {
          if (op !== '=') p.add(key, `The value me of ${field.name} only works with =.`);
          return { type: 'whereIn', field, values: me };
        }
        return { type: 'where', field, op, value: me! };
      }
      if (
        op === 'like' &&
        (field.type !== 'string' || field.format === 'date' || field.format === 'date-time')
      ) {
        p.add(key, `The operator like only works on text fields; ${field.name} is not one.`);
        return undefined;
      }
      const v = coerce(field, rawValue);
      if ('error' in v) return void p.add(key, v.error);
      return { type: 'where', field, op, value: v.value };
    }
    case 'whereIn': {
      const [name, rawValues] = args ?? [];
      const values = asList(rawValues);
      if (!args || args.length !== 2 || !values) {
        p.add(key, 'whereIn takes [field, [values]].');
        return undefined;
      }
      const field = filterField(resource, name, auth, p, key);
      if (!field) return undefined;
      if (values.length === 0) return { type: 'whereIn', field, values: [] };
      const out: Scalar[] = [];
      for (const raw of values) {
        if (raw === 'me' && field.me) {
          const me = resolveMe(field, auth);
          out.push(...(Array.isArray(me) ? me : [me!]));
          continue;
        }
        const v = coerce(field, raw);
        if ('error' in v) return void p.add(key, v.error);
        out.push(v.value);
      }
      return { type: 'whereIn', field, values: out };
    }
    case 'whereNull':
    case 'whereNotNull': {
      const field = filterField(resource, arg, auth, p, key);
      return field && { type: kind, field };
    }
    case 'whereBetween': {
      const [name, range] = args ?? [];
      const bounds = asList(range);
      if (!args || args.length !== 2 || !bounds || bounds.length !== 2) {
        p.add(key, 'whereBetween takes [field, [from, to]].');
        return undefined;
      }
      const field = filterField(resource, name, auth, p, key);
      if (!field) return undefined;
      const from = coerce(field, bounds[0]);
      const to = coerce(field, bounds[1]);
      if ('error' in from) return void p.add(key, from.error);
      if ('error' in to) return void p.add(key, to.error);
      return { type: 'whereBetween', field, from: from.value, to: to.value };
    }
    case 'whereHas':
    case 'doesntHave': {
      const relName = kind === 'doesntHave' ? arg : args?.[0];
      if (depth >= QUERY_LIMITS.maxWhereHasDepth) {
        p.add(key, `whereHas may be nested at most ${QUERY_LIMITS.maxWhereHasDepth} levels deep.`);
        return undefined;
      }
      const found = relationTargets(ctx, resource, relName);
      if ('error' in found) return void p.add(key, found.error);
      if (kind === 'doesntHave')
        return { type: 'doesntHave', relation: found.relation, related: found.targets };
      if (found.targets.length !== 1 && args && args.length > 1) {
        p.add(
          key,
          `whereHas on ${found.relation.name} cannot take conditions: it leads to several kinds of record.`,
        );
        return undefined;
      }
      const inner = args && args.length > 1 ? asList(args[1]) : [];
      if (!inner) return void p.add(key, 'whereHas takes [relation, [builder items]].');
      const conditions = parseConditions(ctx, found.targets[0]!.resource, inner, `${key}.1`, p, depth + 1);
      return { type: 'whereHas', relation: found.relation, related: found.targets, conditions };
    }
    case 'customField': {
      if (!args || args.length !== 3) return void p.add(key, 'customField takes [name, operator, value].');
      const [name, rawOp, value] = args;
      const op = parseOperator(rawOp);
      if (!resource.morphType) return void p.add(key, `${resource.name} has no custom fields.`);
      if (typeof name !== 'string' || !/^[A-Za-z0-9_.-]{1,100}$/.test(name)) {
        return void p.add(key, 'The custom field name is not valid.');
      }
      if (!op) return void p.add(key, `Unknown operator. Allowed: ${OPERATORS.join(' ')}.`);
      if (!isScalarInput(value)) return void p.add(key, 'The custom field value must be a single value.');
      const problem = textProblem(String(value), 'The custom field value');
      if (problem) return void p.add(key, problem);
      return { type: 'customField', name, op, value: String(value) };
    }
    case 's': {
      if (!isScalarInput(arg)) return void p.add(key, 'Search (s) takes a text.');
      const text = String(arg).trim();
      const problem = textProblem(text, 'The search text');
      if (problem) return void p.add(key, problem);
      const fields = resource.search
        .map((n) => readableField(resource, n, auth))
        .filter((f): f is Field => !!f);
      if (fields.length === 0) return void p.add(key, `${resource.name} cannot be searched.`);
      if (text === '') return undefined;
      return { type: 'search', fields, text };
    }
    default:
      p.add(key, `Unknown builder item ${JSON.stringify(kind).slice(0, 40)}.`);
      return undefined;
  }
}

/** The single key of a builder item ({where: [...]}). */
function itemKind(item: unknown, key: string, p: Problems): [string, unknown] | undefined {
  if (!item || typeof item !== 'object' || Array.isArray(item))
    return void p.add(key, 'A builder item must be an object with one key.');
  const entries = Object.entries(item);
  if (entries.length !== 1) return void p.add(key, 'A builder item must have exactly one key.');
  return entries[0];
}

function parseConditions(
  ctx: ParseContext,
  resource: Resource,
  items: unknown[],
  key: string,
  p: Problems,
  depth: number,
): Condition[] {
  const out: Condition[] = [];
  items.forEach((item, i) => {
    const k = itemKind(item, `${key}.${i}`, p);
    if (!k) return;
    if (k[0] === 'orderBy' || k[0] === 'paginate') {
      p.add(`${key}.${i}`, `${k[0]} is not allowed inside whereHas.`);
      return;
    }
    const c = parseConditionItem(ctx, resource, k[0], k[1], `${key}.${i}`, p, depth);
    if (c) out.push(c);
  });
  return out;
}

function countItems(items: unknown[]): number {
  let n = 0;
  for (const item of items) {
    n += 1;
    const inner = item && typeof item === 'object' ? asList((item as any).whereHas) : undefined;
    const nested = inner ? asList(inner[1]) : undefined;
    if (nested) n += countItems(nested);
  }
  return n;
}

function positiveInt(raw: unknown, max: number): number | undefined {
  if (typeof raw === 'number' && Number.isInteger(raw) && raw >= 1 && raw <= max) return raw;
  if (typeof raw === 'string' && /^\d{1,10}$/.test(raw) && Number(raw) >= 1 && Number(raw) <= max)
    return Number(raw);
  return undefined;
}

export function parseWith(
  ctx: ParseContext,
  resource: Resource,
  raw: unknown,
  key: string,
  p: Problems,
): WithTree {
  if (raw === undefined || raw === '') return {};
  const list = typeof raw === 'string' ? raw.split(',') : asList(raw);
  if (!list) return (void p.add(key, 'with takes a list of relation names.'), {});
  if (list.length > QUERY_LIMITS.maxWith)
    return (void p.add(key, `with may name at most ${QUERY_LIMITS.maxWith} relations.`), {});
  const tree: WithTree = {};
  for (const entry of list) {
    if (typeof entry !== 'string') {
      p.add(key, 'with takes relation names.');
      continue;
    }
    const path = entry.split('.');
    if (path.length > QUERY_LIMITS.maxWithDepth) {
      p.add(key, `with may go at most ${QUERY_LIMITS.maxWithDepth} relations deep.`);
      continue;
    }
    let current = resource;
    let node = tree;
    for (const [i, name] of path.entries()) {
      const found = relationTargets(ctx, current, name, i === 0 ? 'load' : 'load-through');
      if ('error' in found) {
        p.add(key, found.error);
        break;
      }
      node = node[name] ??= {};
      if (found.targets.length !== 1 && path.indexOf(name) < path.length - 1) {
        p.add(key, `with cannot go through ${name}: it leads to several kinds of record.`);
        break;
      }
      current = found.targets[0]!.resource;
    }
  }
  return tree;
}

export function parseWithCount(
  ctx: ParseContext,
  resource: Resource,
  raw: unknown,
  key: string,
  p: Problems,
): Relation[] {
  if (raw === undefined || raw === '') return [];
  const list = typeof raw === 'string' ? raw.split(',') : asList(raw);
  if (!list) return (void p.add(key, 'withCount takes a list of relation names.'), []);
  const out: Relation[] = [];
  for (const name of list.slice(0, QUERY_LIMITS.maxWith)) {
    const found = relationTargets(ctx, resource, name);
    if ('error' in found) p.add(key, found.error);
    else if (found.relation.kind === 'belongsTo' || found.relation.kind === 'morphTo') {
      p.add(key, `withCount needs a to-many relation; ${found.relation.name} is not one.`);
    } else out.push(found.relation);
  }
  return out;
}

/** `withSum[]=relation.field`: a to-many relation and a number field of its rows the caller may read. */
export function parseWithSum(
  ctx: ParseContext,
  resource: Resource,
  raw: unknown,
  key: string,
  p: Problems,
): RelationSum[] {
  if (raw === undefined || raw === '') return [];
  const list = typeof raw === 'string' ? raw.split(',') : asList(raw);
  if (!list) return (void p.add(key, 'withSum takes a list of relation.field names.'), []);
  const out: RelationSum[] = [];
  for (const item of list.slice(0, QUERY_LIMITS.maxWith)) {
    const [name, fieldName, ...rest] = typeof item === 'string' ? item.split('.') : [];
    const found = relationTargets(ctx, resource, name);
    if (fieldName === undefined || rest.length > 0) p.add(key, 'withSum takes relation.field names.');
    else if ('error' in found) p.add(key, found.error);
    else if (found.relation.kind === 'belongsTo' || found.relation.kind === 'morphTo') {
      p.add(key, `withSum needs a to-many relation; ${found.relation.name} is not one.`);
    } else {
      const field = readableField(found.targets[0]!.resource, fieldName, ctx.auth);
      if (!field || (field.type !== 'integer' && field.type !== 'number'))
        p.add(key, `${found.relation.name} has no number field ${JSON.stringify(fieldName).slice(0, 60)}.`);
      else out.push({ relation: found.relation, field });
    }
  }
  return out;
}

/** GET /{resource}: the whole query string -> ListQuery, or a 422 listing every problem. */
export function parseListQuery(
  ctx: ParseContext,
  resource: Resource,
  query: Record<string, unknown>,
): ListQuery {
  const p = new Problems();
  const allowed = new Set(['builder', 'page', 'with', 'withCount', 'version']);
  for (const k of Object.keys(query))
    if (!allowed.has(k)) p.add(k, `Unknown query parameter ${k.slice(0, 40)}.`);
  const items = query.builder === undefined ? [] : asList(query.builder);
  if (!items) p.add('builder', 'builder must be a list of builder items.');
  const list = items ?? [];
  if (countItems(list) > QUERY_LIMITS.maxItems) {
    p.add('builder', `A query may have at most ${QUERY_LIMITS.maxItems} builder items.`);
    p.throwIfAny();
  }
  const conditions: Condition[] = [];
  const sort: Sort[] = [];
  let perPage: number = QUERY_LIMITS.defaultPageSize;
  list.forEach((item, i) => {
    const key = `builder.${i}`;
    const k = itemKind(item, key, p);
    if (!k) return;
    const [kind, arg] = k;
    if (kind === 'orderBy') {
      const args = asList(arg);
      const [name, dir = 'asc'] = args ?? [];
      const field = readableField(resource, name, ctx.auth);
      if (!args || args.length < 1 || args.length > 2) p.add(key, 'orderBy takes [field, asc|desc].');
      else if (!field)
        p.add(key, `Unknown field ${JSON.stringify(String(name)).slice(0, 60)} on ${resource.name}.`);
      else if (!field.sort) p.add(key, `The field ${field.name} of ${resource.name} cannot be sorted on.`);
      else if (dir !== 'asc' && dir !== 'desc') p.add(key, 'The sort direction must be asc or desc.');
      else sort.push({ field, direction: dir });
      return;
    }
    if (kind === 'paginate') {
      const n = positiveInt(arg, QUERY_LIMITS.maxPageSize);
      if (n === undefined)
        p.add(key, `The page size must be a whole number from 1 to ${QUERY_LIMITS.maxPageSize}.`);
      else perPage = n;
      return;
    }
    const c = parseConditionItem(ctx, resource, kind, arg, key, p, 0);
    if (c) conditions.push(c);
  });
  let page = 1;
  if (query.page !== undefined) {
    const n = positiveInt(query.page, QUERY_LIMITS.maxPage);
    if (n === undefined) p.add('page', `The page must be a whole number from 1 to ${QUERY_LIMITS.maxPage}.`);
    else page = n;
  }
  let version: number | undefined;
  if (query.version !== undefined) {
    version = positiveInt(query.version, 99);
    if (version === undefined) p.add('version', 'The version must be a whole number.');
    else if (version !== 1 && !resource.versions[version])
      p.add('version', `The list of ${resource.name} has no version ${version}.`);
  }
  const withTree = parseWith(ctx, resource, query.with, 'with', p);
  const withCount = parseWithCount(ctx, resource, query.withCount, 'withCount', p);
  p.throwIfAny();
  checkBudget(QUERY_COST.statement + conditionsCost(conditions) + aggregatesCost(withCount), 'builder');
  // What `with` loads hangs from the page's rows, not from every row the conditions consider.
  checkWithRows(ctx.registry, resource, withTree, perPage);
  if (sort.length === 0) {
    const [name, direction] = resource.defaultSort;
    sort.push({ field: resource.fields[name]!, direction });
  }
  return { conditions, sort, perPage, page, with: withTree, withCount, version };
}

/** GET /{resource}/{id}: only with, withCount and withSum. */
export function parseShowQuery(
  ctx: ParseContext,
  resource: Resource,
  query: Record<string, unknown>,
): Pick<ListQuery, 'with' | 'withCount'> & { withSum: RelationSum[] } {
  const p = new Problems();
  for (const k of Object.keys(query))
    if (k !== 'with' && k !== 'withCount' && k !== 'withSum')
      p.add(k, `Unknown query parameter ${k.slice(0, 40)}.`);
  const withTree = parseWith(ctx, resource, query.with, 'with', p);
  const withCount = parseWithCount(ctx, resource, query.withCount, 'withCount', p);
  const withSum = parseWithSum(ctx, resource, query.withSum, 'withSum', p);
  p.throwIfAny();
  checkBudget(QUERY_COST.statement + aggregatesCost([...withCount, ...withSum]), 'with');
  checkWithRows(ctx.registry, resource, withTree, 1);
  return { with: withTree, withCount, withSum };
}

/** The conditions of one builder (preset counts): no paging, no sort. */
export function parseBuilderConditions(
  ctx: ParseContext,
  resource: Resource,
  raw: unknown,
  key: string,
): Condition[] {
  const p = new Problems();
  const items = raw === undefined ? [] : asList(raw);
  if (!items) {
    p.add(key, 'builder must be a list of builder items.');
    p.throwIfAny();
  }
  if (countItems(items!) > QUERY_LIMITS.maxItems)
    p.add(key, `A query may have at most ${QUERY_LIMITS.maxItems} builder items.`);
  p.throwIfAny();
  const conditions: Condition[] = [];
  items!.forEach((item, i) => {
    const k = itemKind(item, `${key}.${i}`, p);
    if (!k || k[0] === 'orderBy' || k[0] === 'paginate') return; // a preset's own sort and page size do not change its count
    const c = parseConditionItem(ctx, resource, k[0], k[1], `${key}.${i}`, p, 0);
    if (c) conditions.push(c);
  });
  p.throwIfAny();
  return conditions;
}
