/**
 * The generic detail and create screens as lazy chunks, and what a resource offers in an app: shared by
 * the routes (../index.tsx) and the list, which starts a row's detail ahead (ListPage.tsx). A module of
 * its own so that the list, a lazy chunk of ../index.tsx, need not import that module back.
 */
import type { Resource as SchemaResource } from '../../../common/schema/types.ts';
import type { AppKind } from '../../custom/appKind.ts';
import { lazyWithTimeout } from '../../shell/lazy.ts';
import { overrides } from '../override-contract.ts';

const DetailScreen = lazyWithTimeout(() => import('../../custom/detail/DetailScreen.tsx'));
export const CreateScreen = lazyWithTimeout(() => import('../../custom/detail/CreateScreen.tsx'));
const DetailWithTabs = lazyWithTimeout(() => import('../../custom/tabs/DetailWithTabs.tsx'));

/** The generic detail; in the back office with the tab bar of the schema's x-tabs where it has some. */
export function genericDetail(resource: SchemaResource, kind: AppKind) {
  return kind === 'backoffice' && resource.tabs.length > 0 ? DetailWithTabs : DetailScreen;
}

/** What a resource offers in an app: the routes exist only where the schema has the action. */
export function screensOf(resource: SchemaResource, kind: AppKind, inMenu: boolean) {
  const actions = kind === 'portal' ? (resource.portal?.actions ?? []) : resource.actions;
  return {
    list: inMenu && actions.includes('index'),
    detail: inMenu && actions.includes('show'),
    create: inMenu && actions.includes('store'),
  };
}

/** The field that names a record: clients may have a label of their own (x-portal.label). */
export function labelOf(resource: SchemaResource, kind: AppKind): string {
  return kind === 'portal' ? (resource.portal?.label ?? resource.label) : resource.label;
}

export const preload = (screen: unknown) => (screen as { preload?: () => void } | undefined)?.preload?.();

/**
 * Starts fetching a record's detail screen of `resource` and the resource's own parts in its header
 * (actions, summary, panel): the detail shows once all have loaded (DetailScreen), so they load side by side
 * instead of one after the other. The list starts them for its rows, before one is opened.
 */
export function preloadDetail(resource: SchemaResource, kind: AppKind): void {
  const own = overrides[kind][resource.name] ?? {};
  preload(own.detail ?? genericDetail(resource, kind));
  preload(own.actions);
  preload(own.summary);
  preload(own.panel);
}
