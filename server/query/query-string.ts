/**
 * The query string as every route receives it (Fastify's `querystringParser`, server/app.ts): qs with
 * hard limits, the JSON-encoded builder decoded into the bracket style's shape, and lists as lists.
 */
import qs from 'qs';
import { QUERY_LIMITS } from './limits.ts';
import { decodeJsonQuery, JsonQueryError } from './json-query.ts';
import { compactLists } from './values.ts';

/** A symbol: no query string can spell it (nor is it a text the NUL check reads: http/nul-text.ts). */
const QUERY_STRING_ERROR = Symbol('query-string-error');

/**
 * The builder query is nested (`builder[0][where][0]=…`): qs with hard limits, so a hostile query
 * string costs bounded work before our own parser checks every name in it. qs throws past its limits,
 * at routing time; the error is carried to a hook that answers 422. The builder may also come as one
 * JSON-encoded parameter (query/json-query.ts), decoded here into the shape the brackets give.
 */
export function parseQueryString(s: string): Record<string | symbol, unknown> {
  let query: Record<string, unknown>;
  try {
    query = qs.parse(s, {
      depth: QUERY_LIMITS.qsDepth,
      arrayLimit: QUERY_LIMITS.qsArrayLimit,
      parameterLimit: QUERY_LIMITS.qsParameterLimit,
      strictDepth: true,
    }) as Record<string, unknown>;
  } catch {
    return {
      [QUERY_STRING_ERROR]: {
        query: [`The query string is nested more than ${QUERY_LIMITS.qsDepth} levels deep.`],
      },
    };
  }
  try {
    decodeJsonQuery(query);
  } catch (error) {
    if (!(error instanceof JsonQueryError)) throw error;
    return { [QUERY_STRING_ERROR]: { [error.key]: [error.message] } };
  }
  // The parameters stay an object (`?0=a` is an unknown parameter, not a list); their values' lists are lists.
  return Object.fromEntries(Object.entries(query).map(([k, v]) => [k, compactLists(v)]));
}

/** The 422 lines of a query string qs or the JSON decoding refused (answered by a preValidation hook). */
export function queryStringProblems(query: unknown): Record<string, string[]> | undefined {
  return (query as Record<symbol, Record<string, string[]> | undefined> | undefined)?.[QUERY_STRING_ERROR];
}
