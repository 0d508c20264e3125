/**
 * The error catalogue of SPEC 8 applied to every data provider call, in one place: react-admin shows
 * `error.message` in a toast, so the message is shaped here and the toast component renders it.
 */
import type { DataProvider } from 'react-admin';

/** Toasts with this message are not shown (403, 404, 'Unauthenticated.'). */
export const SILENT = 'app.errors.silent';
export const MULTIPLE_SESSIONS = 'You cannot have multiple login sessions per account.';
export const LOGGED_IN_ELSEWHERE = 'app.errors.logged_in_elsewhere';

interface ErrorLike {
  status?: number;
  message?: string;
  body?: { message?: string; errors?: Record<string, string[]> };
}

/** A 422 becomes its message then each field's lines, one per line: the toast shows line one in bold. */
export function shapeError(error: ErrorLike): ErrorLike {
  const message = error.body?.message ?? error.message ?? '';
  if (error.status === 403 || error.status === 404 || message === 'Unauthenticated.') error.message = SILENT;
  else if (message === MULTIPLE_SESSIONS) error.message = LOGGED_IN_ELSEWHERE;
  else if (error.status === 422 && error.body?.errors) {
    const lines = Object.values(error.body.errors).flat();
    error.message = [message, ...lines.filter((l) => l !== message)].join('\n');
  }
  return error;
}

export function withErrorCatalogue<T extends DataProvider>(provider: T): T {
  return new Proxy(provider, {
    get(target, key, receiver) {
      const value = Reflect.get(target, key, receiver);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        const result = value.apply(target, args);
        return result instanceof Promise ? result.catch((e: ErrorLike) => Promise.reject(shapeError(e))) : result;
      };
    },
  });
}
