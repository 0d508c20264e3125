/**
 * `j` and `k` in a list (issue 18 item 8): the focus moves to the next or previous row, whose Enter
 * opens it (ListTable's rows are focusable buttons of a kind, and so are the phone list's cards, marked
 * with `rowAttribute`). With several lists on a page, the one holding the focus moves; with none
 * focused, the first list of the page does.
 */
import { useRef, type RefObject } from 'react';
import { useShortcuts } from './keys.ts';

const ROWS = 'data-shortcut-rows';
export const rowsAttribute = { [ROWS]: true } as const;
const ROW = 'data-shortcut-row';
/** Marks a focusable child of the list (a card) as one of its rows. */
export const rowAttribute = { [ROW]: true } as const;

function move(body: HTMLElement | null, step: 1 | -1): boolean {
  if (!body) return false;
  const lists = [...document.querySelectorAll<HTMLElement>(`[${ROWS}]`)];
  const focusedList = document.activeElement?.closest<HTMLElement>(`[${ROWS}]`);
  if ((focusedList ?? lists[0]) !== body) return false;
  const rows = [...body.querySelectorAll<HTMLElement>(`:scope > tr[tabindex], :scope > [${ROW}]`)];
  if (rows.length === 0) return false;
  const current = rows.findIndex((row) => row.contains(document.activeElement));
  const next =
    current < 0 ? (step > 0 ? 0 : rows.length - 1) : Math.min(rows.length - 1, Math.max(0, current + step));
  rows[next]!.focus();
  rows[next]!.scrollIntoView({ block: 'nearest' });
  return true;
}

/** The ref for the list's `<tbody>` (or the cards' container), whose rows `j` and `k` move through while `enabled`. */
export function useRowShortcuts<T extends HTMLElement = HTMLTableSectionElement>(
  enabled: boolean,
): RefObject<T | null> {
  const body = useRef<T>(null);
  useShortcuts({ j: () => move(body.current, 1), k: () => move(body.current, -1) }, enabled);
  return body;
}
