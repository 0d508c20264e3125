/**
 * The slots password hashing may use (password-hashing.ts): at most `concurrency` jobs at a time, the
 * others waiting in one of two lanes of at most `queue` each; a job that finds its lane full is refused
 * at once with `HashingBusy`, which says how long the queue takes to drain. So argon2 never holds more
 * than its share of the machine's cores (the event loop and the database keep the rest), and no caller
 * waits without bound.
 *
 * The lanes: `trusted` (a login from a known device, a password set by a signed-in user or with a
 * reset link) is served before `anonymous` (every other login): a flood of guesses fills its own lane
 * and cannot push a known user's sign-in behind it.
 */
import { availableParallelism } from 'node:os';

export type Lane = 'trusted' | 'anonymous';

export interface HashingLimits {
  /** Jobs that run at once (PASSWORD_HASH_CONCURRENCY). */
  concurrency: number;
  /** Jobs that may wait per lane (PASSWORD_HASH_QUEUE). */
  queue: number;
}

/** libuv's default pool has 4 threads; argon2 runs on them, file reads and DNS lookups need one free. */
const MAX_DEFAULT_CONCURRENCY = 3;

/** One slot per core but one (the event loop's), at least 1, at most 3; 16 waiting per lane. */
export function defaultHashingLimits(cores = availableParallelism()): HashingLimits {
  return { concurrency: Math.max(1, Math.min(cores - 1, MAX_DEFAULT_CONCURRENCY)), queue: 16 };
}

/** The lane was full: answered 429 (login) or 503 (other callers) with Retry-After. */
export class HashingBusy extends Error {
  constructor(readonly retryAfterMs: number) {
    super('password hashing is busy');
    this.name = 'HashingBusy';
  }
}

/** What a job is taken to last before any has finished (an argon2id verify at our parameters). */
const FIRST_ESTIMATE_MS = 100;

export class HashingQueue {
  private active = 0;
  private readonly lanes: Record<Lane, (() => void)[]> = { trusted: [], anonymous: [] };
  /** Running average of job durations, for Retry-After. */
  private averageMs = FIRST_ESTIMATE_MS;

  constructor(readonly limits: HashingLimits) {
    if (!(limits.concurrency >= 1) || !(limits.queue >= 0))
      throw new Error('hashing queue: concurrency must be at least 1 and the queue at least 0');
  }

  /** Jobs running now. */
  get running(): number {
    return this.active;
  }

  /** Jobs waiting in `lane`, or in both lanes. */
  waiting(lane?: Lane): number {
    return lane ? this.lanes[lane].length : this.lanes.trusted.length + this.lanes.anonymous.length;
  }

  /** Runs `job` in a slot, after the jobs ahead of it; rejects with `HashingBusy` when its lane is full. */
  async run<T>(lane: Lane, job: () => Promise<T>): Promise<T> {
    if (this.active < this.limits.concurrency) {
      this.active += 1;
    } else {
      const line = this.lanes[lane];
      if (line.length >= this.limits.queue) throw new HashingBusy(this.drainMs());
      // Resolved by `release` of a finishing job, which hands its slot over (`active` stays counted).
      await new Promise<void>((resolve) => line.push(resolve));
    }
    const started = performance.now();
    try {
      return await job();
    } finally {
      this.averageMs = 0.8 * this.averageMs + 0.2 * (performance.now() - started);
      this.release();
    }
  }

  /** How long until every job now running or waiting has had its turn: the Retry-After of a refusal. */
  drainMs(): number {
    return Math.ceil(((this.active + this.waiting()) / this.limits.concurrency) * this.averageMs);
  }

  private release(): void {
    const next = this.lanes.trusted.shift() ?? this.lanes.anonymous.shift();
    if (next) next();
    else this.active -= 1;
  }
}
