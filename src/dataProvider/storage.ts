/**
 * The browser's localStorage keys of both apps, in one place, and helpers that keep working when a
 * browser refuses storage (private mode, storage disabled by policy, quota exceeded): then the values
 * live in memory for the life of the page, so the session still works until a reload.
 */
import type { UserPayload } from '../../common/user.ts';

/** The access token of a logged-in user (spec section 9). */
export const APP_PORTAL_TOKEN = 'APP_PORTAL_TOKEN';
/** The token of a quote e-mail link; when set it travels instead of the access token (spec section 7). */
export const APP_QUOTE_TOKEN = 'APP_QUOTE_TOKEN';
/** Where that link opened its quote ('/quotes/12'): the way back for its holder from a page it cannot open. */
export const APP_QUOTE_PATH = 'APP_QUOTE_PATH';
/** The logged-in user as the login, refresh and `auth/me` calls return it, as JSON. */
export const APP_USER = 'APP_USER';
/** The chosen language: `nl` (default), `en` or `de`. */
export const LOCALE = 'locale';

/** The keys that make up a session: removed together on logout and when a refresh fails. */
export const SESSION_KEYS = [APP_PORTAL_TOKEN, APP_QUOTE_TOKEN, APP_QUOTE_PATH, APP_USER] as const;

/** The user payload of the server's login, refresh and `auth/me` answers (common/user.ts). */
export type SessionUser = UserPayload;

/** Values the browser refused to store; only these are read from memory. */
const memory = new Map<string, string>();

function storage(): Storage | undefined {
  try {
    // Reading the property itself throws a SecurityError where storage is disabled.
    return typeof window === 'undefined' ? undefined : window.localStorage;
  } catch {
    return undefined;
  }
}

export function getItem(key: string): string | null {
  if (memory.has(key)) return memory.get(key)!;
  try {
    return storage()?.getItem(key) ?? null;
  } catch {
    return null;
  }
}

export function setItem(key: string, value: string): void {
  try {
    const store = storage();
    if (!store) throw new Error('no storage');
    store.setItem(key, value);
    memory.delete(key);
  } catch {
    memory.set(key, value);
  }
}

export function removeItem(...keys: string[]): void {
  for (const key of keys) {
    memory.delete(key);
    try {
      storage()?.removeItem(key);
    } catch {
      // nothing was stored there
    }
  }
}

/** A stored JSON value, or undefined when missing or not valid JSON. */
export function getJson<T>(key: string): T | undefined {
  const text = getItem(key);
  if (text === null) return undefined;
  try {
    return JSON.parse(text) as T;
  } catch {
    return undefined;
  }
}

export function setJson(key: string, value: unknown): void {
  setItem(key, JSON.stringify(value));
}

export const getUser = (): SessionUser | undefined => getJson<SessionUser>(APP_USER);
export const setUser = (user: SessionUser): void => setJson(APP_USER, user);

/**
 * The value of the signed-in user's config `name` as the session answered it (the server gives each as
 * its JSON value: server/auth/config-value.ts); a string that is itself JSON text ('"x"', a row written
 * by hand) is read once more. Undefined when there is no such config.
 */
export function storedConfig(name: string): unknown {
  const configs = getUser()?.configs;
  const value = Array.isArray(configs) ? configs.find((c) => c?.name === name)?.value : undefined;
  if (typeof value !== 'string' || !value.startsWith('"')) return value;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return undefined;
  }
}

/** Forget the session: both tokens and the stored user (the language stays). */
export function clearSession(): void {
  removeItem(...SESSION_KEYS);
  answeredUser = null;
}

/**
 * The user this page's own login answered (in memory, so a reload asks GET /auth/me): it stands for the
 * session as long as that user is logged in, across token refreshes, as a user loaded once does.
 */
let answeredUser: SessionUser['id'] | null = null;

/** The login answer carried `user` (stored with setUser): nothing to ask GET /auth/me. */
export function rememberLoginAnswer(user: SessionUser): void {
  answeredUser = user.id;
}

/**
 * The stored user when this page's login answered it and a session (`token`) is still held; otherwise
 * undefined (ask the server).
 */
export function userAnsweredAtLogin(token: string | null): SessionUser | undefined {
  const user = getUser();
  return token !== null && answeredUser !== null && user?.id === answeredUser ? user : undefined;
}
