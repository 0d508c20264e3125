/**
 * A schema file's JSON Schema made fit for the document: our `x-` vocabulary and the file's identity
 * taken out (they mean nothing there), and every object left open, as records are written.
 */
import { jsonTypes } from '../../common/schema/json-types.ts';
import type { Schema } from './refs.ts';

/** Keywords whose value is a map from names to schemas: the names are data, not keywords. */
const NAMED_SCHEMAS = new Set([
  'properties',
  'patternProperties',
  '$defs',
  'definitions',
  'dependentSchemas',
]);

/** Keywords whose value is data (an instance), never a schema. */
const DATA_KEYWORDS = new Set(['enum', 'const', 'default', 'examples', 'example']);

/** A schema without our `x-` vocabulary and without the file's identity, which means nothing here. */
export function cleanSchema(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(cleanSchema);
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    if (key.startsWith('x-') || key === '$id' || key === '$schema') continue;
    if (DATA_KEYWORDS.has(key)) out[key] = v;
    else if (NAMED_SCHEMAS.has(key) && typeof v === 'object' && v !== null) {
      out[key] = Object.fromEntries(Object.entries(v).map(([name, s]) => [name, cleanSchema(s)]));
    } else out[key] = cleanSchema(v);
  }
  return out;
}

/**
 * Every object schema inside a record's fields lets through what it does not list: a record is written
 * with its schema, and a JSON field (settings, a version-2 shape) keeps the keys that the schema leaves out.
 */
export function openSchema(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(openSchema);
  if (typeof value !== 'object' || value === null) return value;
  const out: Schema = {};
  for (const [key, v] of Object.entries(value)) {
    if (DATA_KEYWORDS.has(key)) out[key] = v;
    else if (NAMED_SCHEMAS.has(key) && typeof v === 'object' && v !== null) {
      out[key] = Object.fromEntries(Object.entries(v).map(([name, s]) => [name, openSchema(s)]));
    } else out[key] = openSchema(v);
  }
  const types = jsonTypes(out);
  // fast-json-stringify writes an object schema without `additionalProperties` as only its listed keys
  // (`{}` for a bare `type: object`): the keys it does not list are written as they are instead.
  if ((types.includes('object') || 'properties' in out) && !('additionalProperties' in out)) {
    out.additionalProperties = true;
  }
  return out;
}
