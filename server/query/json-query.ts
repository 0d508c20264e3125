/**
 * The list query in its second spelling: `builder` (and the preset counts' `builders`) as one JSON-encoded
 * parameter, `?builder=[{"where":["status_id",1]}]`. OpenAPI cannot describe the bracket style
 * (`builder[0][where][0]=…`, a deepObject holding arrays of objects), so the document describes this form,
 * which generated clients and contract testers can write and check (docs/decisions.md, issue 38).
 *
 * The decoded value is made the shape qs makes of the bracket style, so everything after the query
 * string parser sees one form: scalars become text as they would in a query string, and the same limits
 * bound the work a hostile value costs (depth, list length, number of values).
 */
import { QUERY_LIMITS } from './limits.ts';

/** The query parameters that may come JSON-encoded. */
export const JSON_QUERY_PARAMETERS = ['builder', 'builders'] as const;

export class JsonQueryError extends Error {
  constructor(
    readonly key: string,
    message: string,
  ) {
    super(message);
  }
}

/** A JSON value -> the bracket style's value (text scalars), or a JsonQueryError past the limits. */
function asQueryValue(key: string, root: unknown): unknown {
  let values = 0;
  const visit = (value: unknown, depth: number): unknown => {
    if (depth > QUERY_LIMITS.qsDepth)
      throw new JsonQueryError(key, `${key} is nested more than ${QUERY_LIMITS.qsDepth} levels deep.`);
    if (Array.isArray(value) || (value !== null && typeof value === 'object')) {
      const entries = Object.entries(value);
      if (entries.length > QUERY_LIMITS.qsArrayLimit)
        throw new JsonQueryError(
          key,
          `A list or object in ${key} has more than ${QUERY_LIMITS.qsArrayLimit} entries.`,
        );
      const mapped = entries.map(([k, v]) => [k, visit(v, depth + 1)] as const);
      return Array.isArray(value) ? mapped.map(([, v]) => v) : Object.fromEntries(mapped);
    }
    values += 1;
    if (values > QUERY_LIMITS.qsParameterLimit)
      throw new JsonQueryError(key, `${key} has more than ${QUERY_LIMITS.qsParameterLimit} values.`);
    // null is `where[1]=` in the bracket style: an empty text, which the list parser words as any other.
    return value === null ? '' : String(value);
  };
  return visit(root, 0);
}

/**
 * Decodes the JSON-encoded parameters of a parsed query string in place. A value that does not start
 * with `[` is left alone (the list parser says what is wrong with it); one that does must be valid JSON.
 */
export function decodeJsonQuery(query: Record<string, unknown>): void {
  for (const key of JSON_QUERY_PARAMETERS) {
    const raw = query[key];
    if (typeof raw !== 'string' || !raw.trimStart().startsWith('[')) continue;
    let parsed: unknown;
    try {
      parsed = JSON.parse(raw);
    } catch {
      throw new JsonQueryError(key, `${key} starts as a JSON list but is not valid JSON.`);
    }
    query[key] = asQueryValue(key, parsed);
  }
}
