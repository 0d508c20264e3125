/**
 * What a schema cannot say, per resource: the hooks the resource folders give (folders.ts), with what a
 * schema declares about writes (x-one-default) added. The generic routes call them at fixed moments and
 * know no resource by name. The hooks' types are in hook-contract.ts.
 */
import type { Resource } from '../../common/schema/types.ts';
import type { RowPresenter } from '../query/relations.ts';
import type { PresentColumns } from '../query/sql.ts';
import type { HookContext, ResourceHooks, StoreContext } from './hook-contract.ts';
import { resourceFolders } from './folders.ts';
import { oneDefault } from './one-default.ts';

export interface HookTable {
  /** A resource's hooks: its folder's, then those its schema declares. */
  of(resource: Resource): ResourceHooks;
  /** The query builder's presenter (server/query/relations.ts): each resource's own `present` hook. */
  presentRows: RowPresenter;
  /** The columns the presenters read, selected with the rows (server/query/sql.ts `PresentColumns`). */
  presentColumns: PresentColumns;
}

/** Two hooks of one moment, one after the other. */
const both =
  <A extends unknown[]>(first?: (...args: A) => unknown, second?: (...args: A) => unknown) =>
  async (...args: A) => {
    await first?.(...args);
    await second?.(...args);
  };

function withDeclared(resource: Resource, hooks: ResourceHooks = {}): ResourceHooks {
  if (!resource.oneDefault) return hooks;
  const declared = oneDefault(resource, resource.oneDefault);
  return {
    ...hooks,
    afterStore: both<[number, StoreContext]>(hooks.afterStore, declared.afterStore),
    afterUpdate: both<[number, HookContext]>(hooks.afterUpdate, declared.afterUpdate),
  };
}

function build(given: Record<string, ResourceHooks>): HookTable {
  // Per Resource object: the tests build registries of their own, with resources of the same name.
  const built = new WeakMap<Resource, ResourceHooks>();
  const of = (resource: Resource): ResourceHooks => {
    let hooks = built.get(resource);
    if (!hooks) built.set(resource, (hooks = withDeclared(resource, given[resource.name])));
    return hooks;
  };
  return {
    of,
    presentRows: (rows, ctx) => of(ctx.resource).present?.(rows, ctx),
    presentColumns: (resource, alias, ctx) => of(resource).presentColumns?.(alias, ctx) ?? [],
  };
}

let table: HookTable | undefined;

/** The hook table, built on first use from the folders (scanned once per process). */
export async function hookTable(): Promise<HookTable> {
  table ??= build((await resourceFolders()).hooks);
  return table;
}
