/**
 * How the list table shares its width between its columns (issue 14, item 19; issue 37, item 5): the
 * table is as wide as its container (fixed layout) and a text that does not fit its column ends in an
 * ellipsis instead of pushing the table wider. Each column starts at a width in pixels: the schema's
 * x-width, else a share by the kind of what it holds, at least its header's; a long text (a ticket's
 * description) takes the room the others leave, so names (a status, a company, a person) are read whole
 * at 1280 px. A column the user widened or narrowed (dragged, or by keyboard) keeps that width, kept
 * with the list's layout (./persistence.ts). When the columns do not fit, the ones the user did not size
 * give way down to a floor; only then does the table scroll inside its own frame.
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
/** The sort arrow beside the sorted column's label (the other columns show none, so keep no room). */
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
 * The least width a header needs so that its longest word (and the sort arrow, on the sorted column)
 * fits on a line: a label wraps at its spaces, but 'Bijgewerkt' cut to 'Bijge…' says nothing. Languages
 * differ, so this measures the label as the user sees it.
 */
export function headerPx(label: string, sorted = false): number {
  const longest = Math.max(0, ...label.split(/\s+/).map(headerWordPx));
  return Math.ceil(longest + HEADER_EXTRA_PX + (sorted ? SORT_ARROW_PX : 0));
}

/** The narrowest and widest a user may size a column. */
export const MIN_COLUMN_PX = 48;
export const MAX_COLUMN_PX = 1200;
/** One press of an arrow key on a column's resize handle; with Shift, four times as much. */
export const KEY_STEP_PX = 16;

export const clampColumnPx = (px: number) => Math.round(Math.min(MAX_COLUMN_PX, Math.max(MIN_COLUMN_PX, px)));

/** The starting width of a column of this kind, in pixels (its weight at 1280 px). */
export const kindPx = (kind: FieldKind, ellipsisLimit: number) =>
  Math.round(columnWeight(kind, ellipsisLimit) * REFERENCE_UNIT_PX);

/** A long text takes the room the other columns leave (a ticket's description, cut at 50). */
export const isFlexColumn = (kind: FieldKind, ellipsisLimit: number) =>
  (kind === 'text' || kind === 'json') && ellipsisLimit >= 50;

/** The least a flexible column gets before the others give way. */
const MIN_FLEX_PX = 80;
/** How far a column the user did not size gives way when the columns do not fit: to this part of it. */
const GIVE_WAY = 0.6;

export interface ColumnSpec {
  /** Where the column starts: x-width or its kind's width, at least its header's. */
  basePx: number;
  /** Takes the room the other columns leave. */
  flex: boolean;
  /** The width the user gave it. */
  ownPx?: number;
}

/**
 * Each column's width in pixels for a table `available` pixels wide (less `fixedPx`, the checkbox
 * column), and the table's width: `available`, or more when the columns cannot give way enough (the
 * table then scrolls in its frame). Pure.
 */
export function resolveColumnWidths(
  specs: readonly ColumnSpec[],
  available: number,
  fixedPx = 0,
): { px: number[]; width: number } {
  const room = Math.max(0, available - fixedPx);
  const px = specs.map((c) => (c.ownPx !== undefined ? clampColumnPx(c.ownPx) : c.flex ? 0 : c.basePx));
  const free = specs.map((c, i) => (c.ownPx === undefined ? i : -1)).filter((i) => i >= 0);
  const flex = free.filter((i) => specs[i]!.flex);
  const fixed = free.filter((i) => !specs[i]!.flex);
  const used = () => px.reduce((sum, w) => sum + w, 0);
  const flexMin = flex.length * MIN_FLEX_PX;
  // Too wide: the columns the user did not size give way, each down to its floor.
  const short = used() + flexMin - room;
  if (short > 0 && fixed.length > 0) {
    const give = fixed.map((i) => px[i]! - Math.max(MIN_COLUMN_PX, Math.round(px[i]! * GIVE_WAY)));
    const total = give.reduce((sum, g) => sum + g, 0);
    const part = Math.min(1, short / Math.max(1, total));
    // Rounded down: rounding each to the nearest pixel could leave the table a pixel or two too wide.
    fixed.forEach((i, k) => (px[i] = Math.floor(px[i]! - give[k]! * part)));
  }
  // What is left goes to the long texts by their share, or, without any, to the columns not sized.
  const left = Math.max(0, room - used());
  const takers =
    flex.length > 0 ? flex : fixed.length > 0 ? fixed : specs.length > 0 ? [specs.length - 1] : [];
  const weights = takers.map((i) => specs[i]!.basePx);
  const total = weights.reduce((sum, w) => sum + w, 0) || 1;
  takers.forEach((i, k) => {
    const share = Math.floor((left * weights[k]!) / total);
    px[i] = (px[i] ?? 0) + (flex.length > 0 ? Math.max(MIN_FLEX_PX, share) : share);
  });
  const width = Math.max(available, used() + fixedPx);
  return { px, width };
}

/** The user's widths as stored: known columns only, whole pixels within the limits; none is `{}`. */
export function sanitizeWidths(raw: unknown, columns: readonly string[]): Record<string, number> {
  const out: Record<string, number> = {};
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return out;
  for (const [name, value] of Object.entries(raw)) {
    if (columns.includes(name) && typeof value === 'number' && Number.isFinite(value))
      out[name] = clampColumnPx(value);
  }
  return out;
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
