/**
 * Typed tree -> one parameterised SQL statement. Identifiers come only from the registry (never from
 * the request: the parser has already swapped every client-supplied name for the registry's Field or
 * Relation object), and every value is a parameter. This module is the WHERE side (what every statement
 * adds, relations, builder conditions); the SELECT of a list is select.ts, the pieces fragments.ts.
 */
import { sql, type RawBuilder } from 'kysely';
import type { AuthContext } from '../auth/context.ts';
import { reachOf } from '../auth/company-roles.ts';
import type { Registry } from '../schema/registry.ts';
import type { Field, FixedCondition, PortalScope, Relation, Resource } from '../../common/schema/types.ts';
import type { Language } from '../../common/schema/types.ts';
import { isPortalCaller } from './visibility.ts';
import type { Condition, RelatedTarget } from './tree.ts';
import { linkOf, openedTo } from './record-link.ts';
import {
  and,
  col,
  containsPattern,
  fieldValue,
  or,
  ref,
  SQL_OPERATORS,
  tableAs,
  type Fragment,
} from './fragments.ts';

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

export const languageOf = (ctx: SqlContext): Language => ctx.auth.language ?? 'nl';
function fixed(resource: Resource, alias: string, conditions: FixedCondition[]): Fragment[] {
  return conditions.map(([name, op, value]) => {
    const c = col(alias, resource.fields[name]!);
    if (value === null) return op === '=' ? sql`${c} is null` : sql`${c} is not null`;
    return sql`${c} ${sql.raw(SQL_OPERATORS[op]!)} ${value}`;
  });
}

/**
 * What every statement on a resource adds, in this one place: the tenant, the resource's fixed
 * conditions (a view on a shared table), a personal row's owner (x-personal) or every row's (x-own-rows), and for portal callers the portal conditions and scope (for
 * a link to one record, what the link opens: query/record-link.ts).
 */
export function baseConditions(ctx: SqlContext, resource: Resource, alias: string, depth = 0): Fragment[] {
  const parts: Fragment[] = [];
  if (resource.tenant) parts.push(sql`${ref(alias, 'tenant_id')} = ${ctx.auth.tenantId}`);
  parts.push(...fixed(resource, alias, resource.fixedWhere));
  // A personal row (an operator's own macro) is its owner's alone: to anyone else it does not exist.
  if (resource.personal && resource.owner) {
    const owner = col(alias, resource.fields[resource.owner]!);
    parts.push(
      sql`(${col(alias, resource.fields[resource.personal]!)} = false or ${owner} = ${ctx.auth.userId ?? 0})`,
    );
  }
  // Rows that are their owner's alone unless the caller may see everyone's (x-own-rows: API tokens).
  if (
    resource.ownRows &&
    resource.owner &&
    !ctx.auth.permissions.has(`tenant.${resource.name}.${resource.ownRows}`)
  ) {
    parts.push(sql`${col(alias, resource.fields[resource.owner]!)} = ${ctx.auth.userId ?? 0}`);
  }
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
    // The client's role in each company says how much of it the client sees there (issue 39): all rows,
    // its own rows (the schema's x-portal.own), or none.
    const reach = reachOf(ctx.auth.companyRoles, resource.name);
    const column = col(alias, resource.fields[scope.company]!);
    const own = resource.portal?.own;
    return or([
      ...(reach.company.length ? [sql`${column} in (${sql.join(reach.company)})`] : []),
      ...(reach.own.length && own
        ? [and([sql`${column} in (${sql.join(reach.own)})`, portalScope(ctx, resource, alias, own, depth)])]
        : []),
    ]);
  }
  if ('user' in scope) {
    if (ctx.auth.userId === null) return sql`false`;
    return sql`${col(alias, resource.fields[scope.user]!)} = ${ctx.auth.userId}`;
  }
  if ('relation' in scope) {
    const relation = resource.relations[scope.relation]!;
    const targets = relatedTargets(ctx.registry, relation);
    return existsRelated(
      ctx,
      resource,
      alias,
      relation,
      targets,
      [...byRole(ctx, resource, scope, targets), ...whose(ctx, scope, targets)],
      depth + 1,
    );
  }
  // Fixed conditions as one alternative among others (a knowledge article for every client, or for
  // the chosen companies' clients): the same conditions as x-portal.where, inside the scope's `or`.
  if ('where' in scope) return and(fixed(resource, alias, scope.where));
  return or(scope.any.map((s) => portalScope(ctx, resource, alias, s, depth)));
}

/**
 * A `byRole` relation scope: the related record's company must be one whose role reaches this resource
 * company-wide (schema checks: the target has a `company` scope and the relation is not a morphTo).
 */
function byRole(
  ctx: SqlContext,
  resource: Resource,
  scope: { byRole?: boolean },
  targets: RelatedTarget[],
): Condition[] {
  if (!scope.byRole) return [];
  const target = targets[0]!.resource;
  const company = (target.portal!.scope as { company: string }).company;
  const values = reachOf(ctx.auth.companyRoles, resource.name).company;
  return [{ type: 'whereIn', field: target.fields[company]!, values }];
}

/** A `whose` relation scope: the related record's field names the client herself (schema checks: one target). */
function whose(ctx: SqlContext, scope: { whose?: string }, targets: RelatedTarget[]): Condition[] {
  if (!scope.whose) return [];
  const field = targets[0]!.resource.fields[scope.whose]!;
  return [{ type: 'where', field, op: '=', value: ctx.auth.userId ?? 0 }];
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
