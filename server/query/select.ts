/**
 * The SELECT of a list or a show: the columns a caller may read, per-row counts and sums, to-one `with`
 * relations as JSON columns, and the page with its exact total. The WHERE comes from sql.ts.
 */
import { sql } from 'kysely';
import type { Field, Relation, Resource } from '../../common/schema/types.ts';
import { and, col, fieldValue, ref, tableAs, unique, type Fragment } from './fragments.ts';
import {
  baseConditions,
  compileCondition,
  languageOf,
  presentColumnsOf,
  relatedTargets,
  relationJoin,
  type SqlContext,
} from './sql.ts';
import type { ListQuery, RelationSum, WithTree } from './tree.ts';
import { chosenFields, relationChoice, type ColumnChoice } from './columns.ts';
import { compiledOnce, identityOf } from './statement-cache.ts';

/**
 * `t0.col as "field"` for every field the caller may read (translated ones in the caller's language):
 * no value in it, so its text is compiled once per alias, language and list of fields (statement-cache.ts).
 */
export function selectFields(ctx: SqlContext, alias: string, fields: Field[]): Fragment {
  const language = languageOf(ctx);
  return compiledOnce(`select ${alias} ${language} ${fields.map(identityOf).join(',')}`, () =>
    sql.join(fields.map((f) => sql`${fieldValue(alias, f, language)} as ${sql.id(f.name)}`)),
  );
}

/** `(select count(*) …) as "<relation>_count"`, one subquery per relation inside the one statement. */
export function countSubqueries(
  ctx: SqlContext,
  resource: Resource,
  alias: string,
  relations: Relation[],
): Fragment[] {
  return relations.map((relation) => {
    const targets = relatedTargets(ctx.registry, relation);
    const counts = targets.map((target) => {
      const rel = ctx.nextAlias();
      const { from, on } = relationJoin(ctx, resource, alias, relation, target, rel);
      return sql`(select count(*)::int from ${from} where ${and([on, ...baseConditions(ctx, target.resource, rel)])})`;
    });
    return sql`${sql.join(counts, sql` + `)} as ${sql.id(`${relation.name}_count`)}`;
  });
}

/** `(select coalesce(sum(…), 0) …) as "<relation>_sum_<field>"`: a tab's badge in the same statement. */
export function sumSubqueries(
  ctx: SqlContext,
  resource: Resource,
  alias: string,
  sums: RelationSum[],
): Fragment[] {
  return sums.map(({ relation, field }) => {
    const [target] = relatedTargets(ctx.registry, relation);
    const rel = ctx.nextAlias();
    const { from, on } = relationJoin(ctx, resource, alias, relation, target!, rel);
    const where = and([on, ...baseConditions(ctx, target!.resource, rel)]);
    return sql`(select coalesce(sum(${col(rel, field)}), 0)::float8 from ${from} where ${where}) as ${sql.id(`${relation.name}_sum_${field.name}`)}`;
  });
}

/** Fields a `with` tree needs on the owner rows to find related rows (a foreign key, a morph pair). */
export function keyFieldsFor(resource: Resource, tree: WithTree): Field[] {
  const out: Field[] = [];
  for (const name of Object.keys(tree)) {
    const relation = resource.relations[name]!;
    if (relation.kind === 'belongsTo') out.push(resource.fields[relation.key]!);
    if (relation.kind === 'morphTo') {
      out.push(resource.fields[`${relation.morph}_type`]!, resource.fields[`${relation.morph}_id`]!);
    }
  }
  return out;
}

/** The relations that lead to one row at most: they come inside the owner's own statement. */
export const isToOne = (relation: Relation): boolean =>
  relation.kind === 'belongsTo' || relation.kind === 'morphTo';

/**
 * `(select row_to_json(…) …) as "<relation>"` for every to-one relation of the `with` tree (and theirs,
 * nested): the related row as one JSON column of the owner's statement instead of a statement per
 * relation. The related row passes the same baseConditions as any list of its resource, so a row the
 * caller may not see is null, as it would be when loaded on its own (query/relations.ts revives it).
 * `choice`: the columns a `select` item asked for on each level (columns.ts); without, every readable one.
 */
export function toOneColumns(
  ctx: SqlContext,
  resource: Resource,
  alias: string,
  tree: WithTree,
  choice?: ColumnChoice,
): Fragment[] {
  const out: Fragment[] = [];
  for (const [name, subtree] of Object.entries(tree)) {
    const relation = resource.relations[name]!;
    if (!isToOne(relation)) continue;
    const objects = relatedTargets(ctx.registry, relation)
      .filter((target) => ctx.auth.kind === 'operator' || target.resource.portal)
      .map((target) => {
        const rel = ctx.nextAlias();
        const { from, on } = relationJoin(ctx, resource, alias, relation, target, rel);
        const related = target.resource;
        const chosen = relationChoice(choice, name);
        const fields = unique([
          ...chosenFields(related, ctx.auth, chosen),
          ...keyFieldsFor(related, subtree),
        ]);
        const columns = [selectFields(ctx, rel, fields), ...toOneColumns(ctx, related, rel, subtree, chosen)];
        const where = and([on, ...baseConditions(ctx, related, rel)]);
        const row = ctx.nextAlias();
        return sql`(select row_to_json(${sql.id(row)}) from (select ${sql.join(columns)} from ${from} where ${where} limit 1) as ${sql.id(row)})`;
      });
    const value =
      objects.length === 0
        ? sql`null::json`
        : objects.length === 1
          ? objects[0]!
          : sql`coalesce(${sql.join(objects)})`;
    out.push(sql`${value} as ${sql.id(name)}`);
  }
  return out;
}

/** The column that carries a list's exact total on each row of its page (listStatements `total`). */
export const TOTAL_COLUMN = '__total';

/** From this many skipped rows on, a page reads its ids first (listStatements). */
export const DEFERRED_JOIN_OFFSET = 1_000;

export interface ListStatements {
  rows: Fragment;
  count: Fragment;
}

/**
 * The statements of a list call: the page of rows, with its to-one `with` relations as JSON columns, and
 * the exact total. `countTable`: a summary table (query/counts.ts) that answers this total; the same WHERE
 * then runs on it, summing its `n`. `total`: the page carries the total as a column (TOTAL_COLUMN, an
 * uncorrelated subquery the planner runs once, beside the page's own plan), so a list call is one round
 * trip; `count` alone is then needed only for a page past the last row.
 */
export function listStatements(
  ctx: SqlContext,
  resource: Resource,
  query: ListQuery,
  extraFields: Field[] = [],
  extra: Fragment[] = [],
  countTable?: string,
  total = false,
): ListStatements {
  const alias = ctx.nextAlias();
  const where = and([
    ...baseConditions(ctx, resource, alias),
    ...extra,
    ...query.conditions.map((c) => compileCondition(ctx, resource, alias, c)),
  ]);
  const fields = unique([...chosenFields(resource, ctx.auth, query.columns), ...extraFields]);
  const count = countTable
    ? sql`select coalesce(sum(${ref(alias, 'n')}), 0)::int as total from ${sql.table(countTable)} as ${sql.id(alias)} where ${where}`
    : sql`select count(*)::int as total from ${tableAs(resource, alias)} where ${where}`;
  const columns = [
    selectFields(ctx, alias, fields),
    ...countSubqueries(ctx, resource, alias, query.withCount),
    ...toOneColumns(ctx, resource, alias, query.with, query.columns),
    ...presentColumnsOf(ctx, resource, alias),
    ...(total ? [sql`(${count}) as ${sql.id(TOTAL_COLUMN)}`] : []),
  ];
  const last = query.sort[query.sort.length - 1]!.direction;
  const order = [
    ...query.sort.map((s) => sql`${fieldValue(alias, s.field, languageOf(ctx))} ${sql.raw(s.direction)}`),
    ...(query.sort.some((s) => s.field.name === 'id') ? [] : [sql`${ref(alias, 'id')} ${sql.raw(last)}`]),
  ];
  const offset = (query.page - 1) * query.perPage;
  const orderBy = sql.join(order);
  // A deep page skips many rows: find the page's ids first (an index-only scan where an index covers
  // the conditions and the sort), then read only those rows, instead of reading every skipped row.
  const rows =
    offset >= DEFERRED_JOIN_OFFSET
      ? sql`select ${sql.join(columns)} from ${tableAs(resource, alias)} where ${ref(alias, 'id')} in (select ${ref(alias, 'id')} from ${tableAs(resource, alias)} where ${where} order by ${orderBy} limit ${query.perPage} offset ${offset}) order by ${orderBy}`
      : sql`select ${sql.join(columns)} from ${tableAs(resource, alias)} where ${where} order by ${orderBy} limit ${query.perPage} offset ${offset}`;
  return { rows, count };
}
