/**
 * The text fields of a multipart form are strings (`1`, `true`, `12`): these read the words a form uses
 * for true and false and for an id. What they cannot read stays text, for the route's schema to refuse
 * in its own words (server/http/form-body.ts).
 */

/** `1`, `true`, `on` and `0`, `false`, `` (an unticked box sent anyway); undefined for anything else. */
export function formBoolean(value: string): boolean | undefined {
  if (value === '1' || value === 'true' || value === 'on') return true;
  if (value === '0' || value === 'false' || value === '') return false;
  return undefined;
}

/** A positive whole number of at most 2147483647 written in digits; undefined for anything else. */
export function formInteger(value: string): number | undefined {
  if (!/^[1-9]\d{0,9}$/.test(value) || Number(value) > 2_147_483_647) return undefined;
  return Number(value);
}

/** `name`, `name[]` and `name[3]` are one list field `name` (qs/axios and browsers write all three). */
export function baseFieldName(name: string): string {
  return name.replace(/\[\d*\]$/, '');
}
