/**
 * The builder item `select` (issue 40, item 2): the columns a screen shows, so a list asks the database
 * for those instead of every readable column of the resource and of each `with` relation.
 * `{"select":["subject","status_id","status.name"]}`: a plain name is a field of the listed resource, a
 * dotted one a field of a relation the same query loads with `with` (`status.name`, `company.contract.name`).
 * A level the item names no field of keeps all its readable fields: without the item the answer is
 * byte-identical to before.
 *
 * Every name is checked against the caller's readable fields (visibility.ts) before any SQL exists, as
 * every other name of the query is. What the answer needs to stay correct always comes along: `id`, the
 * keys a `with` relation is found by (select.ts keyFieldsFor), `withCount` columns and what a
 * resource's presenter selects beside its rows (docs/decisions.md, issue 40).
 */
import type { Field, Resource } from '../../common/schema/types.ts';
import { serverText } from '../../common/server-texts.ts';
import type { Registry } from '../schema/registry.ts';
import type { AuthContext } from '../auth/context.ts';
import { QUERY_LIMITS } from './limits.ts';
import type { Problems } from './problems.ts';
import type { ColumnChoice, WithTree } from './tree.ts';
import { asList } from './values.ts';
import { readableField, readableFields } from './visibility.ts';

export type { ColumnChoice };

/** The raw names of one `select` item, or a problem under `key`. */
export function selectNames(arg: unknown, key: string, p: Problems): string[] {
  const list = typeof arg === 'string' ? arg.split(',') : asList(arg);
  if (!list || list.length === 0 || list.some((n) => typeof n !== 'string' || n === '')) {
    p.add(key, 'select takes a list of field names.');
    return [];
  }
  if (list.length > QUERY_LIMITS.maxSelect) {
    p.add(key, `select may name at most ${QUERY_LIMITS.maxSelect} fields.`);
    return [];
  }
  return list as string[];
}

/**
 * The names of the query's `select` items -> the choice per level, each name a field the caller may
 * read on the resource its path leads to through the `with` tree; undefined when no item chose any.
 */
export function resolveColumns(
  registry: Registry,
  auth: AuthContext,
  resource: Resource,
  tree: WithTree,
  named: { key: string; names: string[] }[],
  p: Problems,
): ColumnChoice | undefined {
  if (named.length === 0) return undefined;
  const root: ColumnChoice = { with: {} };
  for (const { key, names } of named) {
    for (const name of names) {
      const path = name.split('.');
      const fieldName = path.pop()!;
      let current = resource;
      let node = tree;
      let choice = root;
      let reached = true;
      for (const relationName of path) {
        const relation = Object.hasOwn(node, relationName) ? current.relations[relationName] : undefined;
        if (!relation) {
          p.add(key, serverText('select_not_loaded', { name: name.slice(0, 100) }));
          reached = false;
          break;
        }
        if (relation.kind === 'morphTo') {
          p.add(key, serverText('select_several_kinds', { name: name.slice(0, 100) }));
          reached = false;
          break;
        }
        current = registry.require(relation.resource);
        node = node[relationName]!;
        choice = choice.with[relationName] ??= { with: {} };
      }
      if (!reached) continue;
      const field = readableField(current, fieldName, auth);
      if (!field) {
        p.add(key, serverText('select_unknown', { name: name.slice(0, 100) }));
        continue;
      }
      (choice.fields ??= new Set()).add(field.name);
    }
  }
  return root;
}

/**
 * The fields a level of the answer carries: `id` and the chosen ones, or every readable one without a
 * choice; in the resource's own order whatever the order asked, so one set of columns is one statement.
 */
export function chosenFields(resource: Resource, auth: AuthContext, choice?: ColumnChoice): readonly Field[] {
  const readable = readableFields(resource, auth);
  const chosen = choice?.fields;
  return chosen ? readable.filter((f) => f.name === 'id' || chosen.has(f.name)) : readable;
}

/** The choice for a relation loaded under a level, if its names chose any. */
export const relationChoice = (
  choice: ColumnChoice | undefined,
  relation: string,
): ColumnChoice | undefined => choice?.with[relation];
