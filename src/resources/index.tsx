/**
 * React-admin resources built from the schemas: every resource gets the generic list, detail and
 * create screens, as its actions and the caller's app allow. Per-resource screens, when a resource
 * needs one, live in src/resources/<name>/ and reach this module through `overrides`.
 */
import type { ComponentType, ReactElement } from 'react';
import { Resource, ResourceContextProvider } from 'react-admin';
import { Navigate, Route, useParams } from 'react-router-dom';
import type { Registry } from '../../common/schema/registry.ts';
import type { AppKind } from '../custom/appKind.ts';
import { lazyWithTimeout } from '../shell/lazy.ts';
import { iconNamed } from './icons.ts';
import { overrides } from './override-contract.ts';
import { inMenu, menuResources } from './menus.ts';
import {
  CreateScreen,
  genericDetail,
  labelOf,
  preload,
  preloadDetail,
  screensOf,
} from './screens/generic.ts';
// Every screen is a lazy chunk, the list too: a first visit opens on the login page, which needs none of
// the list's code (its table, filters, column dialogs). Where the list is next, it downloads ahead
// (`preloadScreen`, `preloadList`), beside the status call or while the login form is filled in.
const ListScreen = lazyWithTimeout(() => import('./screens/ListPage.tsx'));

/** Starts the list screen's download (it is one screen for every resource). */
export const preloadList = (): void => ListScreen.preload();

/** /{resource}/{id} of a record whose detail lives at a path of its own (overrides' `path`). */
function ToOwnPath({ path }: { path: string }) {
  const { id } = useParams<{ id: string }>();
  return <Navigate replace to={`/${path}/${encodeURIComponent(id ?? '')}`} />;
}

/**
 * Starts fetching the lazy screen of an app path ('/quotes/12': the quote's detail, '/tickets' or '/':
 * the list) ahead of rendering it, so its chunk loads while the guards wait for the status call instead
 * of after it.
 */
export function preloadScreen(registry: Registry, kind: AppKind, path: string): void {
  const [name, id, ...rest] = path.split('/').filter(Boolean);
  // The app's home opens the first menu entry's list.
  if (!name) return preloadList();
  const resource = registry.get(name);
  if (!resource || rest.length > 0) return;
  if (!id) {
    const own = overrides[kind][resource.name]?.list;
    if (!screensOf(resource, kind, true).list) return;
    if (own) preload(own);
    else preloadList();
    return;
  }
  const screens = screensOf(resource, kind, true);
  if (id === 'create') {
    if (screens.create) preload(overrides[kind][resource.name]?.create ?? CreateScreen);
    return;
  }
  if (screens.detail) preloadDetail(resource, kind);
}

/**
 * The resources of an app, each with the screens its schema gives it there. A path under a resource that
 * names no screen of it shows `notFound` (the app's catch-all page): react-admin matches `/{resource}/*`
 * for every resource, also one registered only for references (a portal's `/companies`), and renders
 * nothing where none of its routes matches, a blank page. `:id/*` catches a path below a record
 * (`/tickets/12/x`) before the list's own `/*` would show the list there.
 */
export function buildResources(registry: Registry, kind: AppKind, notFound?: ComponentType): ReactElement[] {
  const all = [...registry.resources.values()];
  const NotFoundScreen = notFound;
  const unknownPaths = (hasList: boolean) =>
    NotFoundScreen && [
      <Route key="not-found-below-record" path=":id/*" element={<NotFoundScreen />} />,
      ...(hasList ? [] : [<Route key="not-found" path="*" element={<NotFoundScreen />} />]),
    ];
  // Registered in menu order: react-admin's default menu and the back office's grouped one follow it.
  const menu = menuResources(registry, kind);
  const rest = all.filter((r) => !inMenu(r, kind) && r.portal);
  return [
    ...menu.map((resource) => {
      const screens = screensOf(resource, kind, true);
      const own = overrides[kind][resource.name] ?? {};
      const Detail = own.detail ?? genericDetail(resource, kind);
      // Details of other resources that the spec places under this one's path (tickets/templates/{id}).
      const guests = menu.filter(
        (r) =>
          overrides[kind][r.name]?.path?.split('/')[0] === resource.name && screensOf(r, kind, true).detail,
      );
      return (
        <Resource
          key={resource.name}
          name={resource.name}
          list={screens.list ? (own.list ?? ListScreen) : undefined}
          create={screens.create ? (own.create ?? CreateScreen) : undefined}
          icon={iconNamed(resource.icon)}
          recordRepresentation={labelOf(resource, kind)}
        >
          {/* The detail lives at /{resource}/{id} (SPEC 2), guarded by 'show'; it edits in place. */}
          {screens.detail && (
            <Route path=":id" element={own.path ? <ToOwnPath path={own.path} /> : <Detail />} />
          )}
          {guests.map((guest) => {
            const GuestDetail = overrides[kind][guest.name]?.detail ?? genericDetail(guest, kind);
            const under = overrides[kind][guest.name]!.path!.split('/').slice(1).join('/');
            return (
              <Route
                key={guest.name}
                path={`${under}/:id`}
                element={
                  <ResourceContextProvider value={guest.name}>
                    <GuestDetail />
                  </ResourceContextProvider>
                }
              />
            );
          })}
          {unknownPaths(screens.list)}
        </Resource>
      );
    }),
    // Readable for references (status names, company names) without a screen of their own.
    ...rest.map((resource) => (
      <Resource key={resource.name} name={resource.name} recordRepresentation={labelOf(resource, kind)}>
        {unknownPaths(false)}
      </Resource>
    )),
  ];
}
