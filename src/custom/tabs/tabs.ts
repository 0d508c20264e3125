/**
 * The tab bar of a record's detail screen (SPEC 2, schema keyword x-tabs): which tabs a user sees, the
 * builder items that select a tab's rows, and its badge.
 */
import type { DetailTab, Resource } from '../../../common/schema/types.ts';
import { tabResource } from '../../../common/schema/registry.ts';
import { formatMinutes, formatMoney } from '../../../common/format.ts';
import type { BuilderItem, Scalar } from '../../dataProvider/builder.ts';

/** The scroll arrows move the tabs this many pixels (SPEC 9: scroll step 100). */
export const TAB_SCROLL_STEP = 100;

/** The resource a tab lists. */
export function tabTarget(owner: Resource, tab: DetailTab): string {
  return tabResource(owner, tab)!;
}

/**
 * SPEC 2: a tab shows only if its visible flag is set, or the portal permission, or the index permission
 * for it exists.
 */
export function visibleTabs(owner: Resource, permissions: readonly string[]): DetailTab[] {
  return owner.tabs.filter((tab) => {
    if (tab.visible) return true;
    const permission = tab.permission ?? `${tabTarget(owner, tab)}.index`;
    return permissions.includes(`portal.${permission}`) || permissions.includes(`tenant.${permission}`);
  });
}

/** A `{field}` value of a tab's condition, read from the record; other values as written. */
function fill(value: string | number | boolean, record: Record<string, unknown>): Scalar | null {
  if (typeof value !== 'string') return value;
  const whole = /^\{([a-z_][a-z0-9_]*)\}$/.exec(value);
  if (whole) return (record[whole[1]!] as Scalar | null | undefined) ?? null;
  return value.replace(/\{([a-z_][a-z0-9_]*)\}/g, (_, name: string) => String(record[name] ?? ''));
}

/**
 * The builder items of a tab's rows: a relation's key (hasMany, morphMany) or the tab's conditions. A
 * condition on an empty record value matches nothing (a ticket without company has no company assets).
 */
export function tabBuilder(
  owner: Resource,
  tab: DetailTab,
  record: Record<string, unknown>,
): BuilderItem[] | null {
  const relation = tab.relation === undefined ? undefined : owner.relations[tab.relation];
  if (relation?.kind === 'hasMany') return [{ where: [relation.foreignKey, '=', record.id as Scalar] }];
  if (relation?.kind === 'morphMany') {
    return [
      { where: [`${relation.morph}_type`, '=', owner.morphType!] },
      { where: [`${relation.morph}_id`, '=', record.id as Scalar] },
    ];
  }
  const items: BuilderItem[] = [];
  for (const [field, op, raw] of tab.where ?? []) {
    const value = fill(raw, record);
    if (value === null) return null;
    items.push({ where: [field, op, value] });
  }
  return items;
}

/** Fields every row of a tab has the same value in (`=` conditions): no use as columns. */
export function fixedFields(builder: BuilderItem[] | null): string[] {
  return (builder ?? []).flatMap((item) => ('where' in item && item.where[1] === '=' ? [item.where[0]] : []));
}

/** The `withCount` and `withSum` names that give the badges of the relation tabs in one call. */
export function badgeQuery(tabs: DetailTab[]): { withCount: string[]; withSum: string[] } {
  const relationTabs = tabs.filter((t) => t.relation !== undefined);
  return {
    withCount: relationTabs.filter((t) => !t.badge).map((t) => t.relation!),
    withSum: relationTabs.filter((t) => t.badge).map((t) => `${t.relation}.${t.badge!.sum}`),
  };
}

/** The badge value of a relation tab from the record the badge query answered. */
export function relationBadge(
  tab: DetailTab,
  answer: Record<string, unknown> | undefined,
): number | undefined {
  if (!answer || tab.relation === undefined) return undefined;
  const key = tab.badge ? `${tab.relation}_sum_${tab.badge.sum}` : `${tab.relation}_count`;
  const value = answer[key];
  return typeof value === 'number'
    ? value
    : value === undefined || value === null
      ? undefined
      : Number(value);
}

/** SPEC 2: the badge in currency or minutes format where configured, else the count. */
export function badgeText(tab: DetailTab, value: number, locale: string): string {
  if (tab.badge?.format === 'minutes') return formatMinutes(value);
  if (tab.badge?.format === 'money') return formatMoney(value, locale);
  return String(value);
}

/**
 * What a new row of a relation tab starts with: the key that ties it to the record (a ticket's time
 * registration gets its ticket_id). Null where the tab offers no add (a list by conditions, a thread).
 */
export function tabCreateValues(
  owner: Resource,
  tab: DetailTab,
  record: Record<string, unknown>,
): Record<string, unknown> | null {
  const relation = tab.relation === undefined ? undefined : owner.relations[tab.relation];
  return relation?.kind === 'hasMany' ? { [relation.foreignKey]: record.id } : null;
}
