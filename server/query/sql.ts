/**
 * Typed tree -> one parameterised SQL statement. Identifiers come only from the registry (never from
 * the request: the parser has already swapped every client-supplied name for the registry's Field or
 * Relation object), and every value is a parameter.
 */
import { sql, type RawBuilder } from 'kysely';
import type { AuthContext } from '../auth/context.ts';
import type { Registry } from '../schema/registry.ts';
import type { Field, FixedCondition, PortalScope, Relation, Resource } from '../../common/schema/types.ts';
import { LANGUAGE_FALLBACK, type Language } from '../../common/schema/types.ts';
import { isPortalCaller, readableFields } from './visibility.ts';
import type { Condition, ListQuery, RelatedTarget, RelationSum, WithTree } from './tree.ts';
import { linkOf, openedTo } from './record-link.ts';

type Fragment = RawBuilder<unknown>;

export interface SqlContext {
  registry: Registry;
  auth: AuthContext;
  /** Hands out t0, t1, … so nested subqueries never shadow each other. */
  nextAlias(): string;
  /** Columns a resource's presenter reads, selected beside its rows (see `PresentColumns`). */
  presentColumns?: PresentColumns;
}

/**
 * What a resource's `present` hook will read about each row, as columns of the statement that reads the
 * rows (one round trip instead of one more per hook): `(select … ) as "__name"` fragments over the rows'
 * alias. The caller hands it in (server/resources/hooks.ts), as it does the presenter: the query builder
 * knows no per-resource code. A presenter still works without them (rows reached another way).
 */
export type PresentColumns = (resource: Resource, alias: string, ctx: SqlContext) => Fragment[];

export function sqlContext(
  registry: Registry,
  auth: AuthContext,
  presentColumns?: PresentColumns,
): SqlContext {
  let n = 0;
  return { registry, auth, nextAlias: () => `t${n++}`, presentColumns };
}

/** The presenter's own columns of `resource`'s rows read under `alias` (none without a provider). */
export const presentColumnsOf = (ctx: SqlContext, resource: Resource, alias: string): Fragment[] =>
  ctx.presentColumns?.(resource, alias, ctx) ?? [];

/** The resources whose tables the builder item customField reads. */
export const CUSTOM_FIELDS = 'custom-fields';
export const CUSTOM_VALUES = 'custom-values';

const MAX_SCOPE_DEPTH = 6;

export const ref = (alias: string, column: string): Fragment => sql.ref(`${alias}.${column}`) as Fragment;
const col = (alias: string, field: Field) => ref(alias, field.column);
/**
 * A field's value as the caller reads, filters and sorts it: a translated field (x-translated) in the
 * caller's language, past empty translations to the next language of the fallback (de, en, nl).
 */
export function fieldValue(alias: string, field: Field, language: Language = 'nl'): Fragment {
  const translations = field.translations;
  if (!translations || language === 'nl') return col(alias, field);
  const texts = LANGUAGE_FALLBACK[language].map((l) =>
    l === 'nl' ? col(alias, field) : sql`nullif(${ref(alias, translations[l])}, '')`,
  );
  return sql`coalesce(${sql.join(texts)})`;
}

const languageOf = (ctx: SqlContext): Language => ctx.auth.language ?? 'nl';

export const tableAs = (resource: Resource, alias: string): Fragment =>
  sql`${sql.table(resource.table)} as ${sql.id(alias)}`;

export function and(parts: Fragment[]): Fragment {
  if (parts.length === 0) return sql`true`;
  if (parts.length === 1) return parts[0]!;
  return sql`(${sql.join(parts, sql` and `)})`;
}

export function or(parts: Fragment[]): Fragment {
  if (parts.length === 0) return sql`false`;
  if (parts.length === 1) return parts[0]!;
  return sql`(${sql.join(parts, sql` or `)})`;
}

function fixed(resource: Resource, alias: string, conditions: FixedCondition[]): Fragment[] {
  return conditions.map(([name, op, value]) => {
    const c = col(alias, resource.fields[name]!);
    if (value === null) return op === '=' ? sql`${c} is null` : sql`${c} is not null`;
    return sql`${c} ${sql.raw(SQL_OPERATORS[op]!)} ${value}`;
  });
}

/**
 * What every statement on a resource adds, in this one place: the tenant, the resource's fixed
 * conditions (a view on a shared table), and for portal callers the portal conditions and scope (for
 * a link to one record, what the link opens: query/record-link.ts).
 */
export function baseConditions(ctx: SqlContext, resource: Resource, alias: string, depth = 0): Fragment[] {
  const parts: Fragment[] = [];
  if (resource.tenant) parts.push(sql`${ref(alias, 'tenant_id')} = ${ctx.auth.tenantId}`);
  parts.push(...fixed(resource, alias, resource.fixedWhere));
  if (isPortalCaller(ctx.auth)) {
    if (!resource.portal) return [sql`false`];
    parts.push(...fixed(resource, alias, resource.portal.where));
    parts.push(
      ctx.auth.kind === 'record-token'
        ? recordLinkScope(ctx, resource, alias)
        : portalScope(ctx, resource, alias, resource.portal.scope, depth),
    );
  }
  return parts;
}

function portalScope(
  ctx: SqlContext,
  resource: Resource,
  alias: string,
  scope: PortalScope,
  depth: number,
): Fragment {
  if (depth > MAX_SCOPE_DEPTH) return sql`false`;
  if (scope === 'tenant') return sql`true`;
  if ('company' in scope) {
    const ids = ctx.auth.companyIds;
    if (ids.length === 0) return sql`false`;
    return sql`${col(alias, resource.fields[scope.company]!)} in (${sql.join(ids)})`;
  }
  if ('user' in scope) {
    if (ctx.auth.userId === null) return sql`false`;
    return sql`${col(alias, resource.fields[scope.user]!)} = ${ctx.auth.userId}`;
  }
  if ('relation' in scope) {
    const relation = resource.relations[scope.relation]!;
    return existsRelated(
      ctx,
      resource,
      alias,
      relation,
      relatedTargets(ctx.registry, relation),
      [],
      depth + 1,
    );
  }
  return or(scope.any.map((s) => portalScope(ctx, resource, alias, s, depth)));
}

export function relatedTargets(registry: Registry, relation: Relation): RelatedTarget[] {
  if (relation.kind === 'morphTo') {
    return Object.entries(relation.types).map(([morphType, r]) => ({
      resource: registry.require(r),
      morphType,
    }));
  }
  return [{ resource: registry.require(relation.resource) }];
}

/** FROM and the join condition that tie a related table (alias `rel`) to the owner row (alias `owner`). */
export function relationJoin(
  ctx: SqlContext,
  owner: Resource,
  ownerAlias: string,
  relation: Relation,
  target: RelatedTarget,
  rel: string,
): { from: Fragment; on: Fragment } {
  const related = target.resource;
  switch (relation.kind) {
    case 'belongsTo':
      return {
        from: tableAs(related, rel),
        on: sql`${ref(rel, 'id')} = ${col(ownerAlias, owner.fields[relation.key]!)}`,
      };
    case 'hasMany':
      return {
        from: tableAs(related, rel),
        on: sql`${col(rel, related.fields[relation.foreignKey]!)} = ${ref(ownerAlias, 'id')}`,
      };
    case 'belongsToMany': {
      const pivot = ctx.nextAlias();
      return {
        from: sql`${tableAs(related, rel)} join ${sql.table(relation.pivot)} as ${sql.id(pivot)} on ${ref(pivot, relation.relatedKey)} = ${ref(rel, 'id')}`,
        on: sql`${ref(pivot, relation.key)} = ${ref(ownerAlias, 'id')}`,
      };
    }
    case 'morphMany':
      return {
        from: tableAs(related, rel),
        on: sql`${col(rel, related.fields[`${relation.morph}_type`]!)} = ${owner.morphType!} and ${col(rel, related.fields[`${relation.morph}_id`]!)} = ${ref(ownerAlias, 'id')}`,
      };
    case 'morphTo':
      return {
        from: tableAs(related, rel),
        on: sql`${col(ownerAlias, owner.fields[`${relation.morph}_type`]!)} = ${target.morphType!} and ${ref(rel, 'id')} = ${col(ownerAlias, owner.fields[`${relation.morph}_id`]!)}`,
      };
  }
}

/** EXISTS a related row the caller may see (and that matches `conditions`). */
export function existsRelated(
  ctx: SqlContext,
  owner: Resource,
  ownerAlias: string,
  relation: Relation,
  targets: RelatedTarget[],
  conditions: Condition[],
  depth = 0,
): Fragment {
  return or(
    targets.map((target) => {
      const rel = ctx.nextAlias();
      const { from, on } = relationJoin(ctx, owner, ownerAlias, relation, target, rel);
      const where = and([
        on,
        ...baseConditions(ctx, target.resource, rel, depth),
        ...conditions.map((c) => compileCondition(ctx, target.resource, rel, c)),
      ]);
      return sql`exists (select 1 from ${from} where ${where})`;
    }),
  );
}

/** LIKE pattern for a substring search: the caller's % and _ are literal characters. */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (m) => `\\${m}`)}%`;
}

const SQL_OPERATORS: Record<string, string> = {
  '=': '=',
  '!=': '<>',
  '<': '<',
  '<=': '<=',
  '>': '>',
  '>=': '>=',
};

export function compileCondition(ctx: SqlContext, resource: Resource, alias: string, c: Condition): Fragment {
  const value = (field: Field) => fieldValue(alias, field, languageOf(ctx));
  switch (c.type) {
    case 'where': {
      const column = value(c.field);
      if (c.op === 'like') return sql`${column} ilike ${containsPattern(String(c.value))}`;
      return sql`${column} ${sql.raw(SQL_OPERATORS[c.op]!)} ${c.value}`;
    }
    case 'whereIn':
      if (c.values.length === 0) return sql`false`;
      return sql`${value(c.field)} in (${sql.join(c.values)})`;
    case 'whereNull':
      return sql`${value(c.field)} is null`;
    case 'whereNotNull':
      return sql`${value(c.field)} is not null`;
    case 'whereBetween':
      return sql`${value(c.field)} between ${c.from} and ${c.to}`;
    case 'whereHas':
      return existsRelated(ctx, resource, alias, c.relation, c.related, c.conditions);
    case 'doesntHave':
      return sql`not ${existsRelated(ctx, resource, alias, c.relation, c.related, [])}`;
    case 'search': {
      const pattern = containsPattern(c.text);
      return or(
        c.fields.map((f) => {
          const column =
            f.type === 'string' ? fieldValue(alias, f, languageOf(ctx)) : sql`${col(alias, f)}::text`;
          return sql`${column} ilike ${pattern}`;
        }),
      );
    }
    case 'customField': {
      const values = ctx.registry.require(CUSTOM_VALUES);
      const fields = ctx.registry.require(CUSTOM_FIELDS);
      const v = ctx.nextAlias();
      const f = ctx.nextAlias();
      const value = ref(v, values.fields.value!.column);
      const test =
        c.op === 'like'
          ? sql`${value} ilike ${containsPattern(c.value)}`
          : sql`${value} ${sql.raw(SQL_OPERATORS[c.op]!)} ${c.value}`;
      return sql`exists (select 1 from ${tableAs(values, v)} join ${tableAs(fields, f)} on ${ref(f, 'id')} = ${ref(v, 'custom_field_id')}
        where ${ref(v, 'tenant_id')} = ${ctx.auth.tenantId} and ${ref(f, 'name')} = ${c.name}
        and ${ref(v, 'morphable_type')} = ${resource.morphType!} and ${ref(v, 'morphable_id')} = ${ref(alias, 'id')} and ${test})`;
    }
  }
}

/** `t0.col as "field"` for every field the caller may read (translated ones in the caller's language). */
export function selectFields(ctx: SqlContext, alias: string, fields: Field[]): Fragment {
  return sql.join(fields.map((f) => sql`${fieldValue(alias, f, languageOf(ctx))} as ${sql.id(f.name)}`));
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
 */
export function toOneColumns(ctx: SqlContext, resource: Resource, alias: string, tree: WithTree): Fragment[] {
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
        const fields = unique([...readableFields(related, ctx.auth), ...keyFieldsFor(related, subtree)]);
        const columns = [selectFields(ctx, rel, fields), ...toOneColumns(ctx, related, rel, subtree)];
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
  const fields = unique([...readableFields(resource, ctx.auth), ...extraFields]);
  const count = countTable
    ? sql`select coalesce(sum(${ref(alias, 'n')}), 0)::int as total from ${sql.table(countTable)} as ${sql.id(alias)} where ${where}`
    : sql`select count(*)::int as total from ${tableAs(resource, alias)} where ${where}`;
  const columns = [
    selectFields(ctx, alias, fields),
    ...countSubqueries(ctx, resource, alias, query.withCount),
    ...toOneColumns(ctx, resource, alias, query.with),
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

export function unique<T>(items: T[]): T[] {
  return [...new Set(items)];
}

/**
 * The rows of `resource` a link holder sees, in place of the portal scope: the record, or the rows an
 * opened relation of the record (as the record's own conditions let it be seen) leads to.
 */
function recordLinkScope(ctx: SqlContext, resource: Resource, alias: string): RawBuilder<unknown> {
  const link = linkOf(ctx.auth);
  const record = link && ctx.registry.get(link.resource);
  if (!link || !record) return sql`false`;
  if (resource.name === record.name) return sql`${ref(alias, 'id')} = ${link.id}`;
  return or(
    openedTo(link, resource).map((relation) => {
      const owner = ctx.nextAlias();
      const { on } = relationJoin(ctx, record, owner, relation, { resource }, alias);
      const where = and([sql`${ref(owner, 'id')} = ${link.id}`, ...baseConditions(ctx, record, owner), on]);
      return sql`exists (select 1 from ${tableAs(record, owner)} where ${where})`;
    }),
  );
}
