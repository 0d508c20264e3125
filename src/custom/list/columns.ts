/** The column modal's logic (SPEC 2): visible columns in order, hidden ones, drag reorder. Pure. */

/** `list` with the item at `from` moved to `to` (what a drop does); out-of-range indexes change nothing. */
export function moveItem<T>(list: readonly T[], from: number, to: number): T[] {
  const out = [...list];
  if (from < 0 || from >= out.length || to < 0 || to >= out.length || from === to) return out;
  const [item] = out.splice(from, 1);
  out.splice(to, 0, item as T);
  return out;
}

/** Drop `active` where `over` is (dnd-kit's onDragEnd ids). */
export function moveColumn(
  columns: readonly string[],
  active: string,
  over: string | null | undefined,
): string[] {
  if (!over) return [...columns];
  return moveItem(columns, columns.indexOf(active), columns.indexOf(over));
}

/** Show a hidden column: it goes last. */
export function showColumn(columns: readonly string[], name: string): string[] {
  return columns.includes(name) ? [...columns] : [...columns, name];
}

/** Hide a column; the last visible column stays (a table needs one). */
export function hideColumn(columns: readonly string[], name: string): string[] {
  if (columns.length <= 1) return [...columns];
  return columns.filter((c) => c !== name);
}

/** The available columns that are not visible, in schema order. */
export function hiddenColumns(available: readonly string[], visible: readonly string[]): string[] {
  return available.filter((c) => !visible.includes(c));
}

/** Stored columns that still exist, without duplicates; the defaults when none is left. */
export function sanitizeColumns(
  stored: readonly unknown[] | undefined,
  available: readonly string[],
  defaults: readonly string[],
): string[] {
  const out: string[] = [];
  for (const c of stored ?? [])
    if (typeof c === 'string' && available.includes(c) && !out.includes(c)) out.push(c);
  return out.length > 0 ? out : [...defaults];
}
