/**
 * What a link to one record (AuthContext kind 'record-token': the token of a quote e-mail) opens
 * through the builder API (issue 12, finding 4): the record itself, the rows of the to-many relations
 * its schema lists in x-record-link (its lines), and the label of the record each listed to-one
 * relation points at. Nothing opens through those relations, and no relation can be filtered on or
 * counted, so the company behind the record stays closed to whoever holds a forwarded e-mail. The rows
 * a link holder sees are worked out with the other scopes, in sql.ts (recordLinkScope).
 */
import type { AuthContext, RecordLink } from '../auth/context.ts';
import type { Field, Relation, Resource } from '../../common/schema/types.ts';
import type { Registry } from '../schema/registry.ts';

/** How a query uses a relation: loads it (`with`), loads through it (`with` a.b), or filters or counts. */
export type RelationUse = 'load' | 'load-through' | 'filter';

export function linkOf(auth: AuthContext): RecordLink | undefined {
  return auth.kind === 'record-token' ? auth.recordToken : undefined;
}

/** The opened relations that lead to `target`. */
export function openedTo(link: RecordLink, target: Resource): Relation[] {
  return link.relations.filter((r) => 'resource' in r && r.resource === target.name);
}

/** Why a link holder may not use this relation (the 422 line), or undefined when they may. */
export function recordLinkRefusal(
  registry: Registry,
  auth: AuthContext,
  resource: Resource,
  relation: Relation,
  use: RelationUse,
): string | undefined {
  const link = linkOf(auth);
  if (!link) return undefined;
  const one = `A link to one ${(registry.get(link.resource)?.title ?? 'record').toLowerCase()}`;
  if (use === 'filter') return `${one} cannot filter or count through relations.`;
  if (use === 'load-through' || resource.name !== link.resource)
    return `${one} opens nothing further through the relations it opens.`;
  if (!link.relations.some((r) => r.name === relation.name)) {
    return `${one} opens only these relations of it: ${link.relations.map((r) => r.name).join(', ')}.`;
  }
  return undefined;
}

/**
 * The fields a link holder reads of a record its link reaches through to-one relations only: its id
 * and label (the company's name, the client's name). Undefined: the portal's fields apply.
 */
export function recordLinkFields(resource: Resource, auth: AuthContext): Field[] | undefined {
  const link = linkOf(auth);
  if (!link || resource.name === link.resource) return undefined;
  const opened = openedTo(link, resource);
  if (opened.length === 0 || opened.some((r) => r.kind !== 'belongsTo')) return undefined;
  const names = new Set(['id', resource.portal?.label ?? resource.label]);
  return [...names].map((name) => resource.fields[name]).filter((f): f is Field => !!f);
}
