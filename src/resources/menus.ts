/**
 * Which resources have screens in which app: the portal's menu (SPEC 2) and whether a resource's
 * record has a detail route a link may point at. A leaf module: the resource table and the field
 * display both read it.
 */
import type { Resource } from '../../common/schema/types.ts';
import type { AppKind } from '../custom/appKind.ts';

/** The portal's menu, in the spec's order (SPEC 2 and issue 3). */
export const PORTAL_MENU = ['tickets', 'quotes', 'subscriptions', 'assets', 'contracts', 'invoices'];

/**
 * Whether the app has a /{resource}/{id} route for this resource: every back-office resource with the
 * show action, in the portal only the menu's (SPEC 2 lists the portal's routes).
 */
export function hasDetailRoute(resource: Resource, kind: AppKind): boolean {
  if (kind === 'backoffice') return resource.actions.includes('show');
  return PORTAL_MENU.includes(resource.name) && (resource.portal?.actions.includes('show') ?? false);
}
