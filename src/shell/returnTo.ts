/**
 * After login, back to the page that was asked for (a deep link to /app/quotes/2 lands there, not on the
 * tickets list). The page travels in the login address as `?next=/quotes/2` (a path inside the app, so it
 * survives the full reload that ends a session) or, when react-admin itself sends to login, in the router
 * state it leaves there (`nextPathname`, the full path). Either way it is taken only when it is a path of
 * the same app: never another host ('//evil.example', '/\evil.example', 'https://…'), never the other
 * app on this host, never a login page (which would only loop).
 */
import type { AppKind } from '../custom/appKind.ts';

/** The app's base path: the portal lives under /app (SPEC 2), the back office at the root. */
export const APP_BASENAME: Record<AppKind, string> = { portal: '/app', backoffice: '' };

/** The login page's query parameter that holds the page to return to. */
export const NEXT_PARAM = 'next';

/** Paths under the back office's root that belong to something else on this host. */
const NOT_BACK_OFFICE = /^\/(app|api)(\/|$)/;
const LOGIN_PAGE = /^\/login(\/|$)/;
/** A dummy origin to resolve against: a path that resolves anywhere else names another host. */
const SAME = 'http://same.invalid';

/**
 * `value` as a path inside the app (without its basename, with query and hash) to return to, or
 * undefined when it is not a same-app path. A full path with the basename in front is accepted too.
 */
export function safeReturnPath(value: unknown, kind: AppKind): string | undefined {
  if (typeof value !== 'string' || !value.startsWith('/') || value.startsWith('//')) return undefined;
  // Browsers read a backslash as a slash ('/\evil.example' is '//evil.example'); no control characters.
  if (value.includes('\\') || [...value].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f)) {
    return undefined;
  }
  let url: URL;
  try {
    url = new URL(value, SAME);
  } catch {
    return undefined;
  }
  // '/..//evil' resolves to the path '//evil': a protocol-relative address once navigated to.
  if (url.origin !== SAME || url.pathname.startsWith('//')) return undefined;
  const basename = APP_BASENAME[kind];
  let path = url.pathname;
  if (basename && (path === basename || path.startsWith(`${basename}/`))) {
    path = path.slice(basename.length) || '/';
  } else if (!basename && NOT_BACK_OFFICE.test(path)) {
    return undefined;
  }
  if (LOGIN_PAGE.test(path)) return undefined;
  return `${path}${url.search}${url.hash}`;
}

/**
 * The login page's address inside the app, naming `from` (a path inside the app) to return to:
 * '/login?next=/quotes/2'. Just '/login' when there is nothing worth returning to (the root, a
 * login page, anything not of this app).
 */
export function loginPath(kind: AppKind, from?: string): string {
  const next = safeReturnPath(from, kind);
  if (!next || next === '/') return '/login';
  // Slashes stay as they are (allowed in a query): '/login?next=/quotes/2' reads as what it is.
  return `/login?${NEXT_PARAM}=${encodeURIComponent(next).replace(/%2F/gi, '/')}`;
}

/**
 * The full address of the login page that returns to the page the browser is on: where a session that
 * ends by itself sends the user (the HTTP client's reload and react-admin's own logout agree on it).
 */
export function loginAddressFromHere(kind: AppKind): string {
  const { pathname, search, hash } = window.location;
  return `${APP_BASENAME[kind]}${loginPath(kind, `${pathname}${search}${hash}`)}`;
}

/** The router state react-admin leaves on the login page when it sent the user there itself. */
interface LoginState {
  nextPathname?: unknown;
  nextSearch?: unknown;
}

/**
 * Where to go after a login on the login page at `search` with router `state`: the full address
 * (basename included) of the page asked for, else the app's home.
 */
export function afterLoginAddress(kind: AppKind, search: string, state: unknown): string {
  const fromQuery = new URLSearchParams(search).get(NEXT_PARAM);
  const { nextPathname, nextSearch } = (state ?? {}) as LoginState;
  const fromState =
    typeof nextPathname === 'string'
      ? `${nextPathname}${typeof nextSearch === 'string' ? nextSearch : ''}`
      : undefined;
  const next = safeReturnPath(fromQuery, kind) ?? safeReturnPath(fromState, kind) ?? '/';
  return `${APP_BASENAME[kind]}${next}`;
}
