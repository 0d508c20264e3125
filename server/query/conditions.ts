/**
 * Builder items (where, whereIn, whereHas, s, …) -> typed conditions, each name checked against what the
 * caller may filter on (visibility.ts), each value against the field's type (values.ts).
 */
import type { AuthContext } from '../auth/context.ts';
import type { Field, Resource } from '../../common/schema/types.ts';
import { OPERATORS, type Condition, type Operator, type Scalar } from './tree.ts';
import { QUERY_LIMITS } from './limits.ts';
import type { Problems } from './problems.ts';
import { asList, coerce, isScalarInput, textProblem } from './values.ts';
import { readableField, relationTargets, type ParseContext } from './visibility.ts';

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
export function parseConditionItem(
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
        if (ctx.meRefused) return void p.add(key, ctx.meRefused);
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
          if (ctx.meRefused) return void p.add(key, ctx.meRefused);
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
export function itemKind(item: unknown, key: string, p: Problems): [string, unknown] | undefined {
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

export function countItems(items: unknown[]): number {
  let n = 0;
  for (const item of items) {
    n += 1;
    const inner = item && typeof item === 'object' ? asList((item as any).whereHas) : undefined;
    const nested = inner ? asList(inner[1]) : undefined;
    if (nested) n += countItems(nested);
  }
  return n;
}
