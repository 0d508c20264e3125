/** SPEC 2: pagination shows the first and last page and 2 pages either side of the current one. */
export const PAGE_WINDOW = 2;

export type PageItem = number | 'ellipsis';

/**
 * The page buttons for page `current` of `last`: 1, an ellipsis where pages are left out, current ± 2,
 * an ellipsis, last. `pageItems(6, 20)` is `[1, 'ellipsis', 4, 5, 6, 7, 8, 'ellipsis', 20]`.
 */
export function pageItems(current: number, last: number): PageItem[] {
  const lastPage = Math.max(1, Math.floor(last));
  const page = Math.min(Math.max(1, Math.floor(current)), lastPage);
  const pages = new Set<number>([1, lastPage]);
  for (let p = page - PAGE_WINDOW; p <= page + PAGE_WINDOW; p++) if (p >= 1 && p <= lastPage) pages.add(p);
  const sorted = [...pages].sort((a, b) => a - b);
  const out: PageItem[] = [];
  sorted.forEach((p, i) => {
    if (i > 0 && p - sorted[i - 1]! > 1) out.push('ellipsis');
    out.push(p);
  });
  return out;
}

/** The last page for `total` rows at `perPage` a page; at least 1. */
export function lastPageOf(total: number, perPage: number): number {
  return Math.max(1, Math.ceil(total / Math.max(1, perPage)));
}

/**
 * The page a page-jump input asks for: null for an empty or non-numeric value (ignored), else clamped
 * to 1..last.
 */
export function pageJumpTarget(input: string, last: number): number | null {
  const text = input.trim();
  if (text === '' || !/^\d+$/.test(text)) return null;
  return Math.min(Math.max(1, Number(text)), Math.max(1, last));
}

/** 'from-to of total' numbers for page `page`: 1-15 of 64; 0-0 of 0 when empty. */
export function rangeOf(
  page: number,
  perPage: number,
  total: number,
): { from: number; to: number; total: number } {
  if (total <= 0) return { from: 0, to: 0, total: 0 };
  const from = Math.min((page - 1) * perPage + 1, total);
  return { from, to: Math.min(page * perPage, total), total };
}
