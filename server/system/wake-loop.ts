/**
 * The loop of a worker whose work waits in a table that any instance may fill (export jobs, the mail
 * outbox). `wake` drains at once: work was just queued in this process. Between drains it looks every
 * `pollMs`, for work other instances queued and for leases that ran out. There is one drain at a time;
 * a wake during a drain runs another right after it, so nothing queued meanwhile waits for the poll.
 * Work put off to a known moment (a mail to try again in 100 ms) asks for a look then (`wakeIn`), which
 * comes before the next poll when it is sooner.
 */
export class WakeLoop {
  private timer: NodeJS.Timeout | undefined;
  /** When the timer fires (Date.now() scale); Infinity without one. */
  private timerAt = Infinity;
  /** The soonest look asked for (wakeIn) during the drain under way. */
  private askedAt = Infinity;
  private running: Promise<void> | undefined;
  private again = false;
  private stopped = true;

  constructor(
    private readonly drain: () => Promise<void>,
    private readonly pollMs: number,
    /** A drain that threw (the database went away): reported here, and tried again at the next poll. */
    private readonly failed: (error: unknown) => void,
  ) {}

  /** Stopped (or never started): a drain in progress should end after the work in hand. */
  get isStopped(): boolean {
    return this.stopped;
  }

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.wake();
  }

  /** Look for work now (some was just queued). */
  wake(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    clearTimeout(this.timer);
    this.timerAt = Infinity;
    this.running = this.drain()
      .catch(this.failed)
      .finally(() => {
        this.running = undefined;
        if (this.stopped) return;
        if (this.again) {
          this.again = false;
          this.wake();
        } else {
          const asked = this.askedAt;
          this.askedAt = Infinity;
          this.lookAt(Math.min(Date.now() + this.pollMs, asked));
        }
      });
  }

  /** Look for work in `ms` (work put off until then), unless a look comes sooner anyway. */
  wakeIn(ms: number): void {
    if (this.stopped) return;
    const at = Date.now() + ms;
    if (this.running) this.askedAt = Math.min(this.askedAt, at);
    else if (at < this.timerAt) this.lookAt(at);
  }

  private lookAt(at: number): void {
    clearTimeout(this.timer);
    this.timerAt = at;
    this.timer = setTimeout(() => this.wake(), Math.max(0, at - Date.now()));
    this.timer.unref();
  }

  /** No drain starts any more; resolves when the one under way has ended. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    this.timerAt = Infinity;
    await this.running;
  }
}
