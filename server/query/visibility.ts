/**
 * What a caller may see: the fields it may read and the relations it may use, portal callers and link
 * holders less than operators. The parser checks every name against these; the SQL builder selects only
 * these fields.
 */
import type { AuthContext } from '../auth/context.ts';
import { readableFieldsFor } from '../../common/schema/fields.ts';
import type { Registry } from '../schema/registry.ts';
import type { Field, Relation, Resource } from '../../common/schema/types.ts';
import { recordLinkFields, recordLinkRefusal, type RelationUse } from './record-link.ts';
import type { RelatedTarget } from './tree.ts';

export interface ParseContext {
  registry: Registry;
  auth: AuthContext;
  /**
   * Where `me` stands for no one (a rule's conditions, evaluated for no caller): the 422 line that
   * refuses it, instead of resolving it to the caller of the moment.
   */
  meRefused?: string;
}

/** Clients (and quote-link holders) see the portal: only fields and relations it allows. */
export function isPortalCaller(auth: AuthContext): boolean {
  return auth.kind !== 'operator';
}

interface Readable {
  fields: readonly Field[];
  byName: ReadonlyMap<string, Field>;
}

/**
 * A resource's readable fields for each side (operators, the portal), worked out once per resource
 * object: the registry's resources do not change once loaded, and the list was built again for every
 * name a query used (every selected column, sort and filter field), some 4 % of the API's CPU on the
 * back office's default list (issue 40's profile, docs/benchmarks.md).
 */
const readableCache = new WeakMap<Resource, { operator?: Readable; portal?: Readable }>();

function readableOf(resource: Resource, portal: boolean): Readable {
  let entry = readableCache.get(resource);
  if (!entry) readableCache.set(resource, (entry = {}));
  const side = portal ? 'portal' : 'operator';
  if (!entry[side]) {
    // Frozen: every caller shares the one list.
    const fields = Object.freeze(readableFieldsFor(resource, portal));
    entry[side] = { fields, byName: new Map(fields.map((f) => [f.name, f])) };
  }
  return entry[side];
}

/** The fields a caller may read on a resource (writeOnly never). */
export function readableFields(resource: Resource, auth: AuthContext): readonly Field[] {
  return recordLinkFields(resource, auth) ?? readableOf(resource, isPortalCaller(auth)).fields;
}

export function readableField(resource: Resource, name: unknown, auth: AuthContext): Field | undefined {
  if (typeof name !== 'string') return undefined;
  const linked = recordLinkFields(resource, auth);
  if (linked) return linked.find((f) => f.name === name);
  return readableOf(resource, isPortalCaller(auth)).byName.get(name);
}

/** The targets of a relation a caller may use, or an error line. */
export function relationTargets(
  ctx: ParseContext,
  resource: Resource,
  name: unknown,
  use: RelationUse = 'filter',
): { relation: Relation; targets: RelatedTarget[] } | { error: string } {
  const relation =
    typeof name === 'string' && Object.hasOwn(resource.relations, name)
      ? resource.relations[name]
      : undefined;
  if (!relation) {
    const known = Object.keys(resource.relations).join(', ') || 'none';
    return {
      error: `Unknown relation ${JSON.stringify(String(name)).slice(0, 60)} on ${resource.name}. Allowed: ${known}.`,
    };
  }
  const refused = recordLinkRefusal(ctx.registry, ctx.auth, resource, relation, use);
  if (refused) return { error: refused };
  const targets: RelatedTarget[] =
    relation.kind === 'morphTo'
      ? Object.entries(relation.types).map(([morphType, r]) => ({
          resource: ctx.registry.require(r),
          morphType,
        }))
      : [{ resource: ctx.registry.require(relation.resource) }];
  if (isPortalCaller(ctx.auth)) {
    const visible = targets.filter((t) => t.resource.portal);
    if (visible.length === 0)
      return { error: `The relation ${relation.name} is not available in the portal.` };
    return { relation, targets: visible };
  }
  return { relation, targets };
}
