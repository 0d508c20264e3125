/**
 * Which portal screens a client's company roles offer (issue 39), beyond its permissions: the menu
 * (src/authProvider canAccess) and the address guard (src/shell/guards.tsx) both ask portalOffers.
 */
import { roleNarrowed } from './schema/portal-resources.ts';
import type { PortalScope } from './schema/types.ts';
import { holdsAbility, type CompanyAbility, type UserPayload } from './user.ts';

/**
 * Whether the user's company roles let it see any row of a portal resource whose scope they narrow
 * (common/schema/portal-resources.ts roleNarrowed): in some company company-wide, or as its own where
 * the resource says what "own" is. A resource its roles reach nowhere (a member's invoices) is no screen
 * of the portal: no menu entry, no address. Other resources: yes. A payload stored before the roles
 * were told (no companies, or a company without `grants_all`) decides nothing: yes.
 */
export function rolesReach(
  user: Pick<UserPayload, 'companies'>,
  resource: { name: string; portal?: { scope: PortalScope; own?: PortalScope } },
): boolean {
  const portal = resource.portal;
  if (!portal || !roleNarrowed(portal.scope) || user.companies === undefined) return true;
  return user.companies.some(
    (c) =>
      // A company without its role's words (stored before the portal was told them): decides nothing.
      c.grants_all === undefined ||
      c.grants_all === true ||
      !!c.company_resources?.includes(resource.name) ||
      (portal.own !== undefined && !!c.own_resources?.includes(resource.name)),
  );
}

/**
 * Whether the portal offers a resource's screens to the user, beyond the permission: the company
 * role's ability the schema asks (`x-portal.ability`), and some reach of its roles (rolesReach). The menu
 * (canAccess) and the address guard both ask this.
 */
export function portalOffers(
  user: Pick<UserPayload, 'companies'>,
  resource: { name: string; portal?: { scope: PortalScope; own?: PortalScope; ability?: CompanyAbility } },
): boolean {
  return holdsAbility(user, resource.portal?.ability) && rolesReach(user, resource);
}
