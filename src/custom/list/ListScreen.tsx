/**
 * The generic list screen of both apps (SPEC 2 "Generic list screen", 4, 5, 9), driven by the schema:
 * a table with header filters and sort toggles on a desktop (./ListTable.tsx), cards below 768 px.
 * Sort, filter, page and selection are react-admin's list controller's (./useListScreenController.ts),
 * provided as its list context; the layout is kept per user and route (./useListPersistence.ts); saved
 * table views come from ./usePresets.ts.
 */
import {
  lazy,
  Suspense,
  useCallback,
  useEffect,
  useId,
  useMemo,
  useRef,
  useState,
  type ReactNode,
} from 'react';
import Box from '@mui/material/Box';
import FormControlLabel from '@mui/material/FormControlLabel';
import Switch from '@mui/material/Switch';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import {
  CreateButton,
  ListContextProvider,
  useCreatePath,
  useDataProvider,
  useGetIdentity,
  useLocaleState,
  useNavigate,
  useNotify,
  usePermissions,
  useResourceDefinition,
  useTranslate,
  type Identifier,
  type RaRecord,
} from 'react-admin';
import type { Resource } from '../../../common/schema/types.ts';
import type { ServiceDeskDataProvider } from '../../dataProvider/index.ts';
import { onReload } from '../../dataProvider/reload.ts';
import { getUser, storedConfig } from '../../dataProvider/storage.ts';
import { permissionPrefix, useAppKind } from '../appKind.ts';
import { overrides } from '../../resources/override-contract.ts';
import { ColumnsDialog } from './ColumnsDialog.tsx';
import { hasActiveFilter, sameFilter } from './filters.ts';
import { ListContextPagination } from './ListPagination.tsx';
import { ListTable, TABLE_MIN_HEIGHT } from './ListTable.tsx';
import { ListToolbar } from './ListToolbar.tsx';
import { allowedBulkActions, BulkActionBar } from './bulkActions.tsx';
import { allowedListViews, listViews } from './listViews.ts';
// Only lists whose schema has x-bulk show it: its code loads with the first such list.
const SchemaBulkBar = lazy(() => import('./SchemaBulkBar.tsx'));
import { MobileList, SKELETON_ROWS } from './MobileList.tsx';
import {
  loadSettings,
  presetFilter,
  presetSettings,
  type TablePreset,
  type UserConfig,
} from './persistence.ts';
import { listModel, type ListModel } from './shape.ts';
import { useBrowserStorage, useListPersistence } from './useListPersistence.ts';
import { useListScreenController } from './useListScreenController.ts';
import { usePresets } from './usePresets.ts';
import { ReorderDialog } from './ReorderDialog.tsx';
import { useNotifyError } from '../../shell/errors.ts';
import { useLocation } from 'react-router-dom';
import { linkedFilter } from './linkedFilter.ts';
import { LoadFailed } from '../../shell/LoadFailed.tsx';
import { ViewsDialog } from './ViewsDialog.tsx';
import { DefaultViewBar } from './DefaultViewBar.tsx';
import { choiceConfigName, presetKey, startView, useSystemViews, type SystemView } from './systemViews.ts';
import { NewRecordsBar, useLiveList } from '../../live/NewRecordsBar.tsx';

/** SPEC 9: the mobile breakpoint is 768 px. */
export const MOBILE_QUERY = '(max-width:767.95px)';
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

function usePluralName(resource: Resource) {
  const translate = useTranslate();
  return translate(`resources.${resource.name}.name`, { smart_count: 2, _: resource.title });
}

/** The heading and skeleton rows while the user's identity loads. */
function ListPlaceholder({ resource }: { resource: Resource }) {
  const title = usePluralName(resource);
  return (
    <Box sx={{ p: 2 }}>
      <Typography variant="h5" component="h1">
        {title}
      </Typography>
      <Box sx={{ minHeight: TABLE_MIN_HEIGHT }} aria-busy>
        {Array.from({ length: SKELETON_ROWS }, (_, i) => (
          <Skeleton key={i} variant="text" height={36} />
        ))}
      </Box>
    </Box>
  );
}

function storedConfigs(): UserConfig[] | undefined {
  const configs = getUser()?.configs;
  return Array.isArray(configs) ? configs : undefined;
}

/** The user's stored choice of default view for a route (./systemViews.ts), or null. */
function storedChoice(route: string): string | null {
  const value = storedConfig(choiceConfigName(route));
  return typeof value === 'string' && value !== '' ? value : null;
}

/** What the user may do on this list, from their permissions (`<prefix>.<name>`). */
function useListPermissions(resource: Resource) {
  const appKind = useAppKind();
  const { permissions } = usePermissions();
  const prefix = permissionPrefix(appKind);
  const can = (name: string) => Array.isArray(permissions) && permissions.includes(`${prefix}.${name}`);
  const mayRun = (action: string) => can(`${resource.name}.${action}`);
  const backoffice = appKind === 'backoffice';
  return {
    canPresets: can('table-presets.store'),
    canExport: can('exports.index') && resource.actions.includes('index'),
    canReorder: backoffice && resource.actions.includes('update-order') && mayRun('update-order'),
    // Row selection shows only where the schema offers a bulk action the user may run.
    bulk: backoffice ? allowedBulkActions(resource.actions, mayRun) : [],
    // x-bulk: the fields need the update permission, each action its own.
    bulkFields: backoffice && resource.bulk && mayRun('update') ? resource.bulk.fields : [],
    bulkRuns: backoffice && resource.bulk ? resource.bulk.actions.filter(mayRun) : [],
    views: backoffice ? allowedListViews(resource.actions, mayRun) : [],
  };
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
  const dataProvider = useDataProvider<ServiceDeskDataProvider>();
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
  // known (below), so the first page fetched and shown is that view's, not the unfiltered list's.
  const [startDecided, setStartDecided] = useState(false);
  const list = useListScreenController({
    resource,
    model,
    initial: initial.settings,
    onError: notifyError,
    enabled: initial.source !== 'default' || startDecided,
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
  const [activePresetId, setActivePresetId] = useState<Identifier | undefined>(undefined);
  const [settingsOpen, setSettingsOpen] = useState(false);
  const [viewsOpen, setViewsOpen] = useState(false);
  const [reorderOpen, setReorderOpen] = useState(false);
  const [exporting, setExporting] = useState(false);
  const [locale] = useLocaleState();

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

  const saveLayout = async (layout: { columns: string[]; perPage: number }) => {
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

  const resetFilters = () => {
    list.replace({ ...settings, filter: {} });
    setActivePresetId(undefined);
  };

  /** A preset's columns, order, filter and page size, back on page 1 (SPEC 4). */
  const applyView = (preset: TablePreset, options: { keep: boolean }) => {
    const next = presetSettings(preset, settings, model);
    if (!options.keep) persistence.showWithoutKeeping(next);
    list.replace(next);
    setActivePresetId(preset.id);
  };

  /** A view of the schema's (x-views): its filter, the rest of the layout as it is, back on page 1. */
  const applySystemView = (view: SystemView, options: { keep: boolean }) => {
    const next = { ...settings, filter: view.filter };
    if (!options.keep) persistence.showWithoutKeeping(next);
    list.replace(next);
    setActivePresetId(undefined);
  };

  // ---- presets and views
  const presetsApi = usePresets({
    resource: resource.name,
    userId,
    enabled: canPresets,
    kindOf: model.kindOf,
  });
  const systemViews = useSystemViews(resource, userId, appKind === 'backoffice');
  const [choice, setChoice] = useState<string | null>(() => storedChoice(route));
  const [choosing, setChoosing] = useState(false);
  // A user without a layout of their own starts with their default view (issue 18 item 4): their
  // choice, else a preset marked default, else the schema's default view; once both are known.
  const canStart = systemViews.ready && !presetsApi.isPending;
  const started = useRef(false);
  useEffect(() => {
    if (started.current || !canStart) return;
    started.current = true;
    const own = persistence.hasOwnLayout();
    if (!own) persistence.claimLayout();
    const start = own ? undefined : startView(choice, systemViews.views, presetsApi.presets);
    // Applied as the answers that decided it are (as the presets' own load callback did before): a
    // change of the list's params, after this commit; the rows are fetched once it is in place.
    void Promise.resolve().then(() => {
      if (start?.preset) applyView(start.preset, { keep: false });
      else if (start?.system) applySystemView(start.system, { keep: false });
      setStartDecided(true);
    });
    // Once, in the first render where the views and presets are known, with that render's values.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [canStart]);
  const activePreset =
    presetsApi.presets.find((p) => p.id === activePresetId && sameFilter(presetFilter(p), settings.filter)) ??
    presetsApi.presets.find(
      (p) => sameFilter(presetFilter(p), settings.filter) && hasActiveFilter(settings.filter),
    );
  /** Something to reset (also a half-filled control); `filtering`: the rows are actually filtered. */
  const filterActive = hasActiveFilter(settings.filter);
  const filtering = Object.keys(list.providerFilter).length > 0;
  const activeSystemView = activePreset
    ? undefined
    : systemViews.views.find((v) => sameFilter(v.filter, settings.filter));
  const viewLabel = (view: SystemView) =>
    translate(`resources.${resource.name}.views.${view.name}`, { _: view.name });
  const activeFilterName = activePreset
    ? activePreset.label
    : activeSystemView
      ? viewLabel(activeSystemView)
      : translate(filtering ? 'list.custom_filter' : 'list.no_filter');
  const currentViewKey = activePreset ? presetKey(activePreset.id) : activeSystemView?.key;
  const defaultStart = startView(choice, systemViews.views, presetsApi.presets);
  const defaultViewKey = defaultStart?.preset ? presetKey(defaultStart.preset.id) : defaultStart?.system?.key;
  const defaultPreset = presetsApi.presets.find((p) => p.is_default);

  /** Stores the user's choice of default view (null: none, the standard one again). */
  const storeChoice = async (next: string | null) => {
    setChoosing(true);
    try {
      await dataProvider.saveConfigs([{ name: choiceConfigName(route), value: next }]);
      // A preset marked default would still come before the standard view: going back unmarks it.
      if (next === null && defaultPreset) await presetsApi.toggleDefault(defaultPreset);
      setChoice(next);
      notify(next === null ? 'list.default_view.reset' : 'list.default_view.saved', { type: 'success' });
      return true;
    } catch (error) {
      notifyError(error);
      return false;
    } finally {
      setChoosing(false);
    }
  };
  // Shown once the list can start on its view (the same commit): a choice made before would race it.
  const defaultViewBar =
    canStart && systemViews.views.length > 0 ? (
      <DefaultViewBar
        resource={resource.name}
        views={systemViews.views}
        presets={presetsApi.presets}
        currentKey={currentViewKey}
        defaultKey={defaultViewKey}
        hasChoice={choice !== null || defaultPreset !== undefined}
        busy={choosing}
        onShow={(key) => {
          const view = systemViews.views.find((v) => v.key === key);
          const preset = presetsApi.presets.find((p) => presetKey(p.id) === key);
          if (view) applySystemView(view, { keep: true });
          else if (preset) applyView(preset, { keep: true });
        }}
        onUseAsDefault={(key) => void storeChoice(key)}
        onBackToStandard={() => {
          void storeChoice(null).then((done) => {
            const standard = systemViews.views.find((v) => v.isDefault);
            if (done && standard) applySystemView(standard, { keep: true });
          });
        }}
      />
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

  const exportList = async () => {
    setExporting(true);
    try {
      // The file holds what the table shows: its filter and order, its columns under their headers.
      const message = await dataProvider.exportList(resource.name, {
        userId,
        filter: list.providerFilter,
        sort: { field: settings.sort[0], order: settings.sort[1] },
        columns: settings.columns.map((name) => ({ name, label: labelOf(name) })),
        locale,
      });
      notify(message || 'list.export_started', { type: 'success', messageArgs: { _: message } });
    } catch (error) {
      const message = (error as { message?: string } | null)?.message;
      notify(message || 'ra.notification.http_error', { type: 'error', messageArgs: { _: message } });
    } finally {
      setExporting(false);
    }
  };

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
    onApplyPreset: (preset: TablePreset) => applyView(preset, { keep: true }),
  };

  // The bulk bars, above the table or the phone's cards alike (the selection is the list's).
  const onBulkDone = () => {
    list.context.onUnselectItems();
    refresh();
  };
  const bulkBars = (
    <>
      {bulk.length > 0 && (
        <BulkActionBar resource={resource.name} actions={bulk} selected={list.selected} onDone={onBulkDone} />
      )}
      {schemaBulk && (
        <Suspense fallback={null}>
          <SchemaBulkBar
            resource={resource}
            fields={bulkFields}
            actions={bulkRuns}
            selected={list.selected}
            pageCount={list.context.data?.length ?? 0}
            total={list.range?.total ?? 0}
            providerFilter={list.providerFilter}
            onDone={onBulkDone}
          />
        </Suspense>
      )}
    </>
  );

  if (isMobile) {
    return (
      <ListContextProvider value={list.context}>
        <Box sx={{ p: 1 }}>
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
            activeFilterName={activeFilterName}
            onOpen={open}
            actionColumn={actionColumn}
            viewBar={defaultViewBar}
            selectable={bulk.length > 0 || schemaBulk}
            bulkBars={bulkBars}
            {...presetProps}
          />
          {/* Below 768 px react-admin's create button is a floating button at the bottom right. */}
          {definition?.hasCreate && <CreateButton resource={resource.name} />}
          {!list.loading && hasRows && <ListContextPagination compact />}
          {children}
        </Box>
      </ListContextProvider>
    );
  }

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
        {views.length > 0 && (
          <Box sx={{ display: 'flex', gap: 2, flexWrap: 'wrap' }}>
            {views.map((view) => (
              <FormControlLabel
                key={view}
                control={
                  <Switch
                    checked={list.listView === view}
                    onChange={(event) => list.setListView(event.target.checked ? view : undefined)}
                  />
                }
                label={translate(listViews[view]!.label)}
              />
            ))}
          </Box>
        )}
        {bulkBars}
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
        />
        {hasRows && <ListContextPagination />}
        {children}
        <ColumnsDialog
          open={settingsOpen}
          available={model.columns}
          defaultColumns={model.defaultColumns}
          columns={settings.columns}
          perPage={settings.perPage}
          labelOf={labelOf}
          onClose={() => setSettingsOpen(false)}
          onSave={saveLayout}
        />
        {/* Mounted while open: each opening reads the current order afresh. */}
        {canReorder && reorderOpen && (
          <ReorderDialog
            open={reorderOpen}
            resource={resource}
            onClose={() => setReorderOpen(false)}
            onSaved={refresh}
          />
        )}
        {canPresets && (
          <ViewsDialog
            open={viewsOpen}
            presets={presetsApi.presets}
            onClose={() => setViewsOpen(false)}
            onRename={presetsApi.rename}
            onDelete={(preset) => {
              if (preset.id === activePresetId) setActivePresetId(undefined);
              void presetsApi.remove(preset);
            }}
            onReorder={presetsApi.reorder}
            onToggleDefault={presetsApi.toggleDefault}
          />
        )}
      </Box>
    </ListContextProvider>
  );
}
