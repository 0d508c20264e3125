/**
 * The one way the apps talk to the API: a small fetch wrapper (injectable `fetch`, so tests pass a fake).
 *
 * Every call sends cookies (`credentials: 'include'`: the refresh token is an httpOnly cookie on
 * /api/auth), `Accept: application/json`, the current page address in `X-Current-Page`, and either the
 * access token as `Authorization: Bearer …` or, when a quote token is stored, that token in
 * `X-Quote-Token` instead (spec section 7; docs/decisions.md).
 *
 * On a 401 the client refreshes the access token once and retries the call once (spec section 4). One
 * refresh at a time: concurrent 401s wait for the same refresh, and other tabs' refreshes are awaited
 * through the Web Locks API where the browser has it, because the server revokes a refresh token that
 * is presented twice. If the refresh fails the session is over: the tokens and the user are removed,
 * `onSessionEnded` is called (the app goes to its login page) and the call rejects with a 401.
 *
 * Failures reject with react-admin's `HttpError(message, status, body)`, the message being the body's
 * `message` (the text the error catalogue of spec section 8 works from). Aborts reject with the
 * fetch's AbortError. A call that got no answer at all (network down, connection cut) rejects with an
 * `HttpError` of status 0 whose message is the key NETWORK_ERROR, so the toast says it in the user's
 * language instead of the browser's 'Failed to fetch'.
 */
import { HttpError } from 'ra-core';
import {
  APP_PORTAL_TOKEN,
  APP_QUOTE_TOKEN,
  clearSession,
  getItem,
  LOCALE,
  removeItem,
  setItem,
  setUser,
  type SessionUser,
} from './storage.ts';

export type FetchLike = (input: string, init: RequestInit) => Promise<Response>;

export interface HttpClientOptions {
  /** Defaults to the browser's fetch. */
  fetch?: FetchLike;
  /** Prefix of every path; default `/api`. */
  baseUrl?: string;
  /** Called once when a refresh fails and the session is gone, with the error the call rejects with. */
  onSessionEnded?: (error: HttpError) => void;
  /** The page address sent in `X-Current-Page`; default `window.location.href`. */
  currentPage?: () => string | undefined;
}

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Sent as JSON, except FormData, Blob and URLSearchParams, which go as they are. */
  body?: unknown;
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /** `blob` for downloads (PDF, CSV): the answer's body is a Blob. Default `json`. */
  responseType?: 'json' | 'blob';
  /** No token headers and no refresh on 401: login, system status. */
  anonymous?: boolean;
  /** Default true; false: a 401 simply rejects (logout). */
  refreshOn401?: boolean;
}

export interface HttpResponse<T> {
  status: number;
  headers: Headers;
  body: T;
}

export interface HttpClient {
  /** `path` is relative to the base URL and may carry a query string: `/tickets?page=2`. */
  request<T = any>(path: string, options?: RequestOptions): Promise<HttpResponse<T>>;
  /** Refresh the access token now (shared with any refresh under way); rejects when the session is gone. */
  refresh(): Promise<void>;
}

export const REFRESH_PATH = '/auth/refresh';
/** The message (a translation key) of a call that got no answer; its status is 0, as XHR has it. */
export const NETWORK_ERROR = 'app.errors.network';

const isAbort = (error: unknown) => error instanceof DOMException && error.name === 'AbortError';
const REFRESH_LOCK = 'app-auth-refresh';

interface Credentials {
  bearer: string | null;
  quote: string | null;
}

const storedCredentials = (): Credentials => ({
  bearer: getItem(APP_PORTAL_TOKEN),
  quote: getItem(APP_QUOTE_TOKEN),
});

function defaultCurrentPage(): string | undefined {
  return typeof window === 'undefined' ? undefined : window.location.href;
}

function isRawBody(body: unknown): boolean {
  return (
    (typeof FormData !== 'undefined' && body instanceof FormData) ||
    (typeof Blob !== 'undefined' && body instanceof Blob) ||
    (typeof URLSearchParams !== 'undefined' && body instanceof URLSearchParams)
  );
}

async function readBody(response: Response, type: 'json' | 'blob'): Promise<unknown> {
  if (type === 'blob' && response.ok) return response.blob();
  const text = await response.text();
  if (text === '') return null;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function toHttpError(response: Response, body: unknown): HttpError {
  const message =
    body && typeof body === 'object' && typeof (body as { message?: unknown }).message === 'string'
      ? (body as { message: string }).message
      : response.statusText || `HTTP error ${response.status}`;
  return new HttpError(message, response.status, body);
}

/** Run `task` while holding the refresh lock shared by all tabs, where the browser has one. */
function withRefreshLock<T>(task: () => Promise<T>): Promise<T> {
  const locks = typeof navigator === 'undefined' ? undefined : navigator.locks;
  return locks ? (locks.request(REFRESH_LOCK, task) as Promise<T>) : task();
}

export function createHttpClient(options: HttpClientOptions = {}): HttpClient {
  const baseUrl = options.baseUrl ?? '/api';
  const doFetch: FetchLike = (input, init) => (options.fetch ?? globalThis.fetch)(input, init);
  const currentPage = options.currentPage ?? defaultCurrentPage;
  let pendingRefresh: Promise<void> | null = null;

  function headersFor(request: RequestOptions, credentials: Credentials | null): Record<string, string> {
    const headers: Record<string, string> = {
      Accept: request.responseType === 'blob' ? '*/*' : 'application/json',
    };
    const page = currentPage();
    if (page) headers['X-Current-Page'] = page;
    // The language the app shows: the server answers translated names (x-translated) in it.
    headers['Accept-Language'] = getItem(LOCALE) ?? 'nl';
    if (credentials?.quote) headers['X-Quote-Token'] = credentials.quote;
    else if (credentials?.bearer) headers.Authorization = `Bearer ${credentials.bearer}`;
    if (request.body !== undefined && !isRawBody(request.body)) headers['Content-Type'] = 'application/json';
    return { ...headers, ...request.headers };
  }

  async function send(
    path: string,
    request: RequestOptions,
    credentials: Credentials | null,
  ): Promise<Response> {
    const init: RequestInit = {
      method: request.method ?? 'GET',
      headers: headersFor(request, credentials),
      credentials: 'include',
    };
    if (request.body !== undefined) {
      init.body = isRawBody(request.body) ? (request.body as BodyInit) : JSON.stringify(request.body);
    }
    if (request.signal) init.signal = request.signal;
    try {
      return await doFetch(`${baseUrl}${path}`, init);
    } catch (error) {
      if (isAbort(error)) throw error;
      throw new HttpError(NETWORK_ERROR, 0, null);
    }
  }

  async function answer<T>(response: Response, request: RequestOptions): Promise<HttpResponse<T>> {
    const body = await readBody(response, request.responseType ?? 'json');
    if (!response.ok) throw toHttpError(response, body);
    return { status: response.status, headers: response.headers, body: body as T };
  }

  /** POST /auth/refresh and store what it returns; throws the HttpError of a refused refresh. */
  async function callRefresh(): Promise<void> {
    const response = await send(REFRESH_PATH, { method: 'POST' }, null);
    const { body } = await answer<{ access_token: string; user?: SessionUser }>(response, {});
    setItem(APP_PORTAL_TOKEN, body.access_token);
    if (body.user) setUser(body.user);
  }

  /**
   * The shared refresh. `seenBearer` is the access token stored when the failed call went out: when
   * the stored token differs by the time we hold the lock, someone else (this tab or another) already
   * refreshed and the call just retries. `undefined` always refreshes.
   */
  function refreshShared(seenBearer: string | null | undefined, cause?: HttpError): Promise<void> {
    pendingRefresh ??= withRefreshLock(async () => {
      const stored = getItem(APP_PORTAL_TOKEN);
      if (seenBearer !== undefined && stored && stored !== seenBearer) return;
      await callRefresh();
    })
      .catch((error: unknown) => {
        const ended =
          error instanceof HttpError && error.status === 401
            ? new HttpError(error.message, 401, error.body)
            : (cause ?? new HttpError('Unauthenticated.', 401, { message: 'Unauthenticated.' }));
        // A call that went out signed in, answered after the user signed out here (its token gone): the
        // logout already leads to the login page, and a second trip would add the page left as `next`.
        const signedOutMeanwhile = Boolean(seenBearer) && !getItem(APP_PORTAL_TOKEN);
        clearSession();
        if (!signedOutMeanwhile) options.onSessionEnded?.(ended);
        throw ended;
      })
      .finally(() => {
        pendingRefresh = null;
      });
    return pendingRefresh;
  }

  async function request<T>(path: string, request: RequestOptions = {}): Promise<HttpResponse<T>> {
    if (request.anonymous) return answer<T>(await send(path, request, null), request);
    const sent = storedCredentials();
    const response = await send(path, request, sent);
    if (response.status !== 401 || request.refreshOn401 === false || path === REFRESH_PATH) {
      return answer<T>(response, request);
    }
    const unauthorized = toHttpError(response, await readBody(response, 'json'));
    const now = storedCredentials();
    // No session to renew: never logged in (a login page must not bounce), or logged out meanwhile
    // (another call's refresh failed, or the user logged out).
    if (!pendingRefresh && !now.bearer && !now.quote) throw unauthorized;
    // A refused quote token is spent; the retry goes with the access token, if a refresh gives one.
    if (sent.quote) removeItem(APP_QUOTE_TOKEN);
    await refreshShared(sent.bearer, unauthorized);
    return answer<T>(await send(path, request, storedCredentials()), request);
  }

  return {
    request,
    refresh: () => refreshShared(undefined),
  };
}
