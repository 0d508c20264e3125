import { describe, expect, it } from 'vitest';
import { lineTotal, quoteTotal } from '../../common/quote-totals.ts';

describe("a quote's amounts, as the portal and the PDF show them", () => {
  it('a line keeps its stored total, and counts quantity x price without one', () => {
    expect(lineTotal({ quantity: 3, price: 1099, total: 3000 })).toBe(3000);
    expect(lineTotal({ quantity: 3, price: 1099, total: null })).toBe(3297);
    expect(lineTotal({ quantity: '2.5', price: '95.10' })).toBe(237.75);
  });

  it('the quote keeps its stored total, and sums its lines without one', () => {
    const lines = [
      { quantity: 3, price: 1099, total: null },
      { quantity: 4, price: 95, total: 380 },
    ];
    expect(quoteTotal({ total: 4000 }, lines)).toBe(4000);
    expect(quoteTotal({ total: null }, lines)).toBe(3677);
    expect(quoteTotal({}, [])).toBe(0);
  });
});
