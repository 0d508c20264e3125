/**
 * The error catalogue of SPEC 8 applied to every data provider call: react-admin puts `error.message`
 * in a toast, so the message is shaped here (by the catalogue's one implementation, `errorMessage`)
 * and the toast component renders it.
 */
import type { DataProvider } from 'react-admin';
import { errorMessage } from '../authProvider/index.ts';

/** Toasts with this message are not shown (403, 404, 'Unauthenticated.', a cancelled request). */
export const SILENT = 'app.errors.silent';

/** A 422 becomes its message then each field's line, one per line: the toast shows line one in bold. */
export function shapeError<E>(error: E): E {
  // A cancelled request (a newer one for the same list replaced it) is no error to show or reshape.
  if (error instanceof DOMException) return error;
  const shaped = errorMessage(error);
  const message =
    shaped === null
      ? SILENT
      : typeof shaped === 'string'
        ? shaped
        : [shaped.message, ...shaped.lines.filter((l) => l !== shaped.message)].join('\n');
  if (error && typeof error === 'object') (error as { message?: string }).message = message;
  return error;
}

export function withErrorCatalogue<T extends DataProvider>(provider: T): T {
  return new Proxy(provider, {
    get(target, key, receiver) {
      const value = Reflect.get(target, key, receiver);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        const result = (value as (...a: unknown[]) => unknown).apply(target, args);
        return result instanceof Promise
          ? result.catch((e: unknown) => Promise.reject(shapeError(e)))
          : result;
      };
    },
  });
}
