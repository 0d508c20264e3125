/**
 * A list opened from a link with its filter given (the dashboard's figures, issue 18): `/tickets?filter=`
 * followed by the filter state as JSON, the state the header controls hold (./filters.ts), so the list
 * shows the filter in its header where the user can change or reset it. The list takes it once, when it
 * opens, in place of the kept filter; fields the list cannot filter on are dropped there as anywhere.
 */
import type { FilterState } from './filters.ts';

export const FILTER_PARAM = 'filter';

/** The address of a list (a path inside the app) opened with `filter`. */
export function listLink(path: string, filter: FilterState): string {
  return `${path}?${FILTER_PARAM}=${encodeURIComponent(JSON.stringify(filter))}`;
}

/** The filter a list's address carries, or undefined when it carries none (or not an object). */
export function linkedFilter(search: string): FilterState | undefined {
  const raw = new URLSearchParams(search).get(FILTER_PARAM);
  if (raw === null) return undefined;
  try {
    const value: unknown = JSON.parse(raw);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as FilterState)
      : undefined;
  } catch {
    return undefined;
  }
}
