import { sql } from 'kysely';
import type { Db } from '../database.ts';
import { registry as schemaRegistry, type Registry } from '../../schema/registry.ts';
import settings from './data/settings.json' with { type: 'json' };
import { REPORTS_PERMISSION } from '../../../common/reports.ts';
import { SERVICE_OVERVIEW_PERMISSION } from '../../../common/service-overview.ts';

/** Permissions of routes and calls that are not a resource action of a schema. */
export const EXTRA_PERMISSIONS = [
  'tenant.exports.index',
  REPORTS_PERMISSION,
  'portal.tickets.create',
  'portal.invoices.download',
  SERVICE_OVERVIEW_PERMISSION,
];

/** The roles every tenant starts with (settings.json): second line, first line, client. */
export const ROLE_NAMES = settings.roles.map((r) => r.name) as [string, string, string];

/**
 * Whether a tenant's starting role holds a permission by default (issue 6), by its index in ROLE_NAMES:
 * second line every tenant.* one; first line the daily work, not merges, overrides (closing a ticket
 * past its checklist), sharing (a team's macros), resetting another's two-factor sign-in, invoicing, the service reports, archiving or
 * deleting companies, nor changing the tenant's settings (`tenantSettings`, which it reads only); the
 * roles of clients every portal.* one but the service overview (SERVICE_OVERVIEW_PERMISSION): its SLA
 * figures are the provider's to show, so a provider grants it when it chooses to (the demo does).
 * A resource whose schema says `"x-first-line": false` (the audit log) is not first line's at all.
 */
export function startingRoleMay(role: number, name: string): boolean {
  const [area, resource, action] = name.split('.') as [string, string, string];
  if (role === 2) return area === 'portal' && name !== SERVICE_OVERVIEW_PERMISSION;
  if (area !== 'tenant') return false;
  if (role === 0) return true;
  if (schemaRegistry().get(resource)?.schema['x-first-line'] === false) return false;
  if (resource === 'invoices' || resource === 'invoice-lines' || resource === 'reports') return false;
  const withheld = ['invoice', 'deinvoice', 'merge', 'override', 'share', 'manage', 'reset-two-factor'];
  if (withheld.includes(action)) return false;
  if (resource === 'companies' && (action === 'archive' || action === 'destroy')) return false;
  if (settings.tenantSettings.includes(resource)) return action === 'index' || action === 'show';
  return true;
}

/**
 * Makes the permissions table hold every name the schemas define (plus the extra ones) and gives every
 * role with grants_all each tenant.* permission. Idempotent: it runs at every start, so a new schema or
 * action is granted to the all-powerful roles without a data migration.
 *
 * A permission that did not exist before (a new resource or action, issue 34) is granted as the seed
 * grants it on a fresh database: to each tenant's starting roles by their name (startingRoleMay).
 * Only then: a grant an admin took away later stays away, and a role an admin made, or renamed, gets
 * nothing unasked.
 */
export async function syncPermissions(db: Db, registry: Registry): Promise<void> {
  if (!db.isTransaction) {
    await db.transaction().execute((trx) => syncPermissions(trx, registry));
    return;
  }
  const names = [...new Set([...registry.permissionNames(), ...EXTRA_PERMISSIONS])].sort();
  // Only the rows this statement inserts come back: the permissions that are new.
  const added = await db
    .insertInto('permissions')
    .values(names.map((name) => ({ name })))
    .onConflict((oc) => oc.column('name').doNothing())
    .returning(['id', 'name'])
    .execute();
  if (added.length > 0) {
    const roles = await db
      .selectFrom('roles')
      .select(['id', 'name'])
      .where('name', 'in', ROLE_NAMES)
      .execute();
    const grants = roles.flatMap((role) => {
      const index = ROLE_NAMES.indexOf(String(role.name));
      return added
        .filter((p) => startingRoleMay(index, String(p.name)))
        .map((p) => ({ role_id: role.id, permission_id: p.id }));
    });
    if (grants.length > 0)
      await db
        .insertInto('permission_role')
        .values(grants)
        .onConflict((oc) => oc.doNothing())
        .execute();
  }
  await sql`
    insert into permission_role (role_id, permission_id)
    select r.id, p.id from roles r cross join permissions p
    where r.grants_all and p.name like 'tenant.%'
    on conflict do nothing`.execute(db);
}
