import { sql } from 'kysely';
import type { Db } from '../database.ts';
import type { Registry } from '../../schema/registry.ts';

/** Permissions of routes and calls that are not a resource action of a schema. */
export const EXTRA_PERMISSIONS = [
  'tenant.exports.index',
  'portal.tickets.create',
  'portal.invoices.download',
];

/**
 * Makes the permissions table hold every name the schemas define (plus the extra ones) and gives every
 * role with grants_all each tenant.* permission. Idempotent: it runs at every start, so a new schema or
 * action is granted to the all-powerful roles without a data migration.
 */
export async function syncPermissions(db: Db, registry: Registry): Promise<void> {
  const names = [...new Set([...registry.permissionNames(), ...EXTRA_PERMISSIONS])].sort();
  await db
    .insertInto('permissions')
    .values(names.map((name) => ({ name })))
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
  await sql`
    insert into permission_role (role_id, permission_id)
    select r.id, p.id from roles r cross join permissions p
    where r.grants_all and p.name like 'tenant.%'
    on conflict do nothing`.execute(db);
}
