/** Percentiles of latency samples (nearest rank on the sorted samples). */
export function percentile(samples: number[], p: number): number {
  if (samples.length === 0) return NaN;
  if (p < 0 || p > 100) throw new Error(`percentile ${p} is outside 0..100`);
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))]!;
}

export const median = (samples: number[]) => percentile(samples, 50);

/** How long a case is sampled: `samples` calls, or fewer once `seconds` have passed and `minSamples` are in. */
export interface Budget {
  /** Untimed calls before the timed ones (the caller makes them). */
  warmup: number;
  samples: number;
  seconds: number;
  minSamples: number;
}

/** The times of `call`, one call after another, within `budget` (its warm-up not included), in ms. */
export async function timeCalls(call: () => Promise<unknown>, budget: Budget): Promise<number[]> {
  const times: number[] = [];
  const deadline = performance.now() + budget.seconds * 1000;
  while (
    times.length < budget.samples &&
    (times.length < budget.minSamples || performance.now() < deadline)
  ) {
    const t = performance.now();
    await call();
    times.push(performance.now() - t);
  }
  return times;
}

/** Milliseconds with a precision that fits the value. */
export function ms(value: number): string {
  if (!Number.isFinite(value)) return '-';
  return value < 10 ? value.toFixed(2) : value < 100 ? value.toFixed(1) : value.toFixed(0);
}

export const round = (value: number, digits = 2) => Math.round(value * 10 ** digits) / 10 ** digits;

/** A plain text table with right-aligned numbers. */
export function table(headers: string[], rows: (string | number)[][]): string {
  const cells = [headers, ...rows.map((r) => r.map(String))];
  const widths = headers.map((_, i) => Math.max(...cells.map((r) => (r[i] ?? '').length)));
  const line = (r: string[]) =>
    r.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  return [line(cells[0]!), widths.map((w) => '-'.repeat(w)).join('  '), ...cells.slice(1).map(line)].join(
    '\n',
  );
}

/** A target's verdict in the tables. */
export const mark = (ok: boolean) => (ok ? 'met' : 'MISSED');
