/**
 * SPEC 4: a list's column layout, filters, sort order and page size are kept per user and route, in
 * localStorage (key `list:<userId>:<route>`) and in the server-side user configs (name `list:<route>`).
 * Table presets (saved table views) hold the same four things as JSON strings. Pure functions.
 *
 * Stored value (both places): `{ columns: string[], sort: [field, 'asc' | 'desc'], filter: FilterState,
 * perPage: number, widths?: { [column]: px } }`; `widths` (issue 37, item 5) holds the columns the user
 * sized and is left out while there are none, so a layout without it reads as before.
 */
import { sanitizeColumns } from './columns.ts';
import { sanitizeWidths } from './columnWidths.ts';
import { builderToFilterState, type FilterState } from './filters.ts';

export type Direction = 'asc' | 'desc';
export type SortPair = [field: string, direction: Direction];

export interface ListSettings {
  columns: string[];
  sort: SortPair;
  filter: FilterState;
  perPage: number;
  /** The widths in pixels of the columns the user sized (./columnWidths.ts); the others follow the schema. */
  widths: Record<string, number>;
}

/** SPEC 9: page-size options and the default. */
export const PAGE_SIZES = [5, 15, 25, 50, 100] as const;
export const DEFAULT_PER_PAGE = 15;

/** What a list may show: from the resource's schema and the app (portal clients see fewer fields). */
export interface ListShape {
  /** Every column the user may show, in schema order. */
  columns: string[];
  /** The schema's `x-list` columns. */
  defaultColumns: string[];
  /** Fields the user may sort on. */
  sortable: string[];
  /** The schema's `x-default-sort`. */
  defaultSort: SortPair;
}

export function defaultSettings(shape: ListShape): ListSettings {
  return {
    columns: [...(shape.defaultColumns.length ? shape.defaultColumns : shape.columns.slice(0, 5))],
    sort: [...shape.defaultSort],
    filter: {},
    perPage: DEFAULT_PER_PAGE,
    widths: {},
  };
}

export const storageKey = (userId: string | number, route: string) => `list:${userId}:${route}`;
export const configName = (route: string) => `list:${route}`;

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

function parseJson(raw: unknown): unknown {
  if (typeof raw !== 'string') return raw;
  try {
    return JSON.parse(raw);
  } catch {
    return undefined;
  }
}

export function sanitizePerPage(value: unknown, fallback: number = DEFAULT_PER_PAGE): number {
  const n = Number(value);
  return (PAGE_SIZES as readonly number[]).includes(n) ? n : fallback;
}

export function sanitizeSort(
  value: unknown,
  shape: ListShape,
  fallback: SortPair = shape.defaultSort,
): SortPair {
  const pair = parseJson(value);
  if (Array.isArray(pair) && typeof pair[0] === 'string' && shape.sortable.includes(pair[0])) {
    const dir = String(pair[1]).toLowerCase();
    return [pair[0], dir === 'desc' ? 'desc' : 'asc'];
  }
  return [...fallback];
}

function parseFilter(value: unknown): FilterState {
  const parsed = parseJson(value);
  if (Array.isArray(parsed)) return builderToFilterState(parsed);
  return isObject(parsed) ? { ...parsed } : {};
}

/** A stored value (object or JSON text) as settings that fit the list; undefined when it is not one. */
export function parseSettings(raw: unknown, shape: ListShape): ListSettings | undefined {
  const value = parseJson(raw);
  if (!isObject(value)) return undefined;
  const defaults = defaultSettings(shape);
  return {
    columns: sanitizeColumns(
      Array.isArray(value.columns) ? value.columns : undefined,
      shape.columns,
      defaults.columns,
    ),
    sort: sanitizeSort(value.sort, shape),
    filter: parseFilter(value.filter),
    perPage: sanitizePerPage(value.perPage),
    widths: sanitizeWidths(value.widths, shape.columns),
  };
}

/** The stored value: a plain JSON-able object. */
export function serializeSettings(settings: ListSettings): Record<string, unknown> {
  return {
    columns: [...settings.columns],
    sort: [...settings.sort],
    filter: { ...settings.filter },
    perPage: settings.perPage,
    ...(Object.keys(settings.widths).length > 0 && { widths: { ...settings.widths } }),
  };
}

export function loadLocal(
  storage: Pick<Storage, 'getItem'>,
  userId: string | number,
  route: string,
  shape: ListShape,
): ListSettings | undefined {
  try {
    const raw = storage.getItem(storageKey(userId, route));
    return raw === null ? undefined : parseSettings(raw, shape);
  } catch {
    return undefined;
  }
}

export function saveLocal(
  storage: Pick<Storage, 'setItem'>,
  userId: string | number,
  route: string,
  settings: ListSettings,
): void {
  try {
    storage.setItem(storageKey(userId, route), JSON.stringify(serializeSettings(settings)));
  } catch {
    // Private mode or a full storage: the server copy still holds the layout.
  }
}

export interface UserConfig {
  name: string;
  value: unknown;
}

/** The server-side copy among the user's configs (`GET /api/auth/me`), if any. */
export function fromConfigs(
  configs: readonly UserConfig[] | undefined,
  route: string,
  shape: ListShape,
): ListSettings | undefined {
  const config = configs?.find((c) => c?.name === configName(route));
  return config ? parseSettings(config.value, shape) : undefined;
}

/** The config entry `saveConfigs` sends. */
export function toConfig(route: string, settings: ListSettings): UserConfig {
  return { name: configName(route), value: serializeSettings(settings) };
}

export type SettingsSource = 'local' | 'server' | 'default';

/** localStorage first; the server's copy when localStorage has none; else the schema's defaults. */
export function loadSettings(options: {
  storage: Pick<Storage, 'getItem'>;
  userId: string | number;
  route: string;
  configs: readonly UserConfig[] | undefined;
  shape: ListShape;
}): { settings: ListSettings; source: SettingsSource } {
  const { storage, userId, route, configs, shape } = options;
  const local = loadLocal(storage, userId, route, shape);
  if (local) return { settings: local, source: 'local' };
  const server = fromConfigs(configs, route, shape);
  if (server) return { settings: server, source: 'server' };
  return { settings: defaultSettings(shape), source: 'default' };
}

/** A row of the `table-presets` resource; `type` is the resource the preset belongs to. */
export interface TablePreset {
  id: number | string;
  label: string;
  styling?: string | null;
  type: string;
  columns_config?: string | null;
  order_config?: string | null;
  filter_config?: string | null;
  pagination_config?: string | null;
  order?: number | null;
  is_default?: boolean | null;
}

/** A preset's filter as filter state (presets written as builder lists are converted). */
export function presetFilter(preset: TablePreset): FilterState {
  return parseFilter(preset.filter_config ?? undefined);
}

/**
 * SPEC 4: applying a preset replaces columns, order, filter and pagination. What the preset does not
 * hold keeps the current value; a preset without a filter means no filter.
 */
export function presetSettings(preset: TablePreset, current: ListSettings, shape: ListShape): ListSettings {
  const columns = parseJson(preset.columns_config ?? undefined);
  const pagination = parseJson(preset.pagination_config ?? undefined);
  return {
    columns: Array.isArray(columns)
      ? sanitizeColumns(columns, shape.columns, current.columns)
      : [...current.columns],
    sort: preset.order_config ? sanitizeSort(preset.order_config, shape, current.sort) : [...current.sort],
    filter: presetFilter(preset),
    perPage: isObject(pagination) ? sanitizePerPage(pagination.perPage, current.perPage) : current.perPage,
    // A preset holds no widths (SPEC 4's four fields): the user's stay.
    widths: { ...current.widths },
  };
}

/** Applying a preset: its settings, back on page 1. */
export function applyPreset(
  view: { settings: ListSettings; page: number },
  preset: TablePreset,
  shape: ListShape,
): { settings: ListSettings; page: number } {
  return { settings: presetSettings(preset, view.settings, shape), page: 1 };
}

/** The four JSON-string fields of a preset for the current settings. */
export function presetFields(
  settings: ListSettings,
): Pick<TablePreset, 'columns_config' | 'order_config' | 'filter_config' | 'pagination_config'> {
  return {
    columns_config: JSON.stringify(settings.columns),
    order_config: JSON.stringify(settings.sort),
    filter_config: JSON.stringify(settings.filter),
    pagination_config: JSON.stringify({ perPage: settings.perPage }),
  };
}
