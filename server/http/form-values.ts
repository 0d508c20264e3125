/**
 * Text fields of a multipart form are strings (`1`, `true`, `12`); the same call may come as JSON
 * with real booleans and numbers. These read either, and give the 422 line a wrong value earns.
 */

export type FieldProblem = { error: string };
export const isProblem = (v: unknown): v is FieldProblem =>
  !!v && typeof v === 'object' && 'error' in (v as object) && Object.keys(v as object).length === 1;

export function formBoolean(value: unknown, field: string): boolean | FieldProblem {
  if (typeof value === 'boolean') return value;
  if (value === 1 || value === '1' || value === 'true' || value === 'on') return true;
  if (value === 0 || value === '0' || value === 'false' || value === '') return false;
  return { error: `The ${field} field must be true or false.` };
}

export function formInteger(value: unknown, field: string): number | FieldProblem {
  const text = typeof value === 'number' ? String(value) : value;
  if (typeof text !== 'string' || !/^[1-9]\d{0,9}$/.test(text) || Number(text) > 2_147_483_647) {
    return { error: `The ${field} must be a positive whole number.` };
  }
  return Number(text);
}

/** `name`, `name[]` and `name[3]` are one list field `name` (qs/axios and browsers write all three). */
export function baseFieldName(name: string): string {
  return name.replace(/\[\d*\]$/, '');
}
