import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '../../common/page.ts';

/**
 * What one request may ask of the database. The size limits bound the query string; the cost budget
 * bounds the work its conditions, relations and presets ask for together (issue 12, finding 2), so
 * that no one call holds the database (PGlite's single connection above all) long enough to stall
 * the other callers. Both are checked before any SQL exists.
 */
export const QUERY_LIMITS = {
  /** qs: nesting of brackets; whereHas inside whereHas inside … costs three levels each. */
  qsDepth: 14,
  qsArrayLimit: 100,
  qsParameterLimit: 2000,
  maxItems: 50,
  maxWhereHasDepth: 3,
  maxPageSize: MAX_PAGE_SIZE,
  defaultPageSize: DEFAULT_PAGE_SIZE,
  maxPage: 1_000_000,
  maxTextLength: 200,
  maxWith: 20,
  maxWithDepth: 3,
  /** Names one `select` item may hold (issue 40: the columns a screen shows). */
  maxSelect: 100,
} as const;

/**
 * The cost budget of one request (a list, a record, one preset-count call with all its presets).
 * A cost counts the rows the database reads for each row it considers: a condition on the row's own
 * columns reads nothing more; a condition through a relation reads every related row and tests the
 * inner conditions on each; nesting multiplies. A to-one relation leads to one row, a to-many
 * relation is counted at `toMany` rows, whatever the data holds today.
 *
 * Measured on the demo data (91 tickets, 239 messages) on PGlite: tickets whereHas company ->
 * tickets -> messages with a search costs 511 and ran 10 s; the same with a plain condition (211)
 * 0.8 s; the same chain with nothing inside (111) 0.1 s. What the two apps send costs at most 80
 * (a company's tab badges: seven withCounts); a list with every header filter and a search stays
 * under 50. docs/security.md has the figures.
 */
export const QUERY_COST = {
  /** The most one request may cost; more is a 422 that says what to reduce. */
  budget: 150,
  /** Rows a to-many relation (hasMany, morphMany, belongsToMany) is counted at, per owning row. */
  toMany: 10,
  /** Each statement the request runs: the list itself, or one count per preset. */
  statement: 1,
  /** A condition on a column (where, whereIn, whereNull, whereNotNull, whereBetween). */
  condition: 1,
  /** `s`, per searched column: a pattern match over text, dearer than a comparison. */
  searchColumn: 2,
} as const;

/**
 * What `with` may load (issue 31, item 5). A to-many relation loads at most `perRecord` rows for each
 * record it hangs from (a LIMIT in the SQL: query/relations.ts), so the rows a `with` can bring are
 * known before any SQL runs: the records of the page × the fan-out of each level, a to-one relation 1,
 * a to-many one `perRecord`. All of a request's `with` relations together may bring at most `rows`.
 * `company.tickets.messages` on a page of 100 tickets can bring 100 + 10,000 + 1,000,000 rows: refused;
 * the portal's message thread (100 messages with their attachments) 10,000: answered.
 */
export const WITH_LIMITS = {
  perRecord: 100,
  rows: 12_000,
} as const;

/**
 * The largest answer a list or a record call may give, serialised (issue 31, item 5): past it the call
 * answers 422 saying to ask for fewer rows or relations, never a cut-off JSON. 10 MB is a page of 100
 * rows of 100 kB each (long mails in a thread); WITH_LIMITS keeps the row count down, this the width.
 */
export const ANSWER_LIMITS = {
  maxBytes: 10_000_000,
} as const;
