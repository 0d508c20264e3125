/**
 * The list screen's state, held by react-admin's list controller: its `useListParams` owns sort, filter,
 * page and page size, its `useRecordSelection` the selected rows. The rows come from our own `useGetList`
 * call instead of `useListController`'s, because the header filters are kept as filter state and become
 * the builder query only when fetched (./filters.ts: date presets are relative to a moment). The result's
 * `context` is a `ListControllerResult`: under a `ListContextProvider`, react-admin's hooks
 * (`useListContext`, `useListSortContext`, `useListPaginationContext`) read and change this list.
 *
 * Neither the URL nor react-admin's store holds any of it (`disableSyncWithLocation`, `storeKey: false`,
 * a selection without store): the list had no URL state, and its layout is kept per user and route under
 * keys of its own (./useListPersistence.ts).
 */
import { useCallback, useMemo, useState } from 'react';
import type { ListScreenController } from './ListScreenController.ts';
import {
  SET_FILTER,
  SET_PAGE,
  SET_PER_PAGE,
  SET_SORT,
  useGetList,
  useListParams,
  useEvent,
  useRecordSelection,
  type ListControllerResult,
  type RaRecord,
  type SortPayload,
} from 'react-admin';
import type { Resource } from '../../../common/schema/types.ts';
import { isAbort } from '../../shell/errors.ts';
import { toProviderFilter, type FilterState } from './filters.ts';
import { lastPageOf, rangeOf } from './pageItems.ts';
import type { Direction, ListSettings } from './persistence.ts';
import type { ListModel } from './shape.ts';

/** The header's text filters wait 250 ms themselves; a filter set through the context waits this long. */
const CONTEXT_FILTER_DEBOUNCE_MS = 250;

type Order = SortPayload['order'];
const toOrder = (direction: Direction): Order => (direction === 'desc' ? 'DESC' : 'ASC');

interface Params {
  sort: string;
  order: Order;
  perPage: number;
  page: number;
  filter: FilterState;
}
const paramsKey = (p: Params) => JSON.stringify([p.sort, p.order, p.perPage, p.page, p.filter]);

/**
 * What the screen shows besides the controller's params: the columns, the list view, the moment date
 * presets are relative to and the filter controls' epoch, for the params of `key`.
 */
interface View {
  key: string;
  filterKey: string;
  columns: string[];
  listView?: string;
  /** The moment date presets ('today', 'future') are relative to: moves on a filter change and a reload. */
  at: number;
  epoch: number;
}

/** A change of the view waiting for the controller: it applies its params a tick after they are set. */
interface Staged {
  columns?: string[];
  listView?: string | null;
  at?: number;
  /** The filter was replaced from outside the header controls. */
  external?: boolean;
}

export function useListScreenController(options: {
  resource: Resource;
  model: ListModel;
  initial: ListSettings;
  onError: (error: unknown) => void;
  /** False: the rows wait (a default view about to be applied would make the first page the wrong one). */
  enabled?: boolean;
  /**
   * The rows show their columns only (no action column of the resource's own, which may read any
   * field): the list asks for those fields alone (the builder item `select`, issue 40).
   */
  columnsOnly?: boolean;
}): ListScreenController {
  const { resource, model, initial, onError, enabled = true, columnsOnly = false } = options;
  const [defaults] = useState(() => ({
    sort: { field: initial.sort[0], order: toOrder(initial.sort[1]) },
    perPage: initial.perPage,
    filter: initial.filter,
  }));
  const [query, params] = useListParams({
    resource: resource.name,
    disableSyncWithLocation: true,
    storeKey: false,
    sort: defaults.sort,
    perPage: defaults.perPage,
    filterDefaultValues: defaults.filter,
    debounce: CONTEXT_FILTER_DEBOUNCE_MS,
  });
  const [selectedIds, selection] = useRecordSelection({
    resource: resource.name,
    disableSyncWithStore: true,
  });

  const current: Params = {
    sort: query.sort,
    order: query.order,
    perPage: query.perPage,
    page: query.page,
    filter: (query.filter ?? {}) as FilterState,
  };
  const key = paramsKey(current);
  const filterKey = JSON.stringify(current.filter);

  const [view, setView] = useState<View>(() => ({
    key,
    filterKey,
    columns: initial.columns,
    at: Date.now(),
    epoch: 0,
  }));
  const [staged, setStaged] = useState<Staged | undefined>(undefined);
  // The widths change no rows: they are shown at once, not staged with the params.
  const [widths, setWidths] = useState<Record<string, number>>(initial.widths);
  const applyStaged = (v: View, s: Staged | undefined, nextKey: string, nextFilterKey: string): View => {
    const filterMoved = nextFilterKey !== v.filterKey;
    return {
      key: nextKey,
      filterKey: nextFilterKey,
      columns: s?.columns ?? v.columns,
      listView: s?.listView === undefined ? v.listView : (s.listView ?? undefined),
      at: s?.at ?? v.at,
      // A filter from elsewhere (a preset, a reset, react-admin's setFilters) restarts the controls.
      epoch: s?.external || (filterMoved && !s) ? v.epoch + 1 : v.epoch,
    };
  };
  // The controller has applied new params: what was staged for them shows in the same render, so the
  // rows are fetched once, with the new columns and the new moment.
  if (view.key !== key) {
    setView(applyStaged(view, staged, key, filterKey));
    setStaged(undefined);
  }

  /** Asks the controller for `next` and shows `change` with it (at once when the params stay). */
  const change = (next: Params, actions: { type: string; payload: unknown }[], stage: Staged) => {
    if (paramsKey(next) === view.key) {
      setView((v) => applyStaged(v, stage, v.key, v.filterKey));
      return;
    }
    // Two changes before the controller applies either: both show with its params.
    setStaged((s) => ({ ...s, ...stage }));
    for (const action of actions) params.changeParams(action);
  };

  // The setters keep their identity across renders (useEvent): the table, memoised, does not render again
  // for a new function that does the same.
  const setFilter = useEvent((field: string, value: unknown) => {
    const filter = { ...current.filter };
    if (value === undefined) delete filter[field];
    else filter[field] = value;
    change({ ...current, filter, page: 1 }, [{ type: SET_FILTER, payload: { filter } }], { at: Date.now() });
  });

  const setWidth = useEvent((column: string, px: number | undefined) =>
    setWidths((current) => {
      const next = { ...current };
      if (px === undefined) delete next[column];
      else next[column] = px;
      return next;
    }),
  );

  const replace = useEvent((next: ListSettings, opts: { firstPage?: boolean } = {}) => {
    const firstPage = opts.firstPage ?? true;
    setWidths(next.widths);
    const wanted: Params = {
      sort: next.sort[0],
      order: toOrder(next.sort[1]),
      perPage: next.perPage,
      filter: next.filter,
      page: firstPage ? 1 : current.page,
    };
    const filterChanges = JSON.stringify(next.filter) !== filterKey;
    change(
      wanted,
      [
        { type: SET_SORT, payload: { field: wanted.sort, order: wanted.order } },
        { type: SET_PER_PAGE, payload: wanted.perPage },
        { type: SET_FILTER, payload: { filter: wanted.filter } },
        // The three above go back to page 1; a layout without a new page size stays where it is.
        ...(firstPage ? [] : [{ type: SET_PAGE, payload: current.page }]),
      ],
      { columns: next.columns, ...(filterChanges && { at: Date.now(), external: true }) },
    );
  });

  const setListView = useEvent((listView: string | undefined) =>
    change({ ...current, page: 1 }, [{ type: SET_PAGE, payload: 1 }], { listView: listView ?? null }),
  );

  const settings: ListSettings = useMemo(
    () => ({
      columns: view.columns,
      sort: [current.sort, current.order === 'DESC' ? 'desc' : 'asc'],
      filter: current.filter,
      perPage: current.perPage,
      widths,
    }),
    [view.columns, current.sort, current.order, current.filter, current.perPage, widths],
  );

  // ---- the rows
  const providerFilter = useMemo(
    () => toProviderFilter(current.filter, model.kindOf, new Date(view.at)),
    [current.filter, model, view.at],
  );
  const withRelations = useMemo(() => model.relationsFor(view.columns), [model, view.columns]);
  // A list view is a list of its own (its own route), which may answer other fields: all of them.
  // The records of a narrowed list are cached under a meta no detail screen asks with (`select`), so a
  // detail never takes one of them for its full record (react-admin fills its getOne cache from lists).
  const select = useMemo(
    () => (columnsOnly && !view.listView ? model.selectFor(view.columns) : []),
    [columnsOnly, view.listView, model, view.columns],
  );
  const meta =
    withRelations.length > 0 || view.listView || select.length > 0
      ? {
          ...(withRelations.length > 0 && { with: withRelations }),
          ...(view.listView && { listAction: view.listView }),
          ...(select.length > 0 && { select }),
        }
      : undefined;
  const result = useGetList(
    resource.name,
    {
      pagination: { page: current.page, perPage: current.perPage },
      sort: { field: current.sort, order: current.order },
      filter: providerFilter,
      meta,
    },
    {
      // Nor while a change waits for react-admin to apply its params (a tick later): the rows of the
      // params about to be left would be fetched for nothing.
      enabled: enabled && staged === undefined,
      placeholderData: (previous) => previous,
      // A failed load is said at once (toast, then the error state and its retry button), not after
      // three silent retries behind the skeleton.
      retry: false,
      onError,
      onSuccess: (answer) => {
        const last = lastPageOf(answer.total ?? 0, current.perPage);
        if (current.page > last) params.setPage(last);
      },
    },
  );
  const {
    data,
    total,
    meta: answerMeta,
    isPending,
    isLoading,
    isPlaceholderData,
    isFetching,
    isPaused,
  } = result;
  const { error, refetch } = result;
  const failed = !!error && !isAbort(error) && !data;
  const loading = isPending || isPlaceholderData || (failed && isFetching);

  // A selection is of the rows shown: rows that left the page (another page, filter) drop out of it.
  const pageIds = useMemo(() => (data ?? []).map((r: RaRecord) => r.id), [data]);
  const selected = useMemo(() => selectedIds.filter((id) => pageIds.includes(id)), [selectedIds, pageIds]);

  const refetchQuietly = useCallback(() => void refetch(), [refetch]);
  const reload = useCallback(() => {
    const at = Date.now();
    setView((v) => ({ ...v, at }));
    void refetch();
  }, [refetch]);

  // One object while nothing in it changes: the screen renders again as its other answers arrive (presets,
  // views, counts), and the list context's readers (the table, the pagination) need not follow.
  const { sort, order, filter, page, perPage } = current;
  const context = useMemo(
    () =>
      ({
        data,
        total,
        meta: answerMeta,
        error,
        isPending,
        isLoading,
        isFetching,
        isPaused,
        isPlaceholderData,
        sort: { field: sort, order },
        filterValues: filter,
        displayedFilters: query.displayedFilters,
        page,
        perPage,
        resource: resource.name,
        setSort: params.setSort,
        setPage: params.setPage,
        setPerPage: params.setPerPage,
        setFilters: params.setFilters,
        showFilter: params.showFilter,
        hideFilter: params.hideFilter,
        selectedIds: selected,
        onSelect: selection.select,
        onToggleItem: selection.toggle,
        onUnselectItems: () => selection.clearSelection(),
        // "All" is the rows shown: a selection never reaches beyond the page.
        onSelectAll: () => selection.select(pageIds),
        // The export is the server's (ListScreen's export button), not a file built here.
        exporter: false,
        hasPreviousPage: page > 1,
        hasNextPage: total === undefined ? undefined : page * perPage < total,
        refetch: reload,
      }) as unknown as ListControllerResult,
    [
      data,
      total,
      answerMeta,
      error,
      isPending,
      isLoading,
      isFetching,
      isPaused,
      isPlaceholderData,
      sort,
      order,
      filter,
      page,
      perPage,
      query.displayedFilters,
      resource.name,
      params.setSort,
      params.setPage,
      params.setPerPage,
      params.setFilters,
      params.showFilter,
      params.hideFilter,
      selected,
      selection,
      pageIds,
      reload,
    ],
  );

  return {
    context,
    settings,
    providerFilter,
    selected,
    filterEpoch: view.epoch,
    loading,
    failed,
    range: total === undefined ? undefined : rangeOf(current.page, current.perPage, total),
    lastPage: lastPageOf(total ?? 0, current.perPage),
    setFilter,
    setWidth,
    replace,
    setListView,
    listView: view.listView,
    reload,
    refetchQuietly,
  };
}
