/**
 * The generic list screen of both apps (SPEC 2 "Generic list screen", 4, 5, 9), driven by the schema:
 * a table with header filters and sort toggles on a desktop (./ListTable.tsx), cards below 768 px.
 * Sort, filter, page and selection are react-admin's list controller's (./useListScreenController.ts),
 * provided as its list context; the layout is kept per user and route (./useListPersistence.ts); saved
 * table views and the schema's views, and which one the list starts on, come from ./useListViews.ts;
 * what the user may do on the list from ./useListPermissions.ts.
 */
import { useCallback, useEffect, useId, useMemo, useRef, useState, type ReactNode } from 'react';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import {
  CreateButton,
  ListContextProvider,
  useCreatePath,
  useGetIdentity,
  useNavigate,
  useNotify,
  useResourceDefinition,
  useTranslate,
  type Identifier,
  type RaRecord,
} from 'react-admin';
import { useLocation } from 'react-router-dom';
import type { Resource } from '../../../common/schema/types.ts';
import { onReload } from '../../dataProvider/reload.ts';
import { getUser } from '../../dataProvider/storage.ts';
import { useAppKind } from '../appKind.ts';
import { overrides } from '../../resources/override-contract.ts';
import { useNotifyError } from '../../shell/errors.ts';
import { LoadFailed } from '../../shell/LoadFailed.tsx';
import { NewRecordsBar, useLiveList } from '../../live/NewRecordsBar.tsx';
import { hasActiveFilter } from './filters.ts';
import { linkedFilter } from './linkedFilter.ts';
import { ListBulkBars } from './ListBulkBars.tsx';
import { ListDefaultViewBar } from './ListDefaultViewBar.tsx';
import { ListDialogs, type ListDialogsOpen } from './ListDialogs.tsx';
import { ListContextPagination } from './ListPagination.tsx';
import { ListPlaceholder } from './ListPlaceholder.tsx';
import { ListTable, TABLE_MIN_HEIGHT } from './ListTable.tsx';
import { ListToolbar } from './ListToolbar.tsx';
import { ListViewSwitches } from './ListViewSwitches.tsx';
import { MobileList } from './MobileList.tsx';
import { loadSettings, type ListSettings, type TablePreset, type UserConfig } from './persistence.ts';
import { listModel, type ListModel } from './shape.ts';
import { useBrowserStorage, useListPersistence } from './useListPersistence.ts';
import { useListExport } from './useListExport.ts';
import { useListPermissions } from './useListPermissions.ts';
import { useListScreenController } from './useListScreenController.ts';
import { useListViews } from './useListViews.ts';
import { usePluralName } from './usePluralName.ts';

/** SPEC 9: the mobile breakpoint is 768 px. */
export const MOBILE_QUERY = '(max-width:767.95px)';
/** react-admin's floating create button stands 60 px above the screen's bottom and is 56 px high. */
const FAB_CLEARANCE_PX = 60 + 56 + 16;
export { TABLE_MIN_HEIGHT };

export interface ListScreenProps {
  resource: Resource;
  /** The route the layout is kept for; the list route's name by default (`tickets.index`). */
  route?: string;
  /** Shown below the list, inside its list context: react-admin's `useListContext` reads this list. */
  children?: ReactNode;
}

export function ListScreen({ resource, route, children }: ListScreenProps) {
  const { identity, isPending } = useGetIdentity();
  const routeName = route ?? `${resource.name}.index`;
  if (isPending) return <ListPlaceholder resource={resource} />;
  const userId = identity?.id ?? '';
  return (
    <ListView key={`${userId}:${routeName}`} resource={resource} route={routeName} userId={userId}>
      {children}
    </ListView>
  );
}

function storedConfigs(): UserConfig[] | undefined {
  const configs = getUser()?.configs;
  return Array.isArray(configs) ? configs : undefined;
}

function ListView({
  resource,
  route,
  userId,
  children,
}: ListScreenProps & { route: string; userId: Identifier }) {
  const appKind = useAppKind();
  const actionColumn = overrides[appKind][resource.name]?.actionColumn;
  const translate = useTranslate();
  const notify = useNotify();
  const notifyError = useNotifyError();
  const navigate = useNavigate();
  const createPath = useCreatePath();
  const definition = useResourceDefinition({ resource: resource.name });
  const isMobile = useMediaQuery(MOBILE_QUERY);
  const headingId = useId();
  const model: ListModel = useMemo(() => listModel(resource, appKind), [resource, appKind]);
  const storage = useBrowserStorage();
  const location = useLocation();
  // A link with a filter (./linkedFilter.ts) opens the list filtered so, as the user's own layout.
  const [linked] = useState(() => linkedFilter(location.search));
  const [initial] = useState(() => {
    const kept = loadSettings({ storage, userId, route, configs: storedConfigs(), shape: model });
    return linked ? { settings: { ...kept.settings, filter: linked }, source: 'local' as const } : kept;
  });
  // A user without a layout of their own starts on their default view: the rows wait until it is
  // known (./useListViews.ts), so the first page fetched and shown is that view's, not the unfiltered list's.
  const [startDecided, setStartDecided] = useState(false);
  const list = useListScreenController({
    resource,
    model,
    initial: initial.settings,
    onError: notifyError,
    enabled: initial.source !== 'default' || startDecided,
    columnsOnly: !actionColumn,
  });
  const { settings } = list;
  const persistence = useListPersistence({ storage, userId, route, settings, source: initial.source });
  // The linked filter is kept as any filter the user sets, and leaves the address: a reload shows the
  // list as the user left it, not the link's filter again.
  const linkTaken = useRef(false);
  useEffect(() => {
    if (!linked || linkTaken.current) return;
    linkTaken.current = true;
    navigate(location.pathname, { replace: true });
    persistence.saveNow(initial.settings).catch(() => undefined);
  }, [linked, navigate, location.pathname, persistence, initial.settings]);
  const { canPresets, canExport, canReorder, bulk, bulkFields, bulkRuns, views } =
    useListPermissions(resource);
  const schemaBulk = bulkFields.length > 0 || bulkRuns.length > 0;
  const [settingsOpen, setSettingsOpen] = useState(false);
  const [viewsOpen, setViewsOpen] = useState(false);
  const [reorderOpen, setReorderOpen] = useState(false);

  const plural = usePluralName(resource);
  // The table is memoised: what it gets keeps its identity while it means the same.
  const labelOf = useCallback(
    (field: string) =>
      translate(`resources.${resource.name}.fields.${field}`, { _: field.replace(/_/g, ' ') }),
    [translate, resource.name],
  );
  const emptyText = translate(`resources.${resource.name}.empty`, {
    _: translate('list.empty', { model: plural.toLocaleLowerCase() }),
  });
  const { exporting, exportList } = useListExport({ resource, userId, list, labelOf });

  const saveLayout = async (layout: Pick<ListSettings, 'columns' | 'perPage' | 'widths'>) => {
    const next = { ...settings, ...layout };
    setSettingsOpen(false);
    list.replace(next, { firstPage: layout.perPage !== settings.perPage });
    try {
      await persistence.saveNow(next);
      notify('list.saved', { type: 'success' });
    } catch (error) {
      const message = (error as { message?: string } | null)?.message;
      notify(message || 'ra.notification.http_error', { type: 'error', messageArgs: { _: message } });
    }
  };

  const listViews = useListViews({
    resource,
    route,
    userId,
    model,
    list,
    persistence,
    canPresets,
    backoffice: appKind === 'backoffice',
    onStarted: () => setStartDecided(true),
  });
  const { presetsApi, activePreset, setActivePresetId } = listViews;

  const resetFilters = () => {
    list.replace({ ...settings, filter: {} });
    setActivePresetId(undefined);
  };
  /** Something to reset (also a half-filled control). */
  const filterActive = hasActiveFilter(settings.filter);
  // A list with views of its own keeps the bar's place while they load: on a phone, where the bar
  // stands in for the presets' select, that select showed for a moment and took a tap meant for the bar.
  const viewsLoading = appKind === 'backoffice' && resource.views.length > 0 && !listViews.canStart;
  const defaultViewBar = viewsLoading ? (
    <Box sx={{ height: 40, mb: 1 }} aria-busy="true" />
  ) : listViews.systemViews.length > 0 ? (
    <ListDefaultViewBar resource={resource.name} views={listViews} />
  ) : null;

  const { reload: reloadList } = list;
  const reloadPresets = presetsApi.refetch;
  const live = useLiveList(resource, list.refetchQuietly, list.providerFilter);
  const refresh = () => {
    live.clear();
    reloadList();
    reloadPresets();
  };
  const newRecords = <NewRecordsBar resource={resource} count={live.fresh} onShow={refresh} />;
  useEffect(
    () =>
      onReload(() => {
        reloadList();
        reloadPresets();
      }),
    [reloadList, reloadPresets],
  );
  const loadFailed =
    list.failed && !list.loading ? <LoadFailed text="app.errors.list_failed" onRetry={refresh} /> : null;

  // The detail screen exists where the app's actions of the resource include 'show' (resources/index.tsx);
  // without one (index only, as a ticket's history) the rows open nothing.
  const appActions = appKind === 'portal' ? (resource.portal?.actions ?? []) : resource.actions;
  const opens = appActions.includes('show');
  const detailType = definition?.hasShow ? 'show' : 'edit';
  const open = useMemo(
    () =>
      opens
        ? (record: RaRecord) =>
            navigate(createPath({ resource: resource.name, id: record.id, type: detailType }))
        : undefined,
    [opens, navigate, createPath, resource.name, detailType],
  );

  const columns = useMemo(
    () => settings.columns.map((name) => model.fields[name]!).filter(Boolean),
    [settings.columns, model],
  );
  const hasRows = (list.range?.total ?? 0) > 0;
  const presetProps = {
    canPresets,
    presets: presetsApi.presets,
    counts: presetsApi.counts,
    activePresetId: activePreset?.id,
    onApplyPreset: (preset: TablePreset) => listViews.applyView(preset, { keep: true }),
  };

  const bulkBars = (
    <ListBulkBars
      resource={resource}
      list={list}
      bulk={bulk}
      bulkFields={bulkFields}
      bulkRuns={bulkRuns}
      onDone={() => {
        list.context.onUnselectItems();
        refresh();
      }}
    />
  );

  if (isMobile) {
    return (
      <ListContextProvider value={list.context}>
        {/* Room under the last card for the floating create button (fixed 60 px above the bottom, 56 px
            high): scrolled to the end, it covers no card's text. */}
        <Box sx={{ p: 1, pb: definition?.hasCreate ? `${FAB_CLEARANCE_PX}px` : 1 }}>
          {newRecords}
          <MobileList
            resource={resource}
            title={plural}
            headingId={headingId}
            columns={columns}
            labelOf={labelOf}
            titleField={model.fields[resource.label]}
            records={list.context.data ?? []}
            loading={list.loading}
            failed={loadFailed}
            emptyText={emptyText}
            range={list.range}
            filterActive={filterActive}
            onResetFilters={resetFilters}
            activeFilterName={listViews.activeFilterName}
            onOpen={open}
            actionColumn={actionColumn}
            viewBar={defaultViewBar}
            selectable={bulk.length > 0 || schemaBulk}
            bulkBars={bulkBars}
            {...presetProps}
          />
          {/* Below 768 px react-admin's create button is a floating button at the bottom right; while
              cards are selected the bulk bar stands there instead (creating is not an action on them). */}
          {definition?.hasCreate && list.selected.length === 0 && <CreateButton resource={resource.name} />}
          {!list.loading && hasRows && <ListContextPagination compact />}
          {children}
        </Box>
      </ListContextProvider>
    );
  }

  const dialogsOpen: ListDialogsOpen = { settings: settingsOpen, reorder: reorderOpen, views: viewsOpen };
  const closeDialog = (dialog: keyof ListDialogsOpen) =>
    ({ settings: setSettingsOpen, reorder: setReorderOpen, views: setViewsOpen })[dialog](false);
  return (
    <ListContextProvider value={list.context}>
      {/* Inline-size containment: a wide table scrolls inside its container instead of widening the page. */}
      <Box sx={{ p: 2, containerType: 'inline-size' }}>
        <Box
          sx={{
            display: 'flex',
            alignItems: 'center',
            justifyContent: 'space-between',
            flexWrap: 'wrap',
            gap: 1,
            mb: 1,
          }}
        >
          <Box sx={{ display: 'flex', alignItems: 'center', gap: 2 }}>
            <Typography variant="h5" component="h1" id={headingId}>
              {plural}
            </Typography>
            {/* Shown only where the resource has a create screen and the user may create (canAccess). */}
            {definition?.hasCreate && <CreateButton resource={resource.name} variant="contained" />}
          </Box>
          <ListToolbar
            range={list.range}
            onRefresh={refresh}
            onResetFilters={resetFilters}
            filterActive={filterActive}
            canExport={canExport}
            onExport={exportList}
            exporting={exporting}
            onCreatePreset={async (label, isDefault) => {
              const created = await presetsApi.create(label, settings, isDefault);
              if (created) {
                setActivePresetId(created.id);
                notify('list.saved', { type: 'success' });
              }
            }}
            onManageViews={() => setViewsOpen(true)}
            onOpenSettings={() => setSettingsOpen(true)}
            onReorder={canReorder ? () => setReorderOpen(true) : undefined}
            {...presetProps}
          />
        </Box>
        {defaultViewBar}
        <ListViewSwitches views={views} list={list} />
        {newRecords}
        <ListTable
          resource={resource}
          model={model}
          columns={columns}
          labelOf={labelOf}
          actionColumn={actionColumn}
          selectable={bulk.length > 0 || schemaBulk}
          headingId={headingId}
          loading={list.loading}
          failed={loadFailed}
          emptyText={emptyText}
          filterEpoch={list.filterEpoch}
          onFilter={list.setFilter}
          onOpen={open}
          widths={settings.widths}
          onResize={list.setWidth}
        />
        {bulkBars}
        {hasRows && <ListContextPagination />}
        {children}
        <ListDialogs
          resource={resource}
          model={model}
          settings={settings}
          labelOf={labelOf}
          open={dialogsOpen}
          onClose={closeDialog}
          onSaveLayout={saveLayout}
          canReorder={canReorder}
          onReordered={refresh}
          canPresets={canPresets}
          views={listViews}
        />
      </Box>
    </ListContextProvider>
  );
}
