/**
 * The portal's route guards (SPEC 2, "Route guards, in order"), run before react-admin renders a route:
 *
 * 1. GET /api/system/status first; setup not completed → the setup page.
 * 2. A `token` in the query string is stored as the quote token (APP_QUOTE_TOKEN) and removed from the URL.
 * 3. The trial has ended (`trial_ends_in` below 0), or neither a quote token nor a portal token is
 *    stored → login; without a session the login address names the page asked for (`?next=`), where
 *    the login returns to (./returnTo.ts).
 * 4. The current user is loaded (GET /api/auth/me, once per access token); the route name must be a
 *    permission the user holds (`portal.<route name>`), and where the resource's `x-portal.ability` names a
 *    company role's ability (issue 39), one of the user's companies must grant it; else the 403 page with the attempted path and
 *    the route name as query `r`. A quote link's holder (no user) may open detail routes of the kind of
 *    record a link opens only: the record token decides which record (docs/decisions.md, "A quote link
 *    is a record token"; ../authProvider/quoteLink.ts).
 * 5. Loading the user fails → the session is cleared and the user goes to login (naming the page, as in 3).
 * 6. The status call answers 404 (no such tenant) → the browser goes to the not-found address with the
 *    subdomain as `d`; the address is `VITE_NOT_FOUND_URL` at build time, by default our own page.
 *
 * Guards 1 and 6 hold for every page but the setup and not-found pages themselves; guards 2 to 5 only
 * for the routes that need a session. Only paths whose first segment names a resource are checked
 * against a permission (guard 4): any other path is the 'Page not found' catch-all.
 */
import {
  Fragment,
  Suspense,
  useEffect,
  useState,
  type ComponentType,
  type ReactElement,
  type ReactNode,
} from 'react';
import { CustomRoutes } from 'react-admin';
import { Route, useLocation, useNavigate } from 'react-router-dom';
import { quoteLinkAllows } from '../authProvider/quoteLink.ts';
import {
  APP_PORTAL_TOKEN,
  APP_QUOTE_PATH,
  APP_QUOTE_TOKEN,
  clearSession,
  getItem,
  getUser,
  userAnsweredAtLogin,
  setItem,
  type SessionUser,
} from '../dataProvider/storage.ts';
import { registry } from '../schema.ts';
import { portalOffers } from '../../common/portal-offers.ts';
import { preloadScreen } from '../resources/index.tsx';
import { setFlash } from './flash.ts';
import { Waiting } from './Waiting.tsx';
import { lazyWithTimeout } from './lazy.ts';
import { loginPath } from './returnTo.ts';
import { routeNameOf } from './routes.ts';
import { loadStatusAnswer, type StatusAnswer } from './systemStatus.ts';

/** Where the browser goes when this portal (tenant) does not exist (guard 6). */
export const NOT_FOUND_URL: string =
  (import.meta.env.VITE_NOT_FOUND_URL as string | undefined) || '/app/not-found';

/** Pages of the portal, inside its basename, that the guards send to. */
export const PORTAL_PAGES = {
  login: '/login',
  setup: '/setup',
  forbidden: '/403',
  notFound: '/not-found',
} as const;

/** Pages that need no session (SPEC 2, unauthenticated routes, plus our own setup and not-found pages). */
const PUBLIC_PATHS = [
  /^\/login(\/[^/]*)?$/,
  /^\/password-reset$/,
  /^\/password\/reset\/[^/]+$/,
  // The satisfaction survey's link (issue 39): its token is the key, no login.
  /^\/survey\/[^/]+$/,
  /^\/msgraph\/code(\/[^/]+)?$/,
  /^\/sso\/callback$/,
  /^\/setup$/,
  /^\/not-found$/,
];

/** Pages the status guards (1 and 6) leave alone: they are where those guards send to. */
const STATUS_PAGES = [/^\/setup$/, /^\/not-found$/];

// The one status call of a page load, shared with the page title (./systemStatus.ts).
export { loadStatusAnswer, type StatusAnswer } from './systemStatus.ts';

/** The subdomain of this page's host ('acme' of acme.example.com), or '' on a bare host. */
export function subdomainOf(hostname: string): string {
  const labels = hostname.toLowerCase().replace(/\.$/, '').split('.');
  if (/^\d+$/.test(labels[labels.length - 1] ?? '')) return '';
  const hasSubdomain = labels.length >= 3 || (labels.length === 2 && labels[1] === 'localhost');
  return hasSubdomain && labels[0] !== 'www' ? labels[0]! : '';
}

export function notFoundAddress(hostname: string, base = NOT_FOUND_URL): string {
  const join = base.includes('?') ? '&' : '?';
  return `${base}${join}d=${encodeURIComponent(subdomainOf(hostname))}`;
}

/** The user of the stored access token, as GET /api/auth/me answers it: ok, failed, or not asked yet. */
export type UserAnswer = { ok: true; user: SessionUser } | { ok: false };

export interface GuardInput {
  /** The path inside the portal's basename: '/tickets/12'. */
  path: string;
  /** The portal's basename ('/app'): the 403 page shows the attempted address in full. */
  basename?: string;
  search: string;
  status: StatusAnswer | undefined;
  portalToken: string | null;
  quoteToken: string | null;
  /** The answer for `portalToken`; undefined while not loaded. */
  user: UserAnswer | undefined;
}

export type Verdict =
  | { kind: 'pass' }
  /** Not decided yet: the status or the user is on its way. */
  | { kind: 'wait'; needUser: boolean }
  | { kind: 'store-token'; token: string; to: string }
  | { kind: 'navigate'; to: string; flash?: string; logout?: boolean }
  | { kind: 'assign'; url: string };

/** The guards as one pure function: what to do with a path, given what is known. */
export function decide(input: GuardInput, hostname: string): Verdict {
  const { path, status } = input;
  const statusPage = STATUS_PAGES.some((p) => p.test(path));
  // (1) and (6): the status first, for every page.
  if (!statusPage) {
    if (!status) return { kind: 'wait', needUser: false };
    if (status.state === 'not-found') return { kind: 'assign', url: notFoundAddress(hostname) };
    if (status.state === 'ok' && !status.status.setup_completed) {
      return { kind: 'navigate', to: PORTAL_PAGES.setup };
    }
  }
  if (PUBLIC_PATHS.some((p) => p.test(path))) return { kind: 'pass' };

  // (2) A quote link's token: stored, and the address without it.
  const query = new URLSearchParams(input.search);
  const token = query.get('token');
  if (token) {
    query.delete('token');
    const rest = query.toString();
    return { kind: 'store-token', token, to: `${path}${rest ? `?${rest}` : ''}` };
  }

  // (3) Trial ended, or no session of any kind.
  const trial = status?.state === 'ok' ? status.status.trial_ends_in : null;
  if (typeof trial === 'number' && trial < 0) {
    return { kind: 'navigate', to: PORTAL_PAGES.login, flash: 'app.auth.trial_ended' };
  }
  const backHere = loginPath('portal', `${path}${input.search}`);
  if (!input.portalToken && !input.quoteToken) return { kind: 'navigate', to: backHere };

  // (4) The route name must be a permission held. Paths that name no resource are the 404 page's.
  const name = routeNameOf(path);
  const resource = name?.split('.')[0];
  if (!name || !resource || !registry.resources.has(resource)) return { kind: 'pass' };
  const forbidden = {
    kind: 'navigate' as const,
    to: `${PORTAL_PAGES.forbidden}?${new URLSearchParams({ path: `${input.basename ?? ''}${path}${input.search}`, r: name })}`,
  };
  if (!input.portalToken) {
    // A quote link's holder opens the kind of record a link opens, one at a time: no list, no other page.
    return quoteLinkAllows(resource, name.split('.')[1]!) ? { kind: 'pass' } : forbidden;
  }
  if (!input.user) return { kind: 'wait', needUser: true };
  // (5) The user could not be loaded: logged out, to login.
  if (!input.user.ok) return { kind: 'navigate', to: backHere, logout: true };
  // Route names are permission names as they are: 'tickets.create' needs 'portal.tickets.create'; a
  // resource whose screens need a company role's ability (x-portal.ability) needs it in one company,
  // and one the company roles narrow needs some reach of them (common/user.ts portalOffers).
  const user = input.user.user;
  const schema = registry.get(resource);
  return user.permissions_names.includes(`portal.${name}`) && (!schema || portalOffers(user, schema))
    ? { kind: 'pass' }
    : forbidden;
}

/**
 * Guard 4 in the back office: a resource route (list, detail, create) needs the permission of the API
 * action behind it (`tenant.<resource>.index`, `.show`, `.store`: the detail edits in place, its Edit
 * button asks for `.update` itself), else the 403 page with the attempted path and the route name as
 * `r`, as in the portal. Without a stored user react-admin's own check sends to login first.
 * Returns where to go, or undefined when the route may open.
 */
export function backofficeForbidden(
  path: string,
  search: string,
  user: Pick<SessionUser, 'permissions_names'> | undefined,
): string | undefined {
  const name = routeNameOf(path);
  const [resource, action] = name?.split('.') ?? [];
  if (!name || !resource || !action || !user || !registry.resources.has(resource)) return undefined;
  const apiAction = action === 'create' ? 'store' : action;
  if (user.permissions_names.includes(`tenant.${resource}.${apiAction}`)) return undefined;
  return `${PORTAL_PAGES.forbidden}?${new URLSearchParams({ path: `${path}${search}`, r: name })}`;
}

/** The back office's guard 4 on every change of address (the other guards are the portal's). */
export function BackofficeGuards({ children }: { children: ReactNode }) {
  const location = useLocation();
  const navigate = useNavigate();
  // The first screen's code downloads beside react-admin's own start, not after it.
  useState(() => preloadScreen(registry, 'backoffice', location.pathname));
  const to = backofficeForbidden(location.pathname, location.search, getUser());
  useEffect(() => {
    if (to) navigate(to, { replace: true });
  }, [to, navigate]);
  return to ? <Waiting /> : children;
}

/**
 * Whether a loaded user still answers for the session: a success as long as the same user is logged in
 * (the access token itself changes at every refresh), a failure only for the token it failed with.
 */
function isCurrent(loaded: { token: string; answer: UserAnswer }, portalToken: string | null): boolean {
  if (!portalToken) return false;
  if (!loaded.answer.ok) return loaded.token === portalToken;
  return getUser()?.id === loaded.answer.user.id;
}

export interface PortalGuardsProps {
  /** The portal's basename: '/app'. */
  basename: string;
  /** GET /api/auth/me through the app's data provider (the user is stored again). */
  loadUser: () => Promise<{ user: SessionUser }>;
  children: ReactNode;
}

/** Runs the guards on every change of address; renders the app only when they let the route pass. */
export function PortalGuards({ basename, loadUser, children }: PortalGuardsProps) {
  const location = useLocation();
  const navigate = useNavigate();
  const [status, setStatus] = useState<StatusAnswer | undefined>();
  const [user, setUserAnswer] = useState<{ token: string; answer: UserAnswer } | undefined>();
  // The screen asked for downloads while the status call is under way, not after it.
  useState(() => preloadScreen(registry, 'portal', location.pathname.slice(basename.length)));

  useEffect(() => {
    let live = true;
    void loadStatusAnswer().then((answer) => live && setStatus(answer));
    return () => {
      live = false;
    };
  }, []);

  const path = location.pathname.startsWith(basename)
    ? location.pathname.slice(basename.length) || '/'
    : location.pathname;
  const portalToken = getItem(APP_PORTAL_TOKEN);
  // Right after this page's login the user is known from its answer: no GET /auth/me before the screen.
  const answered = userAnsweredAtLogin(portalToken);
  const verdict = decide(
    {
      path,
      basename,
      search: location.search,
      status,
      portalToken,
      quoteToken: getItem(APP_QUOTE_TOKEN),
      user: answered
        ? { ok: true, user: answered }
        : user && isCurrent(user, portalToken)
          ? user.answer
          : undefined,
    },
    window.location.hostname,
  );
  const needUser = verdict.kind === 'wait' && verdict.needUser;
  const key = JSON.stringify(verdict);

  useEffect(() => {
    if (!needUser || !portalToken) return;
    let live = true;
    loadUser().then(
      ({ user: loaded }) => live && setUserAnswer({ token: portalToken, answer: { ok: true, user: loaded } }),
      () => live && setUserAnswer({ token: portalToken, answer: { ok: false } }),
    );
    return () => {
      live = false;
    };
  }, [needUser, portalToken, loadUser]);

  useEffect(() => {
    const v = JSON.parse(key) as Verdict;
    if (v.kind === 'assign') window.location.assign(v.url);
    if (v.kind === 'store-token') {
      setItem(APP_QUOTE_TOKEN, v.token);
      // The 403 page leads a link's holder back here (../authProvider/quoteLink.ts).
      setItem(APP_QUOTE_PATH, v.to);
      navigate(`${basename}${v.to}`, { replace: true });
    }
    if (v.kind === 'navigate') {
      if (v.logout) clearSession();
      if (v.flash) setFlash(v.flash);
      navigate(`${basename}${v.to}`, { replace: true });
    }
  }, [key, basename, navigate]);

  // react-admin starts afresh for each user who logs in on this page: its query cache still holds the
  // answers of before the login (a failed checkAuth on the single sign-on page, no permissions), which
  // it would act on at once (a logout) now that the login's own answer lets the route open without
  // waiting for GET /auth/me. A token refresh keeps the user, and the app stays as it is.
  const session = getUser()?.id ?? '';
  return verdict.kind === 'pass' ? <Fragment key={session}>{children}</Fragment> : <Waiting />;
}

const SetupPage = lazyWithTimeout(() => import('../custom/pages/SetupPage.tsx'));
const FirstRunPage = lazyWithTimeout(() => import('../custom/pages/FirstRunPage.tsx'));
const NotFoundPage = lazyWithTimeout(() => import('../custom/pages/NotFoundPage.tsx'));
const AccessDeniedPage = lazyWithTimeout(() => import('../custom/pages/AccessDeniedPage.tsx'));
const PasswordResetRequestPage = lazyWithTimeout(
  () => import('../custom/pages/PasswordResetRequestPage.tsx'),
);
const PasswordResetPage = lazyWithTimeout(() => import('../custom/pages/PasswordResetPage.tsx'));
const SurveyPage = lazyWithTimeout(() => import('../custom/pages/SurveyPage.tsx'));
const SsoCallbackPage = lazyWithTimeout(() => import('../custom/pages/SsoCallbackPage.tsx'));
const OidcCallbackPage = lazyWithTimeout(() => import('../custom/pages/OidcCallbackPage.tsx'));

const screen = (element: ReactNode) => <Suspense fallback={<Waiting />}>{element}</Suspense>;

/**
 * The 'Page not found' catch-all of both apps (react-admin's `catchAll`, and each resource's own for a
 * path that names none of its screens: ../resources/index.tsx). The back office used react-admin's own,
 * whose grey text fails axe's contrast check.
 */
export function PageNotFound() {
  return screen(<NotFoundPage />);
}

/**
 * The portal's own pages (SPEC 2): the unauthenticated ones without the layout, the 403 page in it.
 * `loginPage` also answers /login/:guard.
 */
export function portalRoutes(LoginPage: ComponentType): ReactElement[] {
  return [
    <CustomRoutes key="portal-public" noLayout>
      <Route path={`${PORTAL_PAGES.login}/:guard`} element={<LoginPage />} />
      <Route path={PORTAL_PAGES.setup} element={screen(<SetupPage />)} />
      <Route path={PORTAL_PAGES.notFound} element={screen(<NotFoundPage portal />)} />
      <Route path="/password-reset" element={screen(<PasswordResetRequestPage />)} />
      <Route path="/password/reset/:token" element={screen(<PasswordResetPage />)} />
      <Route path="/survey/:token" element={screen(<SurveyPage />)} />
      <Route path="/msgraph/code/:code" element={screen(<SsoCallbackPage />)} />
      <Route path="/msgraph/code" element={screen(<SsoCallbackPage />)} />
    </CustomRoutes>,
    accessDeniedRoute(),
  ];
}

/**
 * The back office's first-run setup at /setup (issue 32), without the layout: the login page sends here
 * while the installation has no tenant.
 */
export function firstRunRoute(): ReactElement {
  return (
    <CustomRoutes key="first-run" noLayout>
      <Route path={PORTAL_PAGES.setup} element={screen(<FirstRunPage />)} />
    </CustomRoutes>
  );
}

/** The 'Access denied' page (SPEC 2) at /403, inside the layout: where guard 4 sends in both apps. */
export function accessDeniedRoute(): ReactElement {
  return (
    <CustomRoutes key="access-denied">
      <Route path={PORTAL_PAGES.forbidden} element={screen(<AccessDeniedPage />)} />
    </CustomRoutes>
  );
}

/** /sso/callback of both apps, without the layout: where an OpenID provider sends the browser back (issue 38). */
export function ssoCallbackRoute(): ReactElement {
  return (
    <CustomRoutes key="sso-callback" noLayout>
      <Route path="/sso/callback" element={screen(<OidcCallbackPage />)} />
    </CustomRoutes>
  );
}
