/** Keywords whose value is a map from names to schemas: the names are data, not keywords. */
const NAMED_SCHEMAS = new Set([
  'properties',
  'patternProperties',
  '$defs',
  'definitions',
  'dependentSchemas',
]);
/** Keywords whose value is data, never a schema. */
const DATA_KEYWORDS = new Set(['enum', 'const', 'examples', 'example']);

/**
 * A schema without any `default` keyword (issue 34). fast-json-stringify writes a field's `default` when
 * the answer lacks the field: a value the server never read, such as `"published": false` for a client
 * whose portal view leaves the field out. A default is for a new record's input (ajv, the forms), never
 * for an answer.
 */
export function withoutDefaults<T>(value: T): T {
  if (Array.isArray(value)) return value.map(withoutDefaults) as T;
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    if (key === 'default') continue;
    if (DATA_KEYWORDS.has(key)) out[key] = v;
    else if (NAMED_SCHEMAS.has(key) && typeof v === 'object' && v !== null && !Array.isArray(v)) {
      out[key] = Object.fromEntries(Object.entries(v).map(([name, s]) => [name, withoutDefaults(s)]));
    } else out[key] = withoutDefaults(v);
  }
  return out as T;
}
