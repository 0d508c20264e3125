/** What a list offers a user of an app, from the resource's schema: columns, sorts, filters. */
import type { Field, Resource } from '../../../common/schema/types.ts';
import { canReadResource, labelFieldOf, readableFields, styleFieldOf } from '../../resources/fields/rules.ts';
import { badgeOf, hasOwnDisplay } from '../../../common/schema/display.ts';
import { registry } from '../../schema.ts';
import { filterKind, referenceOf } from '../../resources/fields/kinds.ts';
import type { AppKind } from '../appKind.ts';
import type { FilterKind } from './filters.ts';
import type { ListShape, SortPair } from './persistence.ts';

export interface ListModel extends ListShape {
  resource: Resource;
  /** Readable fields by name. */
  fields: Record<string, Field>;
  /** The filter kind of each filterable field. */
  kindOf: (field: string) => FilterKind | undefined;
  /** belongsTo relations to load with the rows (`with`) for these columns. */
  relationsFor: (columns: readonly string[]) => string[];
  /** The builder item `select` for these columns: the fields their cells read (selectFor). */
  selectFor: (columns: readonly string[]) => string[];
}

/**
 * The fields a row of these columns reads, as the builder item `select` names them (issue 40): each
 * column; the row's own name (`x-label`: a checkbox's label, a card's heading); what a date badge reads
 * beside its date (x-badge settled, state); and for a reference column the related record's label and
 * style (`status.name`, `status.style`), as the cell shows it (resources/fields/display.tsx). Only
 * names this app's user may read: the server refuses any other. `id` comes always.
 */
export function selectFor(
  resource: Resource,
  appKind: AppKind,
  columns: readonly string[],
  relations: readonly string[],
): string[] {
  const readable = new Set(readableFields(resource, appKind).map((f) => f.name));
  const names = new Set<string>();
  const own = (name: string) => void (readable.has(name) && names.add(name));
  own(resource.label);
  for (const name of columns) {
    const field = resource.fields[name];
    if (!field || !readable.has(name)) continue;
    own(name);
    const badge = badgeOf(field);
    for (const [settled] of badge?.settled ?? []) own(settled);
    if (badge?.state) own(badge.state);
    const relation = referenceOf(resource, field);
    const target = relation && registry.get(relation.resource);
    if (!relation || !target || !relations.includes(relation.name)) continue;
    const related = new Set(readableFields(target, appKind).map((f) => f.name));
    for (const shown of [labelFieldOf(target, appKind), styleFieldOf(target, appKind)])
      if (shown && related.has(shown)) names.add(`${relation.name}.${shown}`);
  }
  return [...names];
}

/** The schema's x-list fields; the portal's own list (x-portal.list, in its order) where it has one. */
function defaultColumnsOf(resource: Resource, appKind: AppKind, readable: Field[]): string[] {
  const portalList = appKind === 'portal' ? resource.portal?.list : undefined;
  if (portalList) return portalList.filter((name) => readable.some((f) => f.name === name));
  return readable.filter((f) => f.list).map((f) => f.name);
}

/**
 * Columns are the readable scalar fields, and the lists marked x-list that a display of their own shows
 * readably (a company role's resources as chips); a client only sees `x-portal.fields` (columns,
 * filters, sorts).
 */
export function listModel(resource: Resource, appKind: AppKind): ListModel {
  const readable = readableFields(resource, appKind).filter(
    (f) => f.type !== 'object' && (f.type !== 'array' || (f.list && hasOwnDisplay(f))),
  );
  const fields = Object.fromEntries(readable.map((f) => [f.name, f]));
  const columns = readable.map((f) => f.name);
  const sortable = readable.filter((f) => f.sort).map((f) => f.name);
  const [sortField, sortDir] = resource.defaultSort;
  const defaultSort: SortPair = sortable.includes(sortField)
    ? [sortField, sortDir]
    : [sortable[0] ?? 'id', 'asc'];
  const relationsFor = (visible: readonly string[]) =>
    visible.flatMap((name) => {
      const field = fields[name];
      const relation = field && referenceOf(resource, field);
      return relation && canReadResource(relation.resource, appKind) ? [relation.name] : [];
    });
  const kinds = new Map<string, FilterKind>();
  for (const f of readable) {
    const kind = filterKind(resource, f, appKind);
    if (kind) kinds.set(f.name, kind);
  }
  return {
    resource,
    fields,
    columns,
    defaultColumns: defaultColumnsOf(resource, appKind, readable),
    sortable,
    defaultSort,
    kindOf: (name) => kinds.get(name),
    relationsFor,
    selectFor: (visible) => selectFor(resource, appKind, visible, relationsFor(visible)),
  };
}
