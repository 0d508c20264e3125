/**
 * How the list table shares its width between its columns (issue 14, item 19): the table is as wide as
 * its container (fixed layout), each column takes a share by what it holds, and a text that does not
 * fit its share ends in an ellipsis instead of pushing the table wider. So every column the user chose
 * is on screen at 1280 px; only a user who shows more columns than can be read (below MIN_UNIT_PX per
 * unit of weight) gets a table that scrolls inside its own frame.
 */
import type { FieldKind } from '../../../common/schema/field-kind.ts';

/** The narrowest a unit of weight may get before the table scrolls sideways in its frame. */
export const MIN_UNIT_PX = 60;
/** The weight of a resource's own action column (the portal's download link). */
export const ACTION_COLUMN_WEIGHT = 1.2;

/**
 * A column's share, from the kind of its values and the SPEC 9 ellipsis limit of its texts: a ticket
 * description (cut at 50) gets the most, names and other texts (30, 35) half as much, ID texts (10) and
 * numbers the least; references, statuses and dates a fixed share that fits their usual label.
 */
export function columnWeight(kind: FieldKind, ellipsisLimit: number): number {
  switch (kind) {
    case 'text':
    case 'email':
    case 'json':
      return ellipsisLimit >= 50 ? 2.2 : ellipsisLimit >= 20 ? 1.5 : 1;
    case 'reference':
      return 1.4;
    case 'enum':
      return 1.2;
    case 'date':
    case 'datetime':
      return 1.3;
    case 'money':
      return 1.1;
    case 'boolean':
      return 0.7;
    default:
      return 0.8;
  }
}

/** Without a canvas (tests in jsdom), a header's bold 14 px letters are taken as this wide on average. */
const HEADER_CHAR_PX = 7.6;
/** The cell's padding on both sides, and a little room. */
const HEADER_EXTRA_PX = 12 + 4;
/** The sort arrow beside a sortable column's label (shown while sorted, room kept always). */
const SORT_ARROW_PX = 26;
/** What a unit of weight is at 1280 px with the menu open (a table of about 990 px, 13 to 14 units). */
const REFERENCE_UNIT_PX = 70;

let canvas: CanvasRenderingContext2D | null | undefined;

/** How wide a word of a header is drawn: the header's font (600, 14 px) in the page's font family. */
function headerWordPx(word: string): number {
  if (canvas === undefined) {
    canvas = typeof document === 'undefined' ? null : document.createElement('canvas').getContext('2d');
    if (canvas) canvas.font = `600 14px ${getComputedStyle(document.body).fontFamily || 'sans-serif'}`;
  }
  return canvas ? canvas.measureText(word).width : word.length * HEADER_CHAR_PX;
}

/**
 * The least share a header needs so that its longest word and the sort arrow fit on a line at 1280 px:
 * a label wraps at its spaces, but 'Bijgewerkt' cut to 'Bijge…' says nothing. Languages differ, so this
 * measures the label as the user sees it.
 */
export function headerWeight(label: string, sortable = true): number {
  const longest = Math.max(0, ...label.split(/\s+/).map(headerWordPx));
  return (longest + HEADER_EXTRA_PX + (sortable ? SORT_ARROW_PX : 0)) / REFERENCE_UNIT_PX;
}

export interface ColumnLayout {
  /** Each weight's share of the table's width, in per cent (they add up to 100). */
  widths: string[];
  /** Below this many pixels the table keeps its width and scrolls in its frame. */
  minWidth: number;
}

/** Per-cent widths for the weighted columns; fixed-width columns (a checkbox) come on top of minWidth. */
export function columnLayout(weights: readonly number[], fixedPx = 0): ColumnLayout {
  const total = weights.reduce((sum, w) => sum + w, 0);
  return {
    widths: weights.map((w) => `${total > 0 ? ((w / total) * 100).toFixed(3) : 0}%`),
    minWidth: Math.round(total * MIN_UNIT_PX + fixedPx),
  };
}
