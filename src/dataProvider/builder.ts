/**
 * react-admin's `{pagination, sort, filter}` -> the builder list of DESIGN.md section 5, and the query
 * string it travels in. The one place that knows how a filter becomes builder items: the list screen,
 * the presets and the data provider all go through `toBuilder` / `filterToBuilder`.
 *
 * Item order: the sort first, then the filters (in the filter object's key order, raw `@builder` items
 * last), then `paginate`; the page number is a top-level parameter, not a builder item:
 *
 *     {sort: {field: 'updated_at', order: 'DESC'}, filter: {status_id: 3}, pagination: {page: 2, perPage: 15}}
 *     -> builder[0][orderBy][0]=updated_at&builder[0][orderBy][1]=desc
 *        &builder[1][where][0]=status_id&builder[1][where][1]==&builder[1][where][2]=3
 *        &builder[2][paginate]=15&page=2
 *
 * Filter convention (a filter object's key and value -> builder item):
 *
 * | key                   | value                  | builder item                              |
 * |-----------------------|------------------------|-------------------------------------------|
 * | `q`                   | text                   | `{s: text}` (the resource's search)       |
 * | `field`               | scalar                 | `{where: [field, '=', value]}`            |
 * | `field`               | `null`                 | `{whereNull: field}`                      |
 * | `field`               | array                  | `{whereIn: [field, values]}`              |
 * | `field`               | exactly `[null]`       | `{whereNull: field}` (the '(none)' option) |
 * | `field@op`            | scalar                 | `{where: [field, op, value]}`, op one of `= != < <= > >= like` |
 * | `field@null`          | `true`                 | `{whereNull: field}`                      |
 * | `field@notnull`       | `true`                 | `{whereNotNull: field}`                   |
 * | `field@between`       | `[from, to]`           | `{whereBetween: [field, [from, to]]}`; with only one bound, `>=` from or `<=` to |
 * | `@builder`            | builder items          | appended as they are (whereHas, customField, …) |
 *
 * Ignored: `undefined`, `''`, an empty array, `false` for `@null`/`@notnull`, a `@between` without
 * bounds. A `null` inside a longer array is dropped (the '(none)' option clears the other selections,
 * so the list screen never sends both). An unknown `@op` throws: it is a programming error.
 * Values go as they are; `me` is resolved by the server (spec section 6); a Date becomes ISO 8601.
 */
export type Scalar = string | number | boolean | Date;
export const WHERE_OPERATORS = ['=', '!=', '<', '<=', '>', '>=', 'like'] as const;
export type WhereOperator = (typeof WHERE_OPERATORS)[number];

/** One builder item: an object with exactly one key (server/query/parse.ts). */
export type BuilderItem =
  | { orderBy: [string, 'asc' | 'desc'] }
  | { paginate: number }
  | { where: [string, WhereOperator, Scalar] | [string, Scalar] }
  | { whereIn: [string, Scalar[]] }
  | { whereNull: string }
  | { whereNotNull: string }
  | { whereHas: [string] | [string, BuilderItem[]] }
  | { doesntHave: string }
  | { whereBetween: [string, [Scalar, Scalar]] }
  | { customField: [string, WhereOperator, Scalar] }
  | { s: string }
  | { select: string[] };

/** The part of react-admin's list params the builder reads. */
export interface BuilderParams {
  pagination?: { page: number; perPage: number };
  sort?: { field: string; order: 'ASC' | 'DESC' | string };
  filter?: Record<string, unknown>;
}

/** The filter key of the raw builder items. */
export const RAW_BUILDER_KEY = '@builder';

const isEmpty = (v: unknown): boolean => v === undefined || v === '';

function isWhereOperator(op: string): op is WhereOperator {
  return (WHERE_OPERATORS as readonly string[]).includes(op);
}

/** One filter entry -> zero or one builder item. */
function filterItem(key: string, value: unknown): BuilderItem | undefined {
  if (isEmpty(value)) return undefined;
  if (key === 'q') {
    const text = String(value).trim();
    return text === '' ? undefined : { s: text };
  }
  const at = key.indexOf('@');
  const field = at === -1 ? key : key.slice(0, at);
  const op = at === -1 ? undefined : key.slice(at + 1);
  if (op === undefined) {
    if (value === null) return { whereNull: field };
    if (Array.isArray(value)) {
      if (value.length === 1 && value[0] === null) return { whereNull: field };
      const values = value.filter((v) => v !== null && !isEmpty(v)) as Scalar[];
      return values.length === 0 ? undefined : { whereIn: [field, values] };
    }
    return { where: [field, '=', value as Scalar] };
  }
  switch (op) {
    case 'null':
      return value === true ? { whereNull: field } : undefined;
    case 'notnull':
      return value === true ? { whereNotNull: field } : undefined;
    case 'between': {
      const [from, to] = Array.isArray(value) ? (value as unknown[]) : [];
      const hasFrom = !isEmpty(from) && from !== null;
      const hasTo = !isEmpty(to) && to !== null;
      if (hasFrom && hasTo) return { whereBetween: [field, [from as Scalar, to as Scalar]] };
      if (hasFrom) return { where: [field, '>=', from as Scalar] };
      if (hasTo) return { where: [field, '<=', to as Scalar] };
      return undefined;
    }
    default:
      if (!isWhereOperator(op)) throw new Error(`Unknown filter operator "${op}" in "${key}".`);
      if (value === null) return undefined;
      return { where: [field, op, value as Scalar] };
  }
}

/** The filter object -> builder items (no sort, no paging): also what preset counts send. */
export function filterToBuilder(filter: Record<string, unknown> = {}): BuilderItem[] {
  const items: BuilderItem[] = [];
  const raw: BuilderItem[] = [];
  for (const [key, value] of Object.entries(filter)) {
    if (key === RAW_BUILDER_KEY) {
      if (Array.isArray(value)) raw.push(...(value as BuilderItem[]));
      continue;
    }
    const item = filterItem(key, value);
    if (item) items.push(item);
  }
  return [...items, ...raw];
}

/** react-admin's list params -> the builder list: sort, filters, paginate (see the table above). */
export function toBuilder(params: BuilderParams, extra: BuilderItem[] = []): BuilderItem[] {
  const items: BuilderItem[] = [];
  if (params.sort?.field) {
    items.push({ orderBy: [params.sort.field, params.sort.order.toUpperCase() === 'DESC' ? 'desc' : 'asc'] });
  }
  items.push(...extra, ...filterToBuilder(params.filter));
  if (params.pagination) items.push({ paginate: params.pagination.perPage });
  return items;
}

/** A value as qs writes it (RFC 3986): encodeURIComponent's output with its five spared marks encoded too. */
const encodeValue = (value: string) =>
  encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

function appendPairs(pairs: string[], key: string, value: unknown): void {
  if (value === undefined) return;
  if (value === null) pairs.push(`${key}=`);
  else if (value instanceof Date) pairs.push(`${key}=${encodeValue(value.toISOString())}`);
  else if (Array.isArray(value)) value.forEach((item, i) => appendPairs(pairs, `${key}[${i}]`, item));
  else if (typeof value === 'object')
    for (const [k, v] of Object.entries(value)) appendPairs(pairs, `${key}[${k}]`, v);
  else pairs.push(`${key}=${encodeValue(String(value))}`);
}

/**
 * Bracket style with indices, values encoded: `builder[0][orderBy][0]=updated_at&…`. Empty lists vanish,
 * null is an empty value, undefined is left out. The server parses it with qs; this writes exactly what
 * `qs.stringify(query, { encodeValuesOnly: true })` writes (tests/unit/query-string.test.ts), without
 * putting qs and its five dependencies (35 kB) in the apps' first download.
 */
export function toQueryString(query: Record<string, unknown>): string {
  const pairs: string[] = [];
  for (const [key, value] of Object.entries(query)) appendPairs(pairs, key, value);
  return pairs.join('&');
}
