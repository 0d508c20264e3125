/**
 * Calls counted per key in a fixed window, in this instance's memory: the per-token limit of API tokens
 * and the per-address limit of single sign-on starts. At most `maxKeys` keys are kept, the oldest going
 * first, so a flood of new keys cannot grow the process; a key pushed out starts a fresh window, which
 * only lets its caller in sooner.
 */
export class FixedWindowCounter<K> {
  private readonly counts = new Map<K, { start: number; calls: number }>();

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
    private readonly maxKeys = 10_000,
  ) {}

  /** Counts one call of `key` at `now`: the milliseconds to wait when it is over the limit, else 0. */
  hit(key: K, now: number): number {
    if (this.limit <= 0) return 0;
    let entry = this.counts.get(key);
    if (!entry || now - entry.start >= this.windowMs) {
      this.counts.delete(key);
      if (this.counts.size >= this.maxKeys) this.counts.delete(this.counts.keys().next().value!);
      entry = { start: now, calls: 0 };
      this.counts.set(key, entry);
    }
    entry.calls += 1;
    return entry.calls > this.limit ? entry.start + this.windowMs - now : 0;
  }
}
