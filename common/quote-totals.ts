/**
 * A quote's amounts as the client sees them, in the portal and in its PDF alike: a line's total is its
 * stored total, or quantity times price where none is stored (a line entered without one); the quote's
 * total is its stored total, or the sum of its lines.
 */
type Amount = number | string | null | undefined;

export interface QuoteLineAmounts {
  quantity: Amount;
  price: Amount;
  total?: Amount;
}

const stored = (value: Amount): number | undefined =>
  value !== null && value !== undefined && value !== '' && Number(value) !== 0 ? Number(value) : undefined;

export function lineTotal(line: QuoteLineAmounts): number {
  return stored(line.total) ?? Math.round(Number(line.quantity ?? 0) * Number(line.price ?? 0) * 100) / 100;
}

export function quoteTotal(quote: { total?: Amount }, lines: readonly QuoteLineAmounts[]): number {
  return stored(quote.total) ?? Math.round(lines.reduce((sum, line) => sum + lineTotal(line), 0) * 100) / 100;
}
