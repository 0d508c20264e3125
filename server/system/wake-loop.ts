/**
 * The loop of a worker whose work waits in a table that any instance may fill (export jobs, the mail
 * outbox). `wake` drains at once: work was just queued in this process. Between drains it looks every
 * `pollMs`, for work other instances queued and for leases that ran out. There is one drain at a time;
 * a wake during a drain runs another right after it, so nothing queued meanwhile waits for the poll.
 */
export class WakeLoop {
  private timer: NodeJS.Timeout | undefined;
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
    this.running = this.drain()
      .catch(this.failed)
      .finally(() => {
        this.running = undefined;
        if (this.stopped) return;
        if (this.again) {
          this.again = false;
          this.wake();
        } else {
          this.timer = setTimeout(() => this.wake(), this.pollMs);
          this.timer.unref();
        }
      });
  }

  /** No drain starts any more; resolves when the one under way has ended. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }
}
