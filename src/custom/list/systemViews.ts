/**
 * The back office list's own views (a schema's `x-views`, issue 18 item 4) and the user's choice of a
 * default view. A view's conditions become the list's filter state: `[field, '=', 'me']` the user's own
 * id, `[field, 'in', values]` those values, `['relation.field', 'in' | 'not in', values]` the ids of the
 * related records (read once, a named list of at most 100: statuses, priorities) whose field matches,
 * `[field, 'date', preset]` the date filter's preset (issue 35: the SLA's 'breaches within 1 h').
 * Tickets: 'My open tickets' (mine, status neither closed nor archived: the dashboard's figure) is the
 * default; 'All tickets' has no filter.
 *
 * The choice is the user config `view:<route>` (server side, so on every device): `system:<name>` or
 * `preset:<id>` (one of the user's saved table presets). Without a choice, a preset marked as default
 * (SPEC 4) comes first, then the schema's default view. The default view shows when the user has no
 * layout of their own for the list (./useListPersistence.ts): the layout they left stays theirs.
 */
import { useEffect, useState } from 'react';
import { useDataProvider, type Identifier, type RaRecord } from 'react-admin';
import type { ListViewDefinition, Resource } from '../../../common/schema/types.ts';
import type { FilterState } from './filters.ts';
import type { TablePreset } from './persistence.ts';

export interface SystemView {
  /** `system:<name>`: the value a choice stores. */
  key: string;
  name: string;
  filter: FilterState;
  isDefault: boolean;
}

export const systemKey = (name: string) => `system:${name}`;
export const presetKey = (id: Identifier) => `preset:${id}`;
/** The user config that holds the user's choice of default view for a list route. */
export const choiceConfigName = (route: string) => `view:${route}`;

/** The filter state of a view, with the related rows its relation conditions read. */
export function viewFilter(
  resource: Resource,
  view: ListViewDefinition,
  userId: Identifier,
  related: Record<string, RaRecord[]>,
): FilterState {
  const filter: FilterState = {};
  for (const [path, op, value] of view.where) {
    const [first, second] = path.split('.') as [string, string | undefined];
    if (second === undefined) {
      // A date preset is kept as the header control holds it, so it means "from now" whenever the list
      // asks (./filters.ts turns it into bounds then) and the header shows it.
      if (op === 'date') filter[first] = value;
      else filter[first] = op === '=' ? [value === 'me' ? userId : value] : (value as unknown[]);
      continue;
    }
    const relation = resource.relations[first];
    if (relation?.kind !== 'belongsTo') continue;
    const values = value as unknown[];
    const rows = related[relation.resource] ?? [];
    filter[relation.key] = rows
      .filter((row) => values.includes(row[second]) === (op === 'in'))
      .map((row) => row.id);
  }
  return filter;
}

/** The resources whose rows the views' relation conditions read. */
function relatedResources(resource: Resource): string[] {
  const names = new Set<string>();
  for (const view of resource.views)
    for (const [path] of view.where) {
      const relation = resource.relations[path.split('.')[0]!];
      if (path.includes('.') && relation?.kind === 'belongsTo') names.add(relation.resource);
    }
  return [...names];
}

/** The views of `resource` for this user; `ready` once the related rows they need are read. */
export function useSystemViews(
  resource: Resource,
  userId: Identifier,
  enabled: boolean,
): { views: SystemView[]; ready: boolean } {
  const dataProvider = useDataProvider();
  const needed = enabled ? relatedResources(resource) : [];
  const neededKey = needed.join(',');
  const [related, setRelated] = useState<Record<string, RaRecord[]> | undefined>(undefined);
  useEffect(() => {
    if (!neededKey) return;
    let current = true;
    Promise.all(
      neededKey.split(',').map(async (name) => {
        const { data } = await dataProvider.getList(name, {
          pagination: { page: 1, perPage: 100 },
          sort: { field: 'id', order: 'ASC' },
          filter: {},
          meta: { list: `views:${name}` },
        });
        return [name, data] as const;
      }),
    )
      .then((lists) => {
        if (current) setRelated(Object.fromEntries(lists));
      })
      .catch(() => {
        // Without the related rows the views cannot be said: the list shows without them.
        if (current) setRelated({});
      });
    return () => {
      current = false;
    };
  }, [dataProvider, neededKey]);
  if (!enabled || resource.views.length === 0) return { views: [], ready: true };
  if (neededKey && !related) return { views: [], ready: false };
  const rows = related ?? {};
  // A view whose relation rows could not be read is left out rather than shown with the wrong filter.
  const readable = (view: ListViewDefinition) =>
    view.where.every(([path]) => {
      const relation = resource.relations[path.split('.')[0]!];
      return !path.includes('.') || (relation?.kind === 'belongsTo' && rows[relation.resource]);
    });
  return {
    views: resource.views.filter(readable).map((view) => ({
      key: systemKey(view.name),
      name: view.name,
      filter: viewFilter(resource, view, userId, rows),
      isDefault: !!view.default,
    })),
    ready: true,
  };
}

/** The view a user without a layout of their own starts with: their choice, a default preset, the schema's. */
export function startView(
  choice: string | null | undefined,
  views: SystemView[],
  presets: TablePreset[],
): { system?: SystemView; preset?: TablePreset } | undefined {
  if (choice) {
    const system = views.find((v) => v.key === choice);
    if (system) return { system };
    const preset = presets.find((p) => presetKey(p.id) === choice);
    if (preset) return { preset };
  }
  const preset = presets.find((p) => p.is_default);
  if (preset) return { preset };
  const system = views.find((v) => v.isDefault);
  return system ? { system } : undefined;
}
