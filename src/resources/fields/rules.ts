/**
 * The decisions of the type table (./kinds.ts) that follow from a field's name and from who reads it:
 * where a text is cut (SPEC 9), which fields and related resources a user of this app may read, and
 * which field labels a related record.
 */
import type { Field, Resource } from '../../../common/schema/types.ts';
import { ELLIPSIS_LIMITS, ellipsis } from '../../../common/format.ts';
import { ellipsisOf } from '../../../common/schema/display.ts';
import { registry } from '../../schema.ts';
import type { AppKind } from '../../custom/appKind.ts';

// ---------------------------------------------------------------------------------------------------
// Name rules: what a field's name says about a plain number or text (SPEC 9).

type EllipsisKind = keyof typeof ELLIPSIS_LIMITS;

/**
 * SPEC 9's limits by what a field's name says, wherever it appears: person names 30, phone numbers 35,
 * a ticket's description shown on another record 50, ID texts 10. A field whose resource decides
 * otherwise says so in its schema (x-ellipsis: a ticket's own description).
 */
const ELLIPSIS_RULES: { test: (field: string) => boolean; limit: EllipsisKind }[] = [
  { test: (f) => f === 'full_name' || f === 'first_name' || f === 'last_name', limit: 'name' },
  { test: (f) => /(^|_)phone(_|$)/.test(f), limit: 'phone' },
  { test: (f) => f === 'ticket_description', limit: 'ticketDescription' },
  { test: (f) => /(^|_)id$/.test(f), limit: 'idText' },
];

/** Where a field's text is cut: its schema's x-ellipsis (false: never), else the name rules, else 35. */
export function ellipsisLimit(resource: string, field: string): number {
  const schema = registry.get(resource)?.fields[field];
  const own = schema ? ellipsisOf(schema) : undefined;
  if (own === false) return Number.POSITIVE_INFINITY;
  if (own !== undefined) return own;
  const rule = ELLIPSIS_RULES.find((r) => r.test(field));
  return ELLIPSIS_LIMITS[rule?.limit ?? 'generic'];
}

/** A field's text as a table cell or card shows it: cut at the schema's x-ellipsis, else the name rules. */
export function cutField(text: string, resource: Resource, field: Field): string {
  const own = ellipsisOf(field);
  return own === false ? text : ellipsis(text, own ?? ellipsisLimit(resource.name, field.name));
}

// ---------------------------------------------------------------------------------------------------
// What a user of this app reads.

/** The fields a user of this app receives: a client only `x-portal.fields`; nobody `writeOnly` ones. */
export function readableFields(resource: Resource, appKind: AppKind): Field[] {
  const all = Object.values(resource.fields).filter((f) => !f.writeOnly);
  const allowed = appKind === 'portal' ? resource.portal?.fields : undefined;
  return allowed ? all.filter((f) => allowed.includes(f.name)) : all;
}

/** A related resource a user of this app may read (clients: only resources with a portal index). */
export function canReadResource(name: string, appKind: AppKind): boolean {
  const target = registry.get(name);
  if (!target) return false;
  return appKind === 'backoffice' || (target.portal?.actions.includes('index') ?? false);
}

/**
 * The related resource's label field as this app's user sees it: `x-label`; for a client the schema's
 * `x-portal.label` when set (ticket statuses: name_client), or the id when the label is not a portal field.
 */
export function labelFieldOf(target: Resource | undefined, appKind: AppKind): string {
  const label = target?.label ?? 'name';
  if (!target || appKind === 'backoffice') return label;
  const portalLabel = target.schema?.['x-portal']?.label;
  if (typeof portalLabel === 'string' && target.fields[portalLabel]) return portalLabel;
  const allowed = target.portal?.fields;
  return !allowed || allowed.includes(label) ? label : 'id';
}

/**
 * The field of a named list that styles its records (SPEC 3: priority style, status style_client):
 * clients see `style_client` where the list has one they may read.
 */
export function styleFieldOf(target: Resource | undefined, appKind: AppKind): string | undefined {
  if (!target) return undefined;
  const readable = new Set(readableFields(target, appKind).map((f) => f.name));
  if (appKind === 'portal' && readable.has('style_client')) return 'style_client';
  return readable.has('style') ? 'style' : undefined;
}
