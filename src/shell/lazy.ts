import { lazy, type ComponentType } from 'react';

/** SPEC 9: lazy chunks time out after 120 s; a chunk that never arrives shows an error instead of a spinner. */
export const LAZY_TIMEOUT_MS = 120_000;

export function lazyWithTimeout<T extends ComponentType<any>>(
  load: () => Promise<{ default: T }>,
  timeout = LAZY_TIMEOUT_MS,
) {
  return lazy(() =>
    Promise.race([
      load(),
      new Promise<never>((_, reject) =>
        setTimeout(() => reject(new Error('Loading this screen took too long.')), timeout),
      ),
    ]),
  );
}
