/**
 * Which view a list shows (SPEC 4, issue 18 item 4): the user's saved presets (./usePresets.ts), the
 * schema's views (x-views, ./systemViews.ts), the user's choice of default view, and the start on that
 * view for a user without a layout of their own.
 */
import { useEffect, useRef, useState } from 'react';
import { useDataProvider, useNotify, useTranslate, type Identifier } from 'react-admin';
import type { Resource } from '../../../common/schema/types.ts';
import type { ServiceDeskDataProvider } from '../../dataProvider/index.ts';
import { storedConfig } from '../../dataProvider/storage.ts';
import { useNotifyError } from '../../shell/errors.ts';
import { hasActiveFilter, sameFilter } from './filters.ts';
import { presetFilter, presetSettings, type TablePreset } from './persistence.ts';
import type { ListModel } from './shape.ts';
import { choiceConfigName, presetKey, startView, useSystemViews, type SystemView } from './systemViews.ts';
import type { ListPersistence } from './useListPersistence.ts';
import type { ListScreenController } from './ListScreenController.ts';
import { usePresets } from './usePresets.ts';

/** The user's stored choice of default view for a route (./systemViews.ts), or null. */
function storedChoice(route: string): string | null {
  const value = storedConfig(choiceConfigName(route));
  return typeof value === 'string' && value !== '' ? value : null;
}

export function useListViews({
  resource,
  route,
  userId,
  model,
  list,
  persistence,
  canPresets,
  backoffice,
  onStarted,
}: {
  resource: Resource;
  route: string;
  userId: Identifier;
  model: ListModel;
  list: ListScreenController;
  persistence: ListPersistence;
  canPresets: boolean;
  /** The schema's views show in the back office only. */
  backoffice: boolean;
  /** The start view is in place (or there is none): the rows may be fetched. */
  onStarted: () => void;
}) {
  const translate = useTranslate();
  const notify = useNotify();
  const notifyError = useNotifyError();
  const dataProvider = useDataProvider<ServiceDeskDataProvider>();
  const { settings } = list;
  const [activePresetId, setActivePresetId] = useState<Identifier | undefined>(undefined);

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

  const presetsApi = usePresets({
    resource: resource.name,
    userId,
    enabled: canPresets,
    kindOf: model.kindOf,
  });
  const systemViews = useSystemViews(resource, userId, backoffice);
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
      onStarted();
    });
    // Once, in the first render where the views and presets are known, with that render's values.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [canStart]);
  const activePreset =
    presetsApi.presets.find((p) => p.id === activePresetId && sameFilter(presetFilter(p), settings.filter)) ??
    presetsApi.presets.find(
      (p) => sameFilter(presetFilter(p), settings.filter) && hasActiveFilter(settings.filter),
    );
  /** `filtering`: the rows are actually filtered. */
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

  return {
    presetsApi,
    systemViews: systemViews.views,
    canStart,
    activePresetId,
    setActivePresetId,
    activePreset,
    activeFilterName,
    applyView,
    applySystemView,
    currentViewKey,
    defaultViewKey,
    /** The user chose a default view of their own (or marked a preset default). */
    hasChoice: choice !== null || defaultPreset !== undefined,
    choosing,
    storeChoice,
  };
}

export type ListViews = ReturnType<typeof useListViews>;
