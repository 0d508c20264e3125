/**
 * Exact totals from summary tables. A table `<table>_counts` or `<table>_counts_<name>` (a migration
 * creates it and a trigger keeps it exact in the same transaction as every write) holds `n`, the number
 * of rows per combination of a few of the table's columns. A count whose every condition tests only
 * those columns is the sum of `n` over the matching summary rows: the same WHERE, on the same alias,
 * over a much smaller table. Of several that could answer, the smallest does.
 */
import { sql } from 'kysely';
import type { AuthContext } from '../auth/context.ts';
import type { Db } from '../db/database.ts';
import type { Field, FixedCondition, PortalScope, Resource } from '../../common/schema/types.ts';
import { isPortalCaller } from './visibility.ts';
import { reachOf } from '../auth/company-roles.ts';
import type { Condition } from './tree.ts';

export interface CountTable {
  table: string;
  /** The columns it is grouped by. */
  columns: Set<string>;
}

const found = new WeakMap<Db, Promise<Map<string, CountTable[]>>>();

/**
 * The summary tables of the current schema by the table they summarise (`<table>_counts` or
 * `<table>_counts_<name>`), smallest first by the planner's row estimate; looked up once per handle.
 */
export function countTables(db: Db): Promise<Map<string, CountTable[]>> {
  let pending = found.get(db);
  if (!pending) {
    pending = sql<{ table_name: string; columns: string[]; estimate: number }>`
      select c.table_name, array_agg(c.column_name::text) as columns, max(coalesce(k.reltuples, 0)) as estimate
      from information_schema.columns c
      left join pg_class k on k.relname = c.table_name and k.relnamespace = current_schema()::regnamespace
      where c.table_schema = current_schema() and c.table_name like '%\_counts%'
      group by c.table_name order by max(coalesce(k.reltuples, 0)), c.table_name`
      .execute(db)
      .then(({ rows }) => {
        const out = new Map<string, CountTable[]>();
        for (const { table_name, columns } of rows) {
          const match = /^(.+)_counts(?:_[a-z0-9_]+)?$/.exec(table_name);
          if (!match || !columns.includes('n')) continue;
          const list = out.get(match[1]!) ?? [];
          list.push({ table: table_name, columns: new Set(columns.filter((c) => c !== 'n')) });
          out.set(match[1]!, list);
        }
        return out;
      });
    // A failed lookup is tried again next time rather than remembered.
    pending.catch(() => found.delete(db));
    found.set(db, pending);
  }
  return pending;
}

/** Conditions that compare a column of the row with values, nothing else (no other table, no id). */
function columnOnly(c: Condition, covered: (f: Field) => boolean): boolean {
  switch (c.type) {
    case 'where':
    case 'whereIn':
    case 'whereNull':
    case 'whereNotNull':
    case 'whereBetween':
      return covered(c.field);
    default:
      return false;
  }
}

function scopeCovered(resource: Resource, scope: PortalScope, covered: (f: Field) => boolean): boolean {
  if (scope === 'tenant') return true;
  if ('company' in scope) return covered(resource.fields[scope.company]!);
  if ('user' in scope) return covered(resource.fields[scope.user]!);
  if ('where' in scope) return scope.where.every(([name]) => covered(resource.fields[name]!));
  if ('any' in scope) return scope.any.every((s) => scopeCovered(resource, s, covered));
  return false;
}

/**
 * Whether the summary table can answer a count of `resource` for this caller with these conditions:
 * the tenant, the resource's fixed conditions, the portal's conditions and scope, and the query's own
 * conditions must all test summary columns only.
 */
export function countTableCovers(
  counts: CountTable,
  resource: Resource,
  auth: AuthContext,
  conditions: Condition[],
): boolean {
  if (auth.kind === 'record-token') return false;
  const covered = (f: Field) => counts.columns.has(f.column);
  const fixedCovered = (list: FixedCondition[]) => list.every(([name]) => covered(resource.fields[name]!));
  if (resource.tenant && !counts.columns.has('tenant_id')) return false;
  if (!fixedCovered(resource.fixedWhere)) return false;
  if (isPortalCaller(auth)) {
    if (!resource.portal) return false;
    if (!fixedCovered(resource.portal.where) || !scopeCovered(resource, resource.portal.scope, covered))
      return false;
    // A company role that sees the resource only as its own (issue 39) tests what x-portal.own says too.
    const own = resource.portal.own;
    if (own && reachOf(auth.companyRoles, resource.name).own.length && !scopeCovered(resource, own, covered))
      return false;
  }
  return conditions.every((c) => columnOnly(c, covered));
}
