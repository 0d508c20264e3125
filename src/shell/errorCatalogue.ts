/**
 * The error catalogue of SPEC 8: what the toast of a failed call says. `errorMessage` is its one
 * implementation; ./errors.ts applies it to every data provider call (and translates a 422's lines), and
 * ./Notifications.tsx renders the toast. Why a toast looks as it does is in these three files.
 */
import type { HttpError, TranslateFunction } from 'ra-core';

/** The server's texts that the catalogue replaces (server/auth/authenticate.ts, server/http/errors.ts). */
export const UNAUTHENTICATED_MESSAGE = 'Unauthenticated.';
/** The server's answer to a wrong e-mail address or password (422); the login page says it in the user's language. */
export const BAD_CREDENTIALS_MESSAGE = 'These credentials do not match our records.';
export const MULTIPLE_SESSIONS_MESSAGE = 'You cannot have multiple login sessions per account.';
/** The Dutch sentence "this operator is logged in elsewhere" (and its translations), in src/i18n. */
export const LOGGED_IN_ELSEWHERE_KEY = 'app.errors.logged_in_elsewhere';

/**
 * Toasts last 5 s at the bottom centre (spec section 9). They stay while hovered without more
 * configuration: MUI's Snackbar pauses its auto-hide timer while the pointer is over it.
 */
export const TOAST_OPTIONS = {
  autoHideDuration: 5000,
  anchorOrigin: { vertical: 'bottom', horizontal: 'center' },
} as const;

/** A 422 toast: the message in bold, then each field's lines in order. */
export interface ValidationToast {
  message: string;
  lines: string[];
}

export function statusOf(error: unknown): number | undefined {
  const status = (error as { status?: unknown } | null)?.status;
  return typeof status === 'number' ? status : undefined;
}

export function messageOf(error: unknown): string | undefined {
  if (typeof error === 'string') return error;
  const message = (error as { message?: unknown } | null)?.message;
  return typeof message === 'string' ? message : undefined;
}

/**
 * What the toast of a failed call says (spec section 8): `null` for no toast (403, 404,
 * 'Unauthenticated.', a cancelled request), a `ValidationToast` for a 422, otherwise a text.
 * Texts that are the catalogue's own are translation keys (react-admin's notify translates them);
 * pass `translate` to get the translated text instead.
 */
export function errorMessage(error: unknown, translate?: TranslateFunction): string | ValidationToast | null {
  const text = (key: string) => (translate ? translate(key, { _: key }) : key);
  if (error instanceof DOMException && error.name === 'AbortError') return null;
  const status = statusOf(error);
  const message = messageOf(error);
  if (status === 403 || status === 404) return null;
  if (message === UNAUTHENTICATED_MESSAGE) return null;
  if (message === MULTIPLE_SESSIONS_MESSAGE) return text(LOGGED_IN_ELSEWHERE_KEY);
  if (status === 422) {
    const errors = (error as HttpError).body?.errors as Record<string, unknown> | undefined;
    const lines = Object.values(errors ?? {}).flatMap((v) =>
      Array.isArray(v) ? v.map(String) : [String(v)],
    );
    return { message: message ?? '', lines };
  }
  if (!message) return text('ra.notification.http_error');
  return message;
}
