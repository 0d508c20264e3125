/**
 * Which fields stop a form (issue 37, item 5): the paths of react-hook-form's errors, and whether each
 * was left empty or holds a value that is refused. Pure, apart from reading the form's elements for
 * their order and labels (./InvalidFieldsNotice.tsx).
 */

/** The paths of the fields with an error (nested: `custom.color`), not the form's own (`root`). */
export function errorPaths(errors: Record<string, unknown>, prefix = ''): string[] {
  const out: string[] = [];
  for (const [key, value] of Object.entries(errors)) {
    if (!prefix && key === 'root') continue;
    if (typeof value !== 'object' || value === null) continue;
    const path = prefix ? `${prefix}.${key}` : key;
    // A field's error has a type or a message; anything else holds the errors of the fields in it.
    if ('type' in value || 'message' in value) out.push(path);
    else out.push(...errorPaths(value as Record<string, unknown>, path));
  }
  return out;
}

/** A value that counts as not filled in: nothing, an empty or blank text, an empty list. */
export function isEmptyValue(value: unknown): boolean {
  if (value === undefined || value === null) return true;
  if (typeof value === 'string') return value.trim() === '';
  if (Array.isArray(value)) return value.length === 0;
  return false;
}

/** A field label as shown, without the required mark ('Subject *', 'Impact * (required)'). */
export function cleanLabel(text: string): string {
  return text
    .replace(/[\s\u2009\u00a0]*\*.*$/, '')
    .replace(/\s+/g, ' ')
    .trim();
}

/** `paths` in the order their inputs stand in `form` (those not found last, as given). */
export function inFormOrder(paths: readonly string[], position: (path: string) => number): string[] {
  return paths
    .map((path, i) => ({ path, at: position(path), i }))
    .sort((a, b) => a.at - b.at || a.i - b.i)
    .map((p) => p.path);
}

/** The notification's text: the fields to fill in, then the fields to check. */
export function invalidFieldsText(
  missing: readonly string[],
  wrong: readonly string[],
  translate: (key: string, options: Record<string, unknown>) => string,
): string {
  return [
    missing.length > 0 && translate('app.errors.form_fill_in', { fields: missing.join(', ') }),
    wrong.length > 0 && translate('app.errors.form_check', { fields: wrong.join(', ') }),
  ]
    .filter(Boolean)
    .join(' ');
}
