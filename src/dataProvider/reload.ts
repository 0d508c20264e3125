/**
 * The global reload of spec sections 2 and 9: anything that changed data asks for a reload, the list
 * and detail screens listen, and a burst of requests becomes one reload 100 ms after the last one.
 */

export const RELOAD_DEBOUNCE_MS = 100;
/** The window event the list and detail screens listen to. */
export const RELOAD_EVENT = 'app:reload';

export interface Debounced<A extends unknown[]> {
  (...args: A): void;
  /** Drop a call that is waiting. */
  cancel(): void;
}

/** Trailing debounce: `fn` runs once, `ms` after the last call, with that call's arguments. */
export function debounce<A extends unknown[]>(fn: (...args: A) => void, ms: number): Debounced<A> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const debounced = (...args: A): void => {
    if (timer !== undefined) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = undefined;
      fn(...args);
    }, ms);
  };
  debounced.cancel = (): void => {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
  };
  return debounced;
}

/** Ask every list and detail screen to reload; calls within 100 ms of each other make one event. */
export const requestReload: Debounced<[]> = debounce(() => {
  if (typeof window !== 'undefined') window.dispatchEvent(new Event(RELOAD_EVENT));
}, RELOAD_DEBOUNCE_MS);

/** Listen to reload requests; returns the unsubscribe function (for a useEffect cleanup). */
export function onReload(listener: () => void): () => void {
  window.addEventListener(RELOAD_EVENT, listener);
  return () => window.removeEventListener(RELOAD_EVENT, listener);
}
