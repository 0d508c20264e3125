/**
 * Column widths of the list table (issue 37, item 5): the schema's and the user's widths in pixels,
 * the long text taking what the others leave, the others giving way when they do not fit, and the
 * user's widths kept with the layout.
 */
import { describe, expect, it } from 'vitest';
import {
  clampColumnPx,
  MAX_COLUMN_PX,
  MIN_COLUMN_PX,
  resolveColumnWidths,
  sanitizeWidths,
  type ColumnSpec,
} from '../../src/custom/list/columnWidths.ts';
import { parseSettings, serializeSettings, type ListShape } from '../../src/custom/list/persistence.ts';

const sum = (list: number[]) => list.reduce((a, b) => a + b, 0);

describe('resolveColumnWidths', () => {
  const names: ColumnSpec[] = [
    { basePx: 100, flex: false },
    { basePx: 154, flex: true },
    { basePx: 150, flex: false },
    { basePx: 145, flex: false },
  ];

  it('gives the named columns their width and the long text the rest, filling the table', () => {
    const { px, width } = resolveColumnWidths(names, 990, 48);
    expect(px).toEqual([100, 990 - 48 - 395, 150, 145]);
    expect(width).toBe(990);
  });

  it("keeps the user's width of a column and lets the long text take the difference", () => {
    const own = names.map((c, i) => (i === 2 ? { ...c, ownPx: 220 } : c));
    const { px, width } = resolveColumnWidths(own, 990, 48);
    expect(px[2]).toBe(220);
    expect(px[1]).toBe(990 - 48 - 100 - 220 - 145);
    expect(width).toBe(990);
  });

  it('makes the others give way, not the user-sized ones, when the long text would get less than its least', () => {
    const own = names.map((c, i) => (i === 2 ? { ...c, ownPx: 500 } : c));
    const { px, width } = resolveColumnWidths(own, 750, 0);
    expect(px[2]).toBe(500);
    // The two columns the user did not size gave way (to whole pixels, rounded down); the long text
    // keeps its least width and the pixel their rounding left.
    expect(px[0]).toBeLessThan(100);
    expect(px[3]).toBeLessThan(145);
    expect(px[1]).toBe(81);
    expect(sum(px)).toBe(750);
    expect(width).toBe(750);
  });

  it('fills its frame to the pixel whenever giving way is enough (no rounding makes it a pixel wider)', () => {
    // A seeded walk over column sets like the ticket list's: eight named columns and one long text.
    let seed = 37;
    const next = () => (seed = (seed * 48271) % 2147483647) / 2147483647;
    for (let run = 0; run < 500; run++) {
      const specs: ColumnSpec[] = Array.from({ length: 9 }, (_, i) => ({
        basePx: 60 + Math.floor(next() * 120),
        flex: i === 2,
      }));
      const available = 700 + Math.floor(next() * 500);
      const floors = specs.reduce(
        (total, c) => total + (c.flex ? 80 : Math.max(MIN_COLUMN_PX, Math.round(c.basePx * 0.6))),
        0,
      );
      if (floors + 48 > available) continue;
      const { px, width } = resolveColumnWidths(specs, available, 48);
      expect(sum(px) + 48, `run ${run}`).toBe(available);
      expect(width).toBe(available);
    }
  });

  it('scrolls (a table wider than its frame) only when giving way is not enough', () => {
    const own = names.map((c, i) => (i === 2 ? { ...c, ownPx: 900 } : c));
    const { px, width } = resolveColumnWidths(own, 700, 0);
    expect(px[0]).toBe(60);
    expect(px[3]).toBe(87);
    expect(width).toBe(sum(px));
    expect(width).toBeGreaterThan(700);
  });

  it('without a long text, the room left goes to the columns the user did not size', () => {
    const fixed: ColumnSpec[] = [
      { basePx: 100, flex: false },
      { basePx: 100, flex: false, ownPx: 120 },
      { basePx: 300, flex: false },
    ];
    const { px, width } = resolveColumnWidths(fixed, 1000, 0);
    expect(px[1]).toBe(120);
    // 480 px left, shared 1 : 3.
    expect(px[0]).toBe(100 + 120);
    expect(px[2]).toBe(300 + 360);
    expect(width).toBe(1000);
  });

  it('with every column sized by the user, the last one fills the table', () => {
    const own: ColumnSpec[] = [
      { basePx: 100, flex: false, ownPx: 200 },
      { basePx: 100, flex: true, ownPx: 300 },
    ];
    expect(resolveColumnWidths(own, 800, 0).px).toEqual([200, 600]);
  });
});

describe('the widths the user gave', () => {
  it('are whole pixels within the limits', () => {
    expect(clampColumnPx(10)).toBe(MIN_COLUMN_PX);
    expect(clampColumnPx(99999)).toBe(MAX_COLUMN_PX);
    expect(clampColumnPx(140.6)).toBe(141);
  });

  it('are read for known columns only, as numbers', () => {
    expect(
      sanitizeWidths({ status_id: 160, gone: 100, company_id: '120', operator_id: 5 }, [
        'status_id',
        'company_id',
        'operator_id',
      ]),
    ).toEqual({ status_id: 160, operator_id: MIN_COLUMN_PX });
    expect(sanitizeWidths(['status_id'], ['status_id'])).toEqual({});
    expect(sanitizeWidths(null, ['status_id'])).toEqual({});
  });

  const shape: ListShape = {
    columns: ['reference', 'status_id', 'company_id'],
    defaultColumns: ['reference', 'status_id'],
    sortable: ['reference'],
    defaultSort: ['reference', 'asc'],
  };

  it('are kept with the layout, and a layout without any is stored as before', () => {
    const layout = parseSettings({ columns: ['reference'], widths: { status_id: 170 } }, shape)!;
    expect(layout.widths).toEqual({ status_id: 170 });
    expect(parseSettings(JSON.stringify(serializeSettings(layout)), shape)).toEqual(layout);
    const none = parseSettings({ columns: ['reference'] }, shape)!;
    expect(none.widths).toEqual({});
    expect(serializeSettings(none)).not.toHaveProperty('widths');
  });
});
