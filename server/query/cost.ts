/**
 * The cost of a parsed request against QUERY_COST's budget (./limits.ts says what a unit is). Works on
 * the typed tree, so it runs after every name has been checked and before any SQL exists.
 */
import { ValidationError } from '../http/errors.ts';
import type { Registry } from '../schema/registry.ts';
import type { Relation, Resource } from '../../common/schema/types.ts';
import { QUERY_COST } from './limits.ts';
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

/** `with`: every related row loaded, through every level (company.tickets reads 1 + 10 per row). */
export function withCost(registry: Registry, resource: Resource, tree: WithTree, rows = 1): number {
  let cost = 0;
  for (const [name, subtree] of Object.entries(tree)) {
    const relation = resource.relations[name]!;
    const reached = rows * fanOut(relation);
    cost += reached;
    // The parser lets only a one-target relation lead further.
    if (relation.kind !== 'morphTo')
      cost += withCost(registry, registry.require(relation.resource), subtree, reached);
  }
  return cost;
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
