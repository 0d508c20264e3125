/**
 * A list page of the records API, as the server answers it (server/resources/repository.ts) and the
 * apps read it (src/dataProvider), and the page sizes it allows (server/query/parse.ts checks them).
 */

/** The largest page a list call may ask for (`paginate`); the apps ask getMany's ids at most this many at once. */
export const MAX_PAGE_SIZE = 100;
/** The page size of a list call that names none. */
export const DEFAULT_PAGE_SIZE = 15;

/** One page of a list: its rows, the total over all pages and where the page lies. */
export interface Paginated<T = any> {
  data: T[];
  total: number;
  from: number | null;
  to: number | null;
  per_page: number;
  current_page: number;
  last_page: number;
}
