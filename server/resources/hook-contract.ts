/**
 * The contract between the generic routes and a resource's hooks (each resource folder's index gives
 * them; folders.ts finds them, hooks.ts builds the table). A leaf module: the per-resource hook files
 * import these types from here, not from the table (tests/unit/import-cycles.test.ts).
 */
import type { RawBuilder } from 'kysely';
import type { DbTransaction } from '../db/database.ts';
import type { AuthContext } from '../auth/context.ts';
import type { Resource } from '../../common/schema/types.ts';
import type { PresentContext, Row } from '../query/relations.ts';
import type { SqlContext } from '../query/sql.ts';
import type { CustomValueChange } from './custom-values.ts';

export type { PresentContext };

export interface HookContext {
  trx: DbTransaction;
  auth: AuthContext;
  resource: Resource;
  /** The x-flags an update's body carried (true or false); absent ones are not here. */
  flags?: Readonly<Record<string, boolean>>;
}

/** What `afterStore` gets besides the id: the row as the insert wrote it, defaults and all. */
export interface StoreContext extends HookContext {
  /** The insert's `returning *`: the hooks after it read what they need here, not in a statement of their own. */
  stored: Readonly<Record<string, unknown>>;
}

export interface ResourceHooks {
  /** Adjust the columns about to be inserted (values are already validated). */
  beforeStore?(row: Record<string, unknown>, ctx: HookContext): Promise<void> | void;
  /** Runs in the same transaction, right after the insert. */
  afterStore?(id: number, ctx: StoreContext): Promise<void> | void;
  beforeUpdate?(id: number, changes: Record<string, unknown>, ctx: HookContext): Promise<void> | void;
  /** Runs in the same transaction, right after the update. */
  afterUpdate?(id: number, ctx: HookContext): Promise<void> | void;
  /**
   * Runs in an update's transaction after its custom values (x-morph-type) are written, with those whose
   * value changed; not on a create, which changes nothing.
   */
  customValuesChanged?(id: number, changes: CustomValueChange[], ctx: HookContext): Promise<void> | void;
  /** Runs in the delete's transaction, before the row goes; throwing stops the delete. */
  beforeDestroy?(id: number, ctx: HookContext): Promise<void> | void;
  /**
   * Adds to rows about to be answered what the schema cannot say (computed fields). Runs on every
   * row read of the resource, top level or loaded through `with`, after the caller's filters.
   */
  present?(rows: Row[], ctx: PresentContext): Promise<void> | void;
  /**
   * What `present` will read about each row, as columns of the statement that reads the rows (`alias`):
   * `(select …) as "__name"`, so the presenter needs no statement of its own. `present` removes them,
   * and still reads on its own for rows that come without them (a to-one relation's JSON, a write).
   */
  presentColumns?(alias: string, ctx: SqlContext): RawBuilder<unknown>[];
}
