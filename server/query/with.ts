/**
 * with, withCount and withSum: the relations a response loads beside its rows or aggregates per row,
 * each one the caller may use (visibility.ts), within the limits of limits.ts.
 */
import type { Relation, Resource } from '../../common/schema/types.ts';
import type { RelationSum, WithTree } from './tree.ts';
import { QUERY_LIMITS } from './limits.ts';
import type { Problems } from './problems.ts';
import { asList } from './values.ts';
import { readableField, relationTargets, type ParseContext } from './visibility.ts';

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
