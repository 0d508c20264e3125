/**
 * Query string (already split by qs) -> typed ListQuery. The whitelist lives here: a name the schema
 * does not mark filterable, sortable, searchable or loadable is a 422 that says which and why. The
 * pieces sit beside it: builder items (conditions.ts), with/withCount/withSum (with.ts), single values
 * (values.ts), what a caller may see (visibility.ts).
 */
import type { Resource } from '../../common/schema/types.ts';
import type { Condition, ListQuery, RelationSum, Sort } from './tree.ts';
import { aggregatesCost, checkBudget, checkWithRows, conditionsCost } from './cost.ts';
import { QUERY_COST, QUERY_LIMITS } from './limits.ts';
import { countItems, itemKind, parseConditionItem } from './conditions.ts';
import { Problems } from './problems.ts';
import { asList, positiveInt } from './values.ts';
import { readableField, type ParseContext } from './visibility.ts';
import { parseWith, parseWithCount, parseWithSum } from './with.ts';
import { resolveColumns, selectNames } from './columns.ts';
import { serverText } from '../../common/server-texts.ts';

export { QUERY_LIMITS };

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
  const selects: { key: string; names: string[] }[] = [];
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
    if (kind === 'select') {
      selects.push({ key, names: selectNames(arg, key, p) });
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
  const columns = resolveColumns(ctx.registry, ctx.auth, resource, withTree, selects, p);
  // Another version renames and fills the row's fields (resources/versions.ts): a narrowed row would
  // answer empty values there for what was not chosen, as if the record held none.
  if (columns && version !== undefined && version !== 1) p.add(selects[0]!.key, serverText('select_version'));
  p.throwIfAny();
  checkBudget(QUERY_COST.statement + conditionsCost(conditions) + aggregatesCost(withCount), 'builder');
  // What `with` loads hangs from the page's rows, not from every row the conditions consider.
  checkWithRows(ctx.registry, resource, withTree, perPage);
  if (sort.length === 0) {
    const [name, direction] = resource.defaultSort;
    sort.push({ field: resource.fields[name]!, direction });
  }
  const parsed: ListQuery = { conditions, sort, perPage, page, with: withTree, withCount, version };
  if (columns) parsed.columns = columns;
  return parsed;
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
    // A preset's own sort, page size and columns do not change its count.
    if (!k || k[0] === 'orderBy' || k[0] === 'paginate' || k[0] === 'select') return;
    const c = parseConditionItem(ctx, resource, k[0], k[1], `${key}.${i}`, p, 0);
    if (c) conditions.push(c);
  });
  p.throwIfAny();
  return conditions;
}
