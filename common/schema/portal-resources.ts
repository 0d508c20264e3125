/**
 * A field that holds a list of portal resource names (`"x-input": "portal-resources"`, issue 39's
 * company roles): which resources fit it is the field's `x-portal-resources`, read from the other
 * schemas, never a list kept here:
 *   company  portal resources whose x-portal scope narrows rows by a company field, or by the
 *            companies a record belongs to many of (what a company role can see company-wide);
 *   own      portal resources whose x-portal says what a client's own row is (`own`).
 * The back office's form offers exactly these by their translated names (src/custom/forms/
 * PortalResourcesInput.tsx), and the server refuses any other name (server/resources/company-roles/hooks.ts).
 */
import type { Field, PortalScope, Resource } from './types.ts';

export const PORTAL_RESOURCE_REACHES = ['company', 'own'] as const;
export type PortalResourceReach = (typeof PORTAL_RESOURCE_REACHES)[number];

/**
 * Whether a resource's portal scope narrows rows by a company field: its own field, or a relation scope
 * the company roles name the resource itself in (`byRole`: a contract is its companies'; the balance
 * alert reads `contracts` in a role). A child record reached through its parent (a quote line, a
 * ticket's time) follows the parent and is not named on its own.
 */
function byCompany(scope: PortalScope): boolean {
  if (typeof scope !== 'object') return false;
  if ('company' in scope) return true;
  if ('any' in scope) return scope.any.some((s) => typeof s === 'object' && 'company' in s);
  return 'relation' in scope && scope.byRole === true;
}

/**
 * Whether every row a client may see of a resource is decided by its company roles: a company scope, a
 * `byRole` relation scope, or alternatives that all are (not ticket shares, which a client also sees
 * as the sharer or the one shared with). Child records reached through their parent follow the parent.
 */
export function roleNarrowed(scope: PortalScope): boolean {
  if (typeof scope !== 'object') return false;
  if ('company' in scope) return true;
  if ('relation' in scope) return scope.byRole === true;
  if ('any' in scope) return scope.any.every(roleNarrowed);
  return false;
}

/** A resource by its name (the registry's `get`). */
type Lookup = (name: string) => Resource | undefined;

/** The reach a field's names must fit (`x-portal-resources`); undefined for a field of no such names. */
export function portalResourceReachOf(
  field: Pick<Field, 'name' | 'schema'>,
): PortalResourceReach | undefined {
  const raw = field.schema['x-portal-resources'];
  const input = field.schema['x-input'];
  if (raw === undefined && input !== 'portal-resources') return undefined;
  if (input !== 'portal-resources' || !PORTAL_RESOURCE_REACHES.includes(raw as PortalResourceReach))
    throw new Error(
      `field ${field.name}: x-input "portal-resources" and x-portal-resources (${PORTAL_RESOURCE_REACHES.join(', ')}) go together`,
    );
  return raw as PortalResourceReach;
}

/** Whether the resource of this name may be named in a field of this reach. */
export function fitsReach(reach: PortalResourceReach, name: string, resources: Lookup): boolean {
  const resource = resources(name);
  if (!resource?.portal) return false;
  return reach === 'company' ? byCompany(resource.portal.scope) : !!resource.portal.own;
}

/** The names a field of this reach may hold, in the registry's order. */
export function portalResourceChoices(
  registry: { resources: ReadonlyMap<string, Resource> },
  reach: PortalResourceReach,
): string[] {
  const lookup: Lookup = (name) => registry.resources.get(name);
  return [...registry.resources.keys()].filter((name) => fitsReach(reach, name, lookup));
}
