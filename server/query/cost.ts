/**
 * The cost of a parsed request against QUERY_COST's budget (./limits.ts says what a unit is). Works on
 * the typed tree, so it runs after every name has been checked and before any SQL exists.
 */
import { ValidationError } from '../http/errors.ts';
import type { Registry } from '../schema/registry.ts';
import type { Relation, Resource } from '../../common/schema/types.ts';
import { QUERY_COST, WITH_LIMITS } from './limits.ts';
import type { Condition, RelationSum, WithTree } from './tree.ts';
import { serverText } from '../../common/server-texts.ts';

/** Rows one owning row leads to through a relation, over all its targets (a morphTo has several). */
export function fanOut(relation: Relation): number {
  switch (relation.kind) {
    case 'belongsTo':
      return 1;
    case 'morphTo':
      return Object.keys(relation.types).length;
    default:
      return QUERY_COST.toMany;
  }
}

export function conditionCost(condition: Condition): number {
  switch (condition.type) {
    case 'whereHas':
      return fanOut(condition.relation) * (1 + conditionsCost(condition.conditions));
    case 'doesntHave':
      return fanOut(condition.relation);
    case 'search':
      return QUERY_COST.searchColumn * condition.fields.length;
    case 'customField':
      // A lookup in the record's custom values: a to-many relation with one condition.
      return QUERY_COST.toMany * (1 + QUERY_COST.condition);
    default:
      return QUERY_COST.condition;
  }
}

export function conditionsCost(conditions: Condition[]): number {
  return conditions.reduce((sum, c) => sum + conditionCost(c), 0);
}

/** Rows one record leads to through a relation `with` loads: to-one 1, to-many its SQL cap. */
function withFanOut(relation: Relation): number {
  return relation.kind === 'belongsTo' || relation.kind === 'morphTo' ? 1 : WITH_LIMITS.perRecord;
}

/**
 * `with`: the rows it can load for `records` records, through every level: each level's rows times its
 * fan-out (company.tickets.messages for a page of 100: 100 companies, 10,000 tickets, 1,000,000 messages).
 */
export function withRows(registry: Registry, resource: Resource, tree: WithTree, records = 1): number {
  let rows = 0;
  for (const [name, subtree] of Object.entries(tree)) {
    const relation = resource.relations[name]!;
    const reached = records * withFanOut(relation);
    rows += reached;
    // The parser lets only a one-target relation lead further.
    if (relation.kind !== 'morphTo')
      rows += withRows(registry, registry.require(relation.resource), subtree, reached);
  }
  return rows;
}

/** The paths a tree names, as the caller wrote them (`company.tickets.messages`). */
export function withPaths(tree: WithTree, prefix = ''): string[] {
  return Object.entries(tree).flatMap(([name, subtree]) => {
    const path = prefix + name;
    return Object.keys(subtree).length ? withPaths(subtree, `${path}.`) : [path];
  });
}

/** A 422 under `with`, naming the relations and the limit, when they can load more than WITH_LIMITS.rows. */
export function checkWithRows(registry: Registry, resource: Resource, tree: WithTree, records: number): void {
  const rows = withRows(registry, resource, tree, records);
  if (rows <= WITH_LIMITS.rows) return;
  throw new ValidationError({
    with: [
      serverText('with_too_many_rows', {
        name: withPaths(tree).join(', '),
        count: rows,
        budget: WITH_LIMITS.rows,
        max: WITH_LIMITS.perRecord,
      }),
    ],
  });
}

/** withCount and withSum: every related row of each row, counted or summed. */
export function aggregatesCost(relations: (Relation | RelationSum)[]): number {
  return relations.reduce((sum, r) => sum + fanOut('relation' in r ? r.relation : r), 0);
}

/** A preset-count call: one count statement per preset, each with its own conditions. */
export function presetsCost(presets: Condition[][]): number {
  return presets.reduce((sum, conditions) => sum + QUERY_COST.statement + conditionsCost(conditions), 0);
}

/** A 422 under `key` when a request costs more than the budget. */
export function checkBudget(cost: number, key: string): void {
  if (cost <= QUERY_COST.budget) return;
  throw new ValidationError({
    [key]: [serverText('query_too_expensive', { cost, budget: QUERY_COST.budget })],
  });
}
