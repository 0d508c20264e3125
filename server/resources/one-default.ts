import { sql } from 'kysely';
import type { OneDefault, Resource } from '../../common/schema/types.ts';
import type { HookContext, ResourceHooks } from './hook-contract.ts';

/**
 * x-one-default (schemas/README.md): the record just stored or updated with `field` set wins, and the
 * others of its `per` group lose it, in the same transaction (SPEC 4: only one view may be default).
 */
export function oneDefault(
  resource: Resource,
  { field, per }: OneDefault,
): Required<Pick<ResourceHooks, 'afterStore' | 'afterUpdate'>> {
  const flag = resource.fields[field]!.column;
  const groupBy = per.map((name) => resource.fields[name]!.column);
  async function clearOthers(id: number, { trx }: HookContext) {
    const table = sql.table(resource.table);
    const same = groupBy.map((c) => sql`o.${sql.ref(c)} is not distinct from me.${sql.ref(c)}`);
    await sql`update ${table} as o set ${sql.ref(flag)} = false
      from ${table} as me
      where me.id = ${id} and me.${sql.ref(flag)} and o.id <> me.id and o.tenant_id = me.tenant_id
      and ${sql.join(same, sql` and `)}`.execute(trx);
  }
  return { afterStore: clearOthers, afterUpdate: clearOthers };
}
