/**
 * What the list screen's controller (./useListScreenController.ts) gives the screen and its parts: the
 * list's context for react-admin's hooks, its settings and filter, the page's state and what changes it.
 */
import type { Identifier, ListControllerResult } from 'react-admin';
import type { ProviderFilter } from './filters.ts';
import type { ListSettings } from './persistence.ts';

export interface ListScreenController {
  /** For `ListContextProvider`. */
  context: ListControllerResult;
  /** Columns, sort, filter and page size, as kept and as presets hold them (./persistence.ts). */
  settings: ListSettings;
  /** The filter as the data provider gets it (also the export's and the counts'). */
  providerFilter: ProviderFilter;
  /** The selected rows that are on the page. */
  selected: Identifier[];
  /** Changes when the filter is replaced from outside the header controls: they start over. */
  filterEpoch: number;
  /** Skeletons show (first load, another page or filter, a retry after a failure). */
  loading: boolean;
  /** No rows to show because the load failed (rows shown before stay when a reload fails). */
  failed: boolean;
  range?: { from: number; to: number; total: number };
  lastPage: number;
  /** A header filter control's new value (undefined: no filter on the field); back to page 1. */
  setFilter: (field: string, value: unknown) => void;
  /** A column's width as the user sized it; undefined: back to the schema's. */
  setWidth: (column: string, px: number | undefined) => void;
  /** Replaces columns, sort, filter and page size at once (reset, a preset, the columns dialog). */
  replace: (next: ListSettings, options?: { firstPage?: boolean }) => void;
  /** Reads the rows from a list view (./listViews.ts) or, undefined, from the list itself; page 1. */
  setListView: (view: string | undefined) => void;
  listView?: string;
  /** Reads the rows again, date presets relative to now. */
  reload: () => void;
  /** Reads the same rows again in place, no skeletons (a live change of a record shown). */
  refetchQuietly: () => void;
}
