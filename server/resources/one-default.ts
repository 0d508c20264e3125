import { sql } from 'kysely';
import type { HookContext, ResourceHooks } from './hook-contract.ts';

/**
 * Hooks that keep at most one record per group with `flag` true: the record just stored or updated
 * with the flag set wins, and the others of its group lose it, in the same transaction.
 */
export function oneDefault(flag: string, groupBy: string[]): ResourceHooks {
  async function clearOthers(id: number, { trx, resource }: HookContext) {
    const table = sql.table(resource.table);
    const same = groupBy.map((c) => sql`o.${sql.ref(c)} is not distinct from me.${sql.ref(c)}`);
    await sql`update ${table} as o set ${sql.ref(flag)} = false
      from ${table} as me
      where me.id = ${id} and me.${sql.ref(flag)} and o.id <> me.id and o.tenant_id = me.tenant_id
      and ${sql.join(same, sql` and `)}`.execute(trx);
  }
  return { afterStore: clearOthers, afterUpdate: clearOthers };
}
