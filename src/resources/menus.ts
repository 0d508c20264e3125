/**
 * Which resources each app's menu shows, in which group and order: read from the schemas' x-menu
 * (schemas/README.md). The back office lists every resource it can list, grouped (daily work, sales and
 * billing, settings); the portal only those whose x-menu names it. A leaf module: the resource table,
 * the menu and the field display all read it.
 */
import type { Registry } from '../../common/schema/registry.ts';
import { MENU_GROUPS, type MenuGroup, type Resource } from '../../common/schema/types.ts';
import type { AppKind } from '../custom/appKind.ts';

export interface MenuSection {
  /** The back office's group; undefined for the portal's one list. */
  group?: MenuGroup;
  resources: Resource[];
}

/** Ordered places first, smallest first; then the rest in the registry's (file name) order. */
function byOrder(kind: AppKind) {
  return (a: Resource, b: Resource) =>
    (a.menu[kind]?.order ?? Number.POSITIVE_INFINITY) - (b.menu[kind]?.order ?? Number.POSITIVE_INFINITY);
}

/** Whether the resource has a place in the app's menu (and so its screens). */
export function inMenu(resource: Resource, kind: AppKind): boolean {
  return kind === 'backoffice' || resource.menu.portal !== undefined;
}

/** The app's menu: the portal's one section, the back office's groups in order (empty ones left out). */
export function menuSections(registry: Registry, kind: AppKind): MenuSection[] {
  const all = [...registry.resources.values()].filter((r) => inMenu(r, kind)).sort(byOrder(kind));
  if (kind === 'portal') return [{ resources: all }];
  return MENU_GROUPS.map((group) => ({
    group,
    resources: all.filter((r) => (r.menu.backoffice?.group ?? 'settings') === group),
  })).filter((section) => section.resources.length > 0);
}

/** The resources of the app's menu, in menu order. */
export function menuResources(registry: Registry, kind: AppKind): Resource[] {
  return menuSections(registry, kind).flatMap((section) => section.resources);
}

/**
 * Whether the app has a /{resource}/{id} route for this resource: every back-office resource with the
 * show action, in the portal only the menu's (SPEC 2 lists the portal's routes).
 */
export function hasDetailRoute(resource: Resource, kind: AppKind): boolean {
  if (kind === 'backoffice') return resource.actions.includes('show');
  return inMenu(resource, kind) && (resource.portal?.actions.includes('show') ?? false);
}
