/** Which fields a caller reads and writes: the same rule on the server (whitelist) and in the apps (forms). */
import type { Field, Language, Resource } from './types.ts';

/** The language a translated field's own column holds (x-translated); the others are `<field>_<language>`. */
export const BASE_LANGUAGE: Language = 'nl';

/** Whether a resource has a translated field (x-translated). */
export const hasTranslations = (resource: Resource): boolean =>
  Object.values(resource.fields).some((f) => f.translations);

/** Fields a caller may read (writeOnly never; in the portal only `x-portal.fields` when listed). */
export function readableFieldsFor(resource: Resource, portal: boolean): Field[] {
  const all = Object.values(resource.fields).filter((f) => !f.writeOnly);
  if (!portal || !resource.portal?.fields) return all;
  const allowed = new Set(resource.portal.fields);
  return all.filter((f) => allowed.has(f.name));
}

/** Fields a caller may send: not read-only, not fixed by the resource, within the portal's fields. */
export function writableFieldsFor(resource: Resource, portal: boolean): Field[] {
  const fixed = new Set(
    [...resource.fixedWhere, ...(portal ? (resource.portal?.where ?? []) : [])].map(([f]) => f),
  );
  const portalFields = portal && resource.portal?.fields ? new Set(resource.portal.fields) : undefined;
  return Object.values(resource.fields).filter(
    (f) => !f.readOnly && !fixed.has(f.name) && (!portalFields || portalFields.has(f.name) || f.writeOnly),
  );
}
