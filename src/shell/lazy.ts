import { lazy, type ComponentType } from 'react';

/** SPEC 9: lazy chunks time out after 120 s; a chunk that never arrives shows an error instead of a spinner. */
export const LAZY_TIMEOUT_MS = 120_000;

/**
 * A lazy screen that can also be fetched ahead (`preload`), while the page waits for something else
 * (the portal's guards wait for the status call): rendering it later uses the same download.
 */
export function lazyWithTimeout<T extends ComponentType<any>>(
  load: () => Promise<{ default: T }>,
  timeout = LAZY_TIMEOUT_MS,
) {
  let loading: Promise<{ default: T }> | undefined;
  const once = () => (loading ??= load());
  const screen = lazy(() =>
    Promise.race([
      once(),
      new Promise<never>((_, reject) =>
        setTimeout(() => reject(new Error('Loading this screen took too long.')), timeout),
      ),
    ]),
  );
  return Object.assign(screen, {
    preload: () => void once().catch(() => undefined),
  });
}
