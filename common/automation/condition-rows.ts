/**
 * A rule's conditions (builder items of the tickets' list, server/automation/conditions.ts) as the rows
 * of the visual conditions editor and display: field / operator / value. The builder language has no
 * or-groups (a rule's items all hold), so the rows are a flat list that all must hold.
 *
 * The mapping is exact both ways: `itemsOf(rowsOf(items)) === items` for every list `rowsOf` accepts
 * (tests/unit/automation-condition-rows.test.ts), including a `where` written as [field, value]. A list
 * with an item the rows cannot hold (whereHas, a custom field, search, an operator the field's kind has
 * no control for, `me`) is left to the raw JSON editor rather than changed behind the user's back.
 */

/** What a field's value input is: the kinds of the list's header filters (src/custom/list/filters.ts). */
export type ConditionKind = 'text' | 'number' | 'boolean' | 'select' | 'date' | 'datetime';

export const ROW_OPS = ['=', '!=', '<', '<=', '>', '>=', 'like', 'in', 'null', 'notnull', 'between'] as const;
export type RowOp = (typeof ROW_OPS)[number];

/** The operators offered per kind, the first being a new row's. */
export const OPS_BY_KIND: Record<ConditionKind, readonly RowOp[]> = {
  text: ['like', '=', '!=', 'null', 'notnull'],
  number: ['=', '!=', '<', '<=', '>', '>=', 'between', 'null', 'notnull'],
  boolean: ['=', '!='],
  select: ['in', '=', '!=', 'null', 'notnull'],
  date: ['<', '<=', '>', '>=', '=', 'between', 'null', 'notnull'],
  datetime: ['<', '<=', '>', '>=', 'between', 'null', 'notnull'],
};

/** Message keys of the operators (a key cannot hold '<'). */
export const OP_KEYS: Record<RowOp, string> = {
  '=': 'eq',
  '!=': 'ne',
  '<': 'lt',
  '<=': 'le',
  '>': 'gt',
  '>=': 'ge',
  like: 'like',
  in: 'in',
  null: 'null',
  notnull: 'notnull',
  between: 'between',
};

/** The message key of an operator on a field of `kind`: a date is before or after, a number less or more. */
export function opKey(op: RowOp, kind: ConditionKind | undefined): string {
  const dated = (kind === 'date' || kind === 'datetime') && ['<', '<=', '>', '>='].includes(op);
  return dated ? `date_${OP_KEYS[op]}` : OP_KEYS[op];
}

export type Scalar = string | number | boolean;

/**
 * One row. `value`: a scalar for a comparison, a list for `in`, [from, to] for `between`, nothing for
 * null/notnull; null or '' while the user has not given it. `short`: the item was `where: [field, value]`.
 */
export interface ConditionRow {
  field: string;
  op: RowOp;
  value?: unknown;
  short?: boolean;
}

const COMPARISONS = new Set<RowOp>(['=', '!=', '<', '<=', '>', '>=', 'like']);

const isScalar = (v: unknown): v is Scalar =>
  (typeof v === 'string' && v !== 'me') || typeof v === 'number' || typeof v === 'boolean';

/** The row of one builder item, or undefined when the rows cannot hold it. */
export function rowOf(
  item: unknown,
  kindOf: (field: string) => ConditionKind | undefined,
): ConditionRow | undefined {
  if (typeof item !== 'object' || item === null || Array.isArray(item)) return undefined;
  const entries = Object.entries(item);
  if (entries.length !== 1) return undefined;
  const [type, arg] = entries[0]!;
  const allowed = (field: unknown, op: RowOp): field is string => {
    if (typeof field !== 'string') return false;
    const kind = kindOf(field);
    return kind !== undefined && OPS_BY_KIND[kind].includes(op);
  };
  switch (type) {
    case 'where': {
      if (!Array.isArray(arg) || (arg.length !== 2 && arg.length !== 3)) return undefined;
      const short = arg.length === 2;
      const [field, op, value] = short ? [arg[0], '=', arg[1]] : arg;
      if (!COMPARISONS.has(op as RowOp) || !allowed(field, op as RowOp) || !isScalar(value)) return undefined;
      return short ? { field, op: '=', value, short } : { field, op: op as RowOp, value };
    }
    case 'whereIn': {
      if (!Array.isArray(arg) || arg.length !== 2 || !Array.isArray(arg[1])) return undefined;
      const [field, values] = arg as [unknown, unknown[]];
      if (!allowed(field, 'in') || !values.every(isScalar)) return undefined;
      return { field, op: 'in', value: [...values] };
    }
    case 'whereNull':
    case 'whereNotNull': {
      const op = type === 'whereNull' ? 'null' : 'notnull';
      return allowed(arg, op) ? { field: arg, op } : undefined;
    }
    case 'whereBetween': {
      if (!Array.isArray(arg) || arg.length !== 2 || !Array.isArray(arg[1]) || arg[1].length !== 2)
        return undefined;
      const [field, bounds] = arg as [unknown, unknown[]];
      if (!allowed(field, 'between') || !bounds.every(isScalar)) return undefined;
      return { field, op: 'between', value: [...bounds] };
    }
    default:
      return undefined;
  }
}

/** The rows of a whole list, or undefined when any item cannot be a row (the raw editor shows it). */
export function rowsOf(
  items: unknown,
  kindOf: (field: string) => ConditionKind | undefined,
): ConditionRow[] | undefined {
  if (items === undefined || items === null) return [];
  if (!Array.isArray(items)) return undefined;
  const rows: ConditionRow[] = [];
  for (const item of items) {
    const row = rowOf(item, kindOf);
    if (!row) return undefined;
    rows.push(row);
  }
  return rows;
}

/** The builder item of a row (an incomplete one too: the editor's own check stops it from being saved). */
export function itemOf(row: ConditionRow): Record<string, unknown> {
  switch (row.op) {
    case 'in':
      return { whereIn: [row.field, Array.isArray(row.value) ? row.value : []] };
    case 'null':
      return { whereNull: row.field };
    case 'notnull':
      return { whereNotNull: row.field };
    case 'between':
      return { whereBetween: [row.field, Array.isArray(row.value) ? row.value : [null, null]] };
    default:
      return {
        where:
          row.short && row.op === '='
            ? [row.field, row.value ?? null]
            : [row.field, row.op, row.value ?? null],
      };
  }
}

export const itemsOf = (rows: readonly ConditionRow[]) => rows.map(itemOf);

const given = (v: unknown) => isScalar(v) && v !== '';

/** Whether a row says all it needs: a field, and its operator's value(s). */
export function rowComplete(row: ConditionRow): boolean {
  if (!row.field) return false;
  switch (row.op) {
    case 'null':
    case 'notnull':
      return true;
    case 'in':
      return Array.isArray(row.value) && row.value.length > 0 && row.value.every(given);
    case 'between':
      return Array.isArray(row.value) && row.value.length === 2 && row.value.every(given);
    default:
      return given(row.value);
  }
}

/** The row after its operator changed: the value kept where it still fits its shape. */
export function withOp(row: ConditionRow, op: RowOp): ConditionRow {
  const { short: _short, ...rest } = row;
  const list = Array.isArray(row.value) ? row.value : given(row.value) ? [row.value] : [];
  if (op === 'null' || op === 'notnull') return { field: rest.field, op };
  if (op === 'in') return { field: rest.field, op, value: list };
  if (op === 'between') return { field: rest.field, op, value: [list[0] ?? '', list[1] ?? ''] };
  return { field: rest.field, op, value: Array.isArray(row.value) ? (list[0] ?? '') : (row.value ?? '') };
}
