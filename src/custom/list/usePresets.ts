/**
 * The user's saved table views (the `table-presets` resource, `type` = the list's resource) with their
 * result counts (`GET /api/presets-result-count/{resource}`), and the calls that change them.
 */
import { useCallback, useEffect, useState } from 'react';
import { useDataProvider, useGetList, useNotify, type Identifier } from 'react-admin';
import type { ServiceDeskDataProvider } from '../../dataProvider/index.ts';
import { toProviderFilter, type FilterKind } from './filters.ts';
import { presetFields, presetFilter, type ListSettings, type TablePreset } from './persistence.ts';

export const PRESETS_RESOURCE = 'table-presets';

export interface PresetsApi {
  presets: TablePreset[];
  counts: Record<string, number>;
  isPending: boolean;
  refetch: () => void;
  create: (label: string, settings: ListSettings, isDefault: boolean) => Promise<TablePreset | undefined>;
  rename: (preset: TablePreset, label: string) => Promise<void>;
  remove: (preset: TablePreset) => Promise<void>;
  reorder: (ids: string[]) => Promise<void>;
  toggleDefault: (preset: TablePreset) => Promise<void>;
}

export function usePresets(options: {
  resource: string;
  userId: Identifier | undefined;
  enabled: boolean;
  kindOf: (field: string) => FilterKind | undefined;
  onLoaded?: (presets: TablePreset[]) => void;
}): PresetsApi {
  const { resource, userId, enabled, kindOf, onLoaded } = options;
  const dataProvider = useDataProvider<ServiceDeskDataProvider>();
  const notify = useNotify();
  const filter: Record<string, unknown> = { type: resource };
  if (userId !== undefined && userId !== '') filter.user_id = userId;
  const { data, isPending, refetch } = useGetList<TablePreset & { id: Identifier }>(
    PRESETS_RESOURCE,
    {
      pagination: { page: 1, perPage: 100 },
      sort: { field: 'order', order: 'ASC' },
      filter,
      meta: { list: `presets:${resource}` },
    },
    { enabled, onSuccess: (result) => onLoaded?.(result.data) },
  );
  // While a drag-reorder is being saved, the new order shows.
  const [pendingOrder, setPendingOrder] = useState<string[] | null>(null);
  const loaded = enabled ? (data ?? []) : [];
  const presets = pendingOrder
    ? [...loaded].sort((a, b) => pendingOrder.indexOf(String(a.id)) - pendingOrder.indexOf(String(b.id)))
    : loaded;

  const [counts, setCounts] = useState<Record<string, number>>({});
  const [countsVersion, setCountsVersion] = useState(0);
  useEffect(() => {
    if (!enabled || presets.length === 0) return;
    const controller = new AbortController();
    const now = new Date();
    dataProvider
      .presetCounts(
        resource,
        presets.map((p) => ({ id: p.id, filter: toProviderFilter(presetFilter(p), kindOf, now) })),
        { signal: controller.signal },
      )
      .then((answer) => {
        setCounts(Object.fromEntries((answer ?? []).map((c) => [String(c.id), Number(c.count)])));
      })
      .catch(() => {
        // Counts are a hint; the list itself still works (the provider reports real errors).
      });
    return () => controller.abort();
    // Count again when the presets change or the list reloads.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [dataProvider, resource, enabled, JSON.stringify(presets), countsVersion]);

  const reload = useCallback(() => {
    void refetch();
    setCountsVersion((v) => v + 1);
  }, [refetch]);

  const failed = useCallback(
    (error: unknown) => {
      const message = (error as { message?: string } | null)?.message;
      notify(message || 'ra.notification.http_error', { type: 'error', messageArgs: { _: message } });
    },
    [notify],
  );

  const create = async (label: string, settings: ListSettings, isDefault: boolean) => {
    try {
      const order = presets.reduce((max, p) => Math.max(max, Number(p.order ?? 0)), 0) + 1;
      const { data: created } = await dataProvider.create<TablePreset & { id: Identifier }>(
        PRESETS_RESOURCE,
        {
          data: {
            label,
            type: resource,
            styling: null,
            ...presetFields(settings),
            order,
            is_default: isDefault,
          },
        },
      );
      reload();
      return created;
    } catch (error) {
      failed(error);
      return undefined;
    }
  };

  const rename = async (preset: TablePreset, label: string) => {
    try {
      await dataProvider.update(PRESETS_RESOURCE, { id: preset.id, data: { label }, previousData: preset });
      reload();
    } catch (error) {
      failed(error);
    }
  };

  const remove = async (preset: TablePreset) => {
    try {
      await dataProvider.delete(PRESETS_RESOURCE, { id: preset.id, previousData: preset });
      reload();
    } catch (error) {
      failed(error);
    }
  };

  const reorder = async (ids: string[]) => {
    setPendingOrder(ids);
    try {
      const changed = ids
        .map((id, index) => ({ preset: loaded.find((p) => String(p.id) === id), order: index + 1 }))
        .filter(({ preset, order }) => preset && Number(preset.order) !== order);
      for (const { preset, order } of changed)
        await dataProvider.updateOrder(PRESETS_RESOURCE, preset!.id, order);
    } catch (error) {
      failed(error);
    }
    await refetch();
    setPendingOrder(null);
  };

  const toggleDefault = async (preset: TablePreset) => {
    try {
      // The server clears the other defaults of this user and list; the refetch shows its answer.
      await dataProvider.update(PRESETS_RESOURCE, {
        id: preset.id,
        data: { is_default: !preset.is_default },
        previousData: preset,
      });
      reload();
    } catch (error) {
      failed(error);
    }
  };

  return {
    presets,
    counts,
    isPending: enabled && isPending,
    refetch: reload,
    create,
    rename,
    remove,
    reorder,
    toggleDefault,
  };
}
