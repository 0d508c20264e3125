/**
 * The generic list screen of both apps (SPEC 2 "Generic list screen", 4, 5, 9), driven by the schema:
 * a table with header filters and sort toggles on a desktop, cards below 768 px; layout, filters, sort
 * and page size kept per user and route (./persistence.ts); saved table views (./usePresets.ts).
 */
import { useEffect, useId, useMemo, useState } from 'react';
import Box from '@mui/material/Box';
import FormControlLabel from '@mui/material/FormControlLabel';
import Switch from '@mui/material/Switch';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import {
  CreateButton,
  useCreatePath,
  useDataProvider,
  useGetIdentity,
  useGetList,
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
import { getUser } from '../../dataProvider/storage.ts';
import { ellipsisLimit, fieldAlign, FieldDisplay, fieldKind } from '../../resources/fieldTypes.tsx';
import { permissionPrefix, useAppKind } from '../appKind.ts';
import { overrides } from '../../resources/overrides.ts';
import { ColumnsDialog } from './ColumnsDialog.tsx';
import { ACTION_COLUMN_WEIGHT, columnLayout, columnWeight, headerWeight } from './columnWidths.ts';
import { CELL_PADDING_X, CLIPPED_CELL_SX, titleWhenClipped } from './clipped.ts';
import { hasActiveFilter, sameFilter, toProviderFilter } from './filters.ts';
import { HeaderCell } from './HeaderCell.tsx';
import { ListPagination } from './ListPagination.tsx';
import { ListToolbar } from './ListToolbar.tsx';
import { allowedBulkActions, BulkActionBar, SelectCell } from './bulkActions.tsx';
import { allowedListViews, listViews } from './listViews.ts';
import { MobileList, SKELETON_ROWS } from './MobileList.tsx';
import { lastPageOf, rangeOf } from './pageItems.ts';
import {
  applyPreset,
  loadSettings,
  presetFilter,
  saveLocal,
  toConfig,
  type Direction,
  type ListSettings,
  type TablePreset,
  type UserConfig,
} from './persistence.ts';
import { listModel, type ListModel } from './shape.ts';
import { useDebounced } from './useDebounced.ts';
import { usePresets } from './usePresets.ts';
import { ReorderDialog } from './ReorderDialog.tsx';
import { isAbort, useNotifyError } from '../../shell/errors.ts';
import { LoadFailed } from '../../shell/LoadFailed.tsx';
import { ViewsDialog } from './ViewsDialog.tsx';

/** SPEC 9: the mobile breakpoint is 768 px. */
export const MOBILE_QUERY = '(max-width:767.95px)';
/** SPEC 9: the table is at least 360 px high. */
export const TABLE_MIN_HEIGHT = 360;
/** MUI's checkbox cell (padding="checkbox") is this wide. */
const CHECKBOX_COLUMN_PX = 48;

/** A header cell of the action column, like HeaderCell's. */
const HEADER_CELL_SX = { px: CELL_PADDING_X, verticalAlign: 'bottom', fontWeight: 600 } as const;

/** Filter and sort changes reach the server's copy this long after the last one. */
const SERVER_SAVE_DELAY_MS = 1000;

export interface ListScreenProps {
  resource: Resource;
  /** The route the layout is kept for; the list route's name by default (`tickets.index`). */
  route?: string;
}

export function ListScreen({ resource, route }: ListScreenProps) {
  const { identity, isPending } = useGetIdentity();
  const routeName = route ?? `${resource.name}.index`;
  if (isPending) return <ListPlaceholder resource={resource} />;
  const userId = identity?.id ?? '';
  return <ListView key={`${userId}:${routeName}`} resource={resource} route={routeName} userId={userId} />;
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

/** localStorage, or nothing where the browser refuses it. */
function browserStorage(): Pick<Storage, 'getItem' | 'setItem'> {
  try {
    if (typeof window !== 'undefined' && window.localStorage) return window.localStorage;
  } catch {
    // storage disabled
  }
  return { getItem: () => null, setItem: () => undefined };
}

function storedConfigs(): UserConfig[] | undefined {
  const configs = getUser()?.configs;
  return Array.isArray(configs) ? configs : undefined;
}

function ListView({ resource, route, userId }: { resource: Resource; route: string; userId: Identifier }) {
  const appKind = useAppKind();
  const actionColumn = overrides[appKind][resource.name]?.actionColumn;
  const translate = useTranslate();
  const notify = useNotify();
  const notifyError = useNotifyError();
  const navigate = useNavigate();
  const createPath = useCreatePath();
  const definition = useResourceDefinition({ resource: resource.name });
  const dataProvider = useDataProvider<ServiceDeskDataProvider>();
  const { permissions } = usePermissions();
  const isMobile = useMediaQuery(MOBILE_QUERY);
  const headingId = useId();
  const model: ListModel = useMemo(() => listModel(resource, appKind), [resource, appKind]);
  const storage = useMemo(() => browserStorage(), []);

  const [initial] = useState(() =>
    loadSettings({ storage, userId, route, configs: storedConfigs(), shape: model }),
  );
  const [settings, setSettings] = useState<ListSettings>(initial.settings);
  const [page, setPage] = useState(1);
  /** Bumped when the filter is replaced from outside the header controls (reset, preset). */
  const [filterEpoch, setFilterEpoch] = useState(0);
  /** The moment date presets ('today', 'future') are relative to; moves on every change and reload. */
  const [clock, setClock] = useState(() => Date.now());
  const [activePresetId, setActivePresetId] = useState<Identifier | undefined>(undefined);
  /** Whether the user's own layout is showing (else the default view may still be applied). */
  const [ownLayout, setOwnLayout] = useState(initial.source !== 'default');
  const [settingsOpen, setSettingsOpen] = useState(false);
  const [viewsOpen, setViewsOpen] = useState(false);
  const [reorderOpen, setReorderOpen] = useState(false);
  const [exporting, setExporting] = useState(false);
  const [locale] = useLocaleState();

  const prefix = permissionPrefix(appKind);
  const can = (name: string) => Array.isArray(permissions) && permissions.includes(`${prefix}.${name}`);
  const canPresets = can('table-presets.store');
  const canExport = can('exports.index') && resource.actions.includes('index');
  const canReorder =
    appKind === 'backoffice' &&
    resource.actions.includes('update-order') &&
    can(`${resource.name}.update-order`);
  // Row selection shows only where the schema offers a bulk action the user may run.
  const bulk =
    appKind === 'backoffice' ? allowedBulkActions(resource.actions, (a) => can(`${resource.name}.${a}`)) : [];
  const [selected, setSelected] = useState<Identifier[]>([]);
  const views =
    appKind === 'backoffice' ? allowedListViews(resource.actions, (a) => can(`${resource.name}.${a}`)) : [];
  const [listView, setListView] = useState<string | undefined>(undefined);

  const plural = usePluralName(resource);
  const labelOf = (field: string) =>
    translate(`resources.${resource.name}.fields.${field}`, { _: field.replace(/_/g, ' ') });
  const modelName = translate(`resources.${resource.name}.name`, { smart_count: 2, _: resource.title });
  const emptyText = translate(`resources.${resource.name}.empty`, {
    _: translate('list.empty', { model: modelName.toLocaleLowerCase() }),
  });

  // ---- persistence
  const saveServerLater = useDebounced((next: ListSettings) => {
    dataProvider.saveConfigs([toConfig(route, next)]).catch(() => {
      // The local copy holds it; the provider reports the failure.
    });
  }, SERVER_SAVE_DELAY_MS);

  const change = (next: ListSettings, options: { resetPage?: boolean; external?: boolean } = {}) => {
    setSettings(next);
    setOwnLayout(true);
    saveLocal(storage, userId, route, next);
    saveServerLater(next);
    if (options.resetPage) setPage(1);
    if (options.external) setFilterEpoch((e) => e + 1);
    if (next.filter !== settings.filter) setClock(Date.now());
  };

  const saveLayout = async (layout: { columns: string[]; perPage: number }) => {
    const next = { ...settings, ...layout };
    setSettings(next);
    setOwnLayout(true);
    setSettingsOpen(false);
    if (layout.perPage !== settings.perPage) setPage(1);
    saveLocal(storage, userId, route, next);
    saveServerLater.cancel();
    try {
      await dataProvider.saveConfigs([toConfig(route, next)]);
      notify('list.saved', { type: 'success' });
    } catch (error) {
      const message = (error as { message?: string } | null)?.message;
      notify(message || 'ra.notification.http_error', { type: 'error', messageArgs: { _: message } });
    }
  };

  const setFilter = (field: string, value: unknown) => {
    const filter = { ...settings.filter };
    if (value === undefined) delete filter[field];
    else filter[field] = value;
    change({ ...settings, filter }, { resetPage: true });
  };

  const setSort = (field: string, direction: Direction) =>
    change({ ...settings, sort: [field, direction] }, { resetPage: true });

  const resetFilters = () => {
    change({ ...settings, filter: {} }, { resetPage: true, external: true });
    setActivePresetId(undefined);
  };

  const applyView = (preset: TablePreset, options: { persist: boolean }) => {
    const next = applyPreset({ settings, page }, preset, model);
    if (options.persist) change(next.settings, { external: true });
    else {
      setSettings(next.settings);
      setFilterEpoch((e) => e + 1);
      setClock(Date.now());
    }
    setPage(next.page);
    setActivePresetId(preset.id);
  };

  // ---- presets
  const presetsApi = usePresets({
    resource: resource.name,
    userId,
    enabled: canPresets,
    kindOf: model.kindOf,
    onLoaded: (presets) => {
      // A user without a layout of their own starts with their default view.
      if (ownLayout) return;
      setOwnLayout(true);
      const preferred = presets.find((p) => p.is_default);
      if (preferred) applyView(preferred, { persist: false });
    },
  });
  const providerFilter = useMemo(
    () => toProviderFilter(settings.filter, model.kindOf, new Date(clock)),
    [settings.filter, model, clock],
  );
  const activePreset =
    presetsApi.presets.find((p) => p.id === activePresetId && sameFilter(presetFilter(p), settings.filter)) ??
    presetsApi.presets.find(
      (p) => sameFilter(presetFilter(p), settings.filter) && hasActiveFilter(settings.filter),
    );
  /** Something to reset (also a half-filled control); `filtering`: the rows are actually filtered. */
  const filterActive = hasActiveFilter(settings.filter);
  const filtering = Object.keys(providerFilter).length > 0;
  const activeFilterName = activePreset
    ? activePreset.label
    : translate(filtering ? 'list.custom_filter' : 'list.no_filter');

  // ---- data
  const withRelations = useMemo(() => model.relationsFor(settings.columns), [model, settings.columns]);
  const {
    data: records,
    total,
    isPending,
    isPlaceholderData,
    isFetching,
    error,
    refetch,
  } = useGetList(
    resource.name,
    {
      pagination: { page, perPage: settings.perPage },
      sort: { field: settings.sort[0], order: settings.sort[1] === 'desc' ? 'DESC' : 'ASC' },
      filter: providerFilter,
      meta:
        withRelations.length > 0 || listView
          ? {
              ...(withRelations.length > 0 && { with: withRelations }),
              ...(listView && { listAction: listView }),
            }
          : undefined,
    },
    {
      placeholderData: (previous) => previous,
      // A failed load is said at once (toast, then the error state and its retry button), not after
      // three silent retries behind the skeleton.
      retry: false,
      onError: notifyError,
      onSuccess: (result) => {
        const last = lastPageOf(result.total ?? 0, settings.perPage);
        if (page > last) setPage(last);
      },
    },
  );
  // No rows to show because the load failed (rows shown before stay when a reload fails).
  const failed = !!error && !isAbort(error) && !records;
  const loading = isPending || isPlaceholderData || (failed && isFetching);
  const range = total === undefined ? undefined : rangeOf(page, settings.perPage, total);
  const lastPage = lastPageOf(total ?? 0, settings.perPage);

  const reloadPresets = presetsApi.refetch;
  useEffect(
    () =>
      onReload(() => {
        setClock(Date.now());
        void refetch();
        reloadPresets();
      }),
    [refetch, reloadPresets],
  );
  // A selection is of the rows shown: rows that left the page (another page, filter) drop out of it.
  const pageIds = (records ?? []).map((r) => r.id);
  const chosen = selected.filter((id) => pageIds.includes(id));
  const toggle = (id: Identifier, on: boolean) =>
    setSelected((ids) => (on ? [...ids.filter((x) => x !== id), id] : ids.filter((x) => x !== id)));
  const selectCell = (record: RaRecord) => (
    <SelectCell
      checked={chosen.includes(record.id)}
      label={translate('app.bulk.select_row', { label: String(record[resource.label] ?? record.id) })}
      onChange={(on) => toggle(record.id, on)}
    />
  );
  const refresh = () => {
    setClock(Date.now());
    void refetch();
    reloadPresets();
  };
  const loadFailed =
    failed && !loading ? <LoadFailed text="app.errors.list_failed" onRetry={refresh} /> : null;

  const exportList = async () => {
    setExporting(true);
    try {
      // The file holds what the table shows: its filter and order, its columns under their headers.
      const message = await dataProvider.exportList(resource.name, {
        userId,
        filter: providerFilter,
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

  const open = (record: RaRecord) =>
    navigate(
      createPath({ resource: resource.name, id: record.id, type: definition?.hasShow ? 'show' : 'edit' }),
    );

  const columns = settings.columns.map((name) => model.fields[name]!).filter(Boolean);
  // The columns share the table's width (fixed layout); the checkbox column keeps its 48 px.
  const layout = columnLayout(
    [
      ...columns.map((f) =>
        Math.max(
          columnWeight(fieldKind(resource, f), ellipsisLimit(resource.name, f.name)),
          headerWeight(labelOf(f.name), model.sortable.includes(f.name)),
        ),
      ),
      ...(actionColumn
        ? [Math.max(ACTION_COLUMN_WEIGHT, headerWeight(translate(actionColumn.label), false))]
        : []),
    ],
    bulk.length > 0 ? CHECKBOX_COLUMN_PX : 0,
  );
  const presetProps = {
    canPresets,
    presets: presetsApi.presets,
    counts: presetsApi.counts,
    activePresetId: activePreset?.id,
    onApplyPreset: (preset: TablePreset) => applyView(preset, { persist: true }),
  };

  if (isMobile) {
    const titleField = model.fields[resource.label];
    return (
      <Box sx={{ p: 1 }}>
        <MobileList
          resource={resource}
          title={plural}
          headingId={headingId}
          columns={columns}
          labelOf={labelOf}
          titleField={titleField}
          records={records ?? []}
          loading={loading}
          failed={loadFailed}
          emptyText={emptyText}
          range={range}
          filterActive={filterActive}
          onResetFilters={resetFilters}
          activeFilterName={activeFilterName}
          onOpen={open}
          actionColumn={actionColumn}
          {...presetProps}
        />
        {/* Below 768 px react-admin's create button is a floating button at the bottom right. */}
        {definition?.hasCreate && <CreateButton resource={resource.name} />}
        {!loading && (total ?? 0) > 0 && (
          <ListPagination page={page} lastPage={lastPage} onPage={setPage} compact />
        )}
      </Box>
    );
  }

  return (
    // Inline-size containment: a wide table scrolls inside its container instead of widening the page.
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
          range={range}
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
      {views.length > 0 && (
        <Box sx={{ display: 'flex', gap: 2, flexWrap: 'wrap' }}>
          {views.map((view) => (
            <FormControlLabel
              key={view}
              control={
                <Switch
                  checked={listView === view}
                  onChange={(event) => {
                    setListView(event.target.checked ? view : undefined);
                    setPage(1);
                  }}
                />
              }
              label={translate(listViews[view]!.label)}
            />
          ))}
        </Box>
      )}
      {bulk.length > 0 && (
        <BulkActionBar
          resource={resource.name}
          actions={bulk}
          selected={chosen}
          onDone={() => {
            setSelected([]);
            refresh();
          }}
        />
      )}
      {/* Focusable and named: a wide table scrolls sideways inside it, by keyboard too. */}
      <TableContainer
        component={Paper}
        variant="outlined"
        sx={{ minHeight: TABLE_MIN_HEIGHT }}
        tabIndex={0}
        role="group"
        aria-labelledby={headingId}
      >
        <Table
          size="small"
          aria-labelledby={headingId}
          aria-busy={loading}
          sx={{ tableLayout: 'fixed', width: '100%', minWidth: layout.minWidth }}
        >
          <TableHead>
            <TableRow>
              {bulk.length > 0 && (
                <SelectCell
                  header
                  checked={pageIds.length > 0 && chosen.length === pageIds.length}
                  indeterminate={chosen.length > 0 && chosen.length < pageIds.length}
                  label={translate('app.bulk.select_all')}
                  onChange={(on) => setSelected(on ? pageIds : [])}
                />
              )}
              {columns.map((field, i) => (
                <HeaderCell
                  key={field.name}
                  resource={resource}
                  field={field}
                  width={layout.widths[i]!}
                  label={labelOf(field.name)}
                  filterLabel={translate('list.filter.label', { field: labelOf(field.name) })}
                  sort={settings.sort}
                  sortable={model.sortable.includes(field.name)}
                  filterable={model.kindOf(field.name) !== undefined}
                  filterValue={settings.filter[field.name]}
                  filterEpoch={filterEpoch}
                  onSort={setSort}
                  onFilter={setFilter}
                />
              ))}
              {actionColumn && (
                <TableCell
                  component="th"
                  scope="col"
                  sx={{ ...HEADER_CELL_SX, width: layout.widths[columns.length] }}
                >
                  {translate(actionColumn.label)}
                </TableCell>
              )}
            </TableRow>
          </TableHead>
          <TableBody>
            {loading ? (
              Array.from({ length: SKELETON_ROWS }, (_, i) => (
                <TableRow key={`skeleton-${i}`} data-testid="skeleton-row">
                  {bulk.length > 0 && <TableCell padding="checkbox" />}
                  {columns.map((field) => (
                    <TableCell key={field.name}>
                      <Skeleton variant="text" />
                    </TableCell>
                  ))}
                  {actionColumn && <TableCell />}
                </TableRow>
              ))
            ) : loadFailed ? (
              <TableRow>
                <TableCell
                  colSpan={Math.max(1, columns.length + (actionColumn ? 1 : 0) + (bulk.length > 0 ? 1 : 0))}
                >
                  {loadFailed}
                </TableCell>
              </TableRow>
            ) : (records ?? []).length === 0 ? (
              <TableRow>
                <TableCell
                  colSpan={Math.max(1, columns.length + (actionColumn ? 1 : 0) + (bulk.length > 0 ? 1 : 0))}
                  sx={{ py: 6, textAlign: 'center' }}
                >
                  <Typography variant="body1" color="text.primary">
                    {emptyText}
                  </Typography>
                </TableCell>
              </TableRow>
            ) : (
              (records ?? []).map((record) => (
                <TableRow
                  key={record.id}
                  hover
                  tabIndex={0}
                  onClick={() => open(record)}
                  onKeyDown={(event) => {
                    if (event.key === 'Enter' && event.target === event.currentTarget) open(record);
                  }}
                  sx={{ cursor: 'pointer', '&:focus-visible': { outline: 2, outlineColor: 'primary.main' } }}
                >
                  {bulk.length > 0 && selectCell(record)}
                  {columns.map((field) => (
                    <TableCell
                      key={field.name}
                      align={fieldAlign(resource, field)}
                      sx={CLIPPED_CELL_SX}
                      onMouseEnter={titleWhenClipped}
                    >
                      <FieldDisplay resource={resource} field={field} record={record} />
                    </TableCell>
                  ))}
                  {actionColumn && (
                    <TableCell sx={CLIPPED_CELL_SX}>
                      <actionColumn.Cell record={record} />
                    </TableCell>
                  )}
                </TableRow>
              ))
            )}
          </TableBody>
        </Table>
      </TableContainer>
      {(total ?? 0) > 0 && <ListPagination page={page} lastPage={lastPage} onPage={setPage} />}
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
  );
}
