/** Comparing a form's values with the record they started from: the fields an update sends (./index.ts). */

/** Structural equality of JSON-like values (form data against the record it started from). */
export function sameValue(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true;
  if (a instanceof Date || b instanceof Date) {
    return a instanceof Date && b instanceof Date && a.getTime() === b.getTime();
  }
  if (Array.isArray(a) || Array.isArray(b)) {
    return (
      Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((v, i) => sameValue(v, b[i]))
    );
  }
  if (a && b && typeof a === 'object' && typeof b === 'object') {
    const ka = Object.keys(a).filter((k) => (a as any)[k] !== undefined);
    const kb = Object.keys(b).filter((k) => (b as any)[k] !== undefined);
    return ka.length === kb.length && ka.every((k) => sameValue((a as any)[k], (b as any)[k]));
  }
  return false;
}

/** The fields of `data` that differ from `previous` (all of them without `previous`); never the id. */
export function changedFields(
  data: Record<string, unknown>,
  previous: Record<string, unknown> | undefined,
): Record<string, unknown> {
  const changes: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(data)) {
    if (key === 'id' || value === undefined) continue;
    if (!previous || !sameValue(value, previous[key])) changes[key] = value;
  }
  return changes;
}
