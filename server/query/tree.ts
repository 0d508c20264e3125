/**
 * The builder query as a typed tree. Every name in it has been checked against the schemas, and every
 * value converted to its field's type, before any SQL exists.
 */
import type { Direction, Field, Relation, Resource } from '../../common/schema/types.ts';

export const OPERATORS = ['=', '!=', '<', '<=', '>', '>=', 'like'] as const;
export type Operator = (typeof OPERATORS)[number];
export type Scalar = string | number | boolean;

export type Condition =
  | { type: 'where'; field: Field; op: Operator; value: Scalar }
  | { type: 'whereIn'; field: Field; values: Scalar[] }
  | { type: 'whereNull'; field: Field }
  | { type: 'whereNotNull'; field: Field }
  | { type: 'whereBetween'; field: Field; from: Scalar; to: Scalar }
  | { type: 'whereHas'; relation: Relation; related: RelatedTarget[]; conditions: Condition[] }
  | { type: 'doesntHave'; relation: Relation; related: RelatedTarget[] }
  | { type: 'customField'; name: string; op: Operator; value: string }
  | { type: 'search'; fields: Field[]; text: string };

/** The resource(s) a relation leads to: one, or one per type for a morphTo. */
export interface RelatedTarget {
  resource: Resource;
  /** morphTo only: the type value that selects this resource. */
  morphType?: string;
}

export interface Sort {
  field: Field;
  direction: Direction;
}

/** `withSum=timeRegistrations.time_spent`: the sum of a number field over a to-many relation. */
export interface RelationSum {
  relation: Relation;
  field: Field;
}

/** `with=deal.company` becomes { deal: { company: {} } }. */
export interface WithTree {
  [relation: string]: WithTree;
}

/** The builder item `select` on one level of a list (columns.ts): its own fields, and per loaded relation its own. */
export interface ColumnChoice {
  /** The names of the fields asked for on this level; undefined: every readable field. */
  fields?: Set<string>;
  with: Record<string, ColumnChoice>;
}

export interface ListQuery {
  conditions: Condition[];
  sort: Sort[];
  perPage: number;
  page: number;
  with: WithTree;
  withCount: Relation[];
  version?: number;
  /** The builder item `select`: the columns asked for (columns.ts); absent, every readable one. */
  columns?: ColumnChoice;
}
