import { describe, expect, it } from 'vitest';
import { lastPageOf, pageItems, pageJumpTarget, rangeOf } from '../../src/custom/list/pageItems.ts';

describe('pageItems: first, last and 2 pages around the current one, with ellipsis (SPEC 2)', () => {
  it('shows first, current ± 2 and last, with an ellipsis for each gap', () => {
    expect(pageItems(10, 20)).toEqual([1, 'ellipsis', 8, 9, 10, 11, 12, 'ellipsis', 20]);
    expect(pageItems(6, 20)).toEqual([1, 'ellipsis', 4, 5, 6, 7, 8, 'ellipsis', 20]);
  });

  it('has no ellipsis where the window touches the first or last page', () => {
    expect(pageItems(1, 20)).toEqual([1, 2, 3, 'ellipsis', 20]);
    expect(pageItems(3, 20)).toEqual([1, 2, 3, 4, 5, 'ellipsis', 20]);
    expect(pageItems(4, 20)).toEqual([1, 2, 3, 4, 5, 6, 'ellipsis', 20]);
    expect(pageItems(17, 20)).toEqual([1, 'ellipsis', 15, 16, 17, 18, 19, 20]);
    expect(pageItems(20, 20)).toEqual([1, 'ellipsis', 18, 19, 20]);
  });

  it('puts an ellipsis even where a single page is left out', () => {
    expect(pageItems(5, 20)).toEqual([1, 'ellipsis', 3, 4, 5, 6, 7, 'ellipsis', 20]);
  });

  it('lists every page of a short list', () => {
    expect(pageItems(1, 1)).toEqual([1]);
    expect(pageItems(2, 3)).toEqual([1, 2, 3]);
    expect(pageItems(3, 5)).toEqual([1, 2, 3, 4, 5]);
  });

  it('clamps a current page outside 1..last', () => {
    expect(pageItems(0, 3)).toEqual([1, 2, 3]);
    expect(pageItems(9, 3)).toEqual([1, 2, 3]);
    expect(pageItems(1, 0)).toEqual([1]);
  });

  it('never repeats a page and keeps them ascending', () => {
    for (let last = 1; last <= 30; last++) {
      for (let current = 1; current <= last; current++) {
        const pages = pageItems(current, last).filter((p): p is number => p !== 'ellipsis');
        expect(new Set(pages).size).toBe(pages.length);
        expect([...pages].sort((a, b) => a - b)).toEqual(pages);
        expect(pages[0]).toBe(1);
        expect(pages.at(-1)).toBe(last);
        for (let p = current - 2; p <= current + 2; p++) if (p >= 1 && p <= last) expect(pages).toContain(p);
      }
    }
  });
});

describe('page jump', () => {
  it('ignores empty and non-numeric values', () => {
    expect(pageJumpTarget('', 10)).toBeNull();
    expect(pageJumpTarget('   ', 10)).toBeNull();
    expect(pageJumpTarget('abc', 10)).toBeNull();
  });

  it('clamps to the existing pages', () => {
    expect(pageJumpTarget('4', 10)).toBe(4);
    expect(pageJumpTarget(' 7 ', 10)).toBe(7);
    expect(pageJumpTarget('0', 10)).toBe(1);
    expect(pageJumpTarget('99', 10)).toBe(10);
  });
});

describe("the 'from-to of total' counter", () => {
  it('counts the rows of the page', () => {
    expect(rangeOf(1, 15, 64)).toEqual({ from: 1, to: 15, total: 64 });
    expect(rangeOf(5, 15, 64)).toEqual({ from: 61, to: 64, total: 64 });
    expect(rangeOf(1, 15, 0)).toEqual({ from: 0, to: 0, total: 0 });
  });

  it('knows the last page', () => {
    expect(lastPageOf(64, 15)).toBe(5);
    expect(lastPageOf(60, 15)).toBe(4);
    expect(lastPageOf(0, 15)).toBe(1);
  });
});
