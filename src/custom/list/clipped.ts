/**
 * One-line table cells (issue 14, item 19): a text wider than its column ends in an ellipsis instead
 * of widening the table, and shows in full as the mouse's tooltip.
 */
import type { MouseEvent } from 'react';

/** The horizontal padding of the list's cells, in theme spacing units (6 px). */
export const CELL_PADDING_X = 0.75;

/**
 * A body cell is one line. Styled values (a coloured dot before the text) are inline flex boxes: they
 * are kept inside the cell and their own text is cut as well.
 */
export const CLIPPED_CELL_SX = {
  px: CELL_PADDING_X,
  whiteSpace: 'nowrap',
  overflow: 'hidden',
  textOverflow: 'ellipsis',
  '& *': { maxWidth: '100%', minWidth: 0 },
  '& span': { overflow: 'hidden', textOverflow: 'ellipsis', verticalAlign: 'middle' },
} as const;

/** An element that the ellipsis cut gets the whole text as its title (the mouse's tooltip). */
export function titleWhenClipped(event: MouseEvent<HTMLElement>) {
  const element = event.currentTarget;
  const clipped = [element, ...element.querySelectorAll<HTMLElement>('span')].some(
    (el) => el.scrollWidth > el.clientWidth + 1,
  );
  if (clipped && !element.title) element.title = element.textContent ?? '';
  else if (!clipped && element.title) element.removeAttribute('title');
}
