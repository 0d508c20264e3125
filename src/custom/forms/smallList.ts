/**
 * Short selects open without typing (issue 14, item 18). A selector over a related resource searches
 * after 2 typed characters (SPEC 5) when the resource's schema says its records grow without bound
 * (`"x-selector": "search"`: companies, clients, tickets, assets, …). Any other list is read once, its
 * first SMALL_LIST_MAX records: when that is all of them (the answer's total), the list is small
 * (priorities, statuses, types) and the selector offers them at once, narrowed as one types; a longer
 * one (a tenant with hundreds of products) searches too. So the size comes from the schema and the data
 * (per tenant, and per user: a client sees fewer), never from a resource's name.
 */
import { useGetList, type RaRecord } from 'react-admin';
import { registry } from '../../schema.ts';

/** Up to this many records a selector shows them all at once. */
export const SMALL_LIST_MAX = 50;

export interface SmallList {
  /** Undefined while the first page loads. */
  small: boolean | undefined;
  /** All records of a small list, in the resource's default order; empty for a large one. */
  records: RaRecord[];
}

export function useSmallList(
  reference: string,
  sort: readonly [string, 'asc' | 'desc'] | undefined,
  enabled = true,
  filter: Record<string, unknown> = {},
): SmallList {
  const searched = registry.get(reference)?.schema?.['x-selector'] === 'search';
  const { data, total } = useGetList(
    reference,
    {
      pagination: { page: 1, perPage: SMALL_LIST_MAX },
      sort: sort
        ? { field: sort[0], order: sort[1] === 'desc' ? 'DESC' : 'ASC' }
        : { field: 'id', order: 'ASC' },
      filter,
      // Its own list: a selector's search of the same resource must not cancel it.
      meta: { list: 'selector-size' },
    },
    // A named list hardly changes while a form is open: one read serves every selector on it.
    { enabled: enabled && !searched, staleTime: 5 * 60_000 },
  );
  if (searched) return { small: false, records: [] };
  if (!enabled || total === undefined || data === undefined) return { small: undefined, records: [] };
  const small = total <= SMALL_LIST_MAX;
  return { small, records: small ? data : [] };
}
