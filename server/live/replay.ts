/**
 * A reconnecting stream's replay (`Last-Event-ID`), bounded so that it costs no more than one list
 * call (issue 31, item 7: a client reopening streams with `Last-Event-ID: 0` every few seconds slowed
 * every caller on PGlite a hundredfold, each replay reading up to 1,000 events one record at a time):
 *
 * - only what was written in the last REPLAY_MAX_AGE_MS is replayed: a last seen id from before that
 *   (or before what is kept) gets `reset`, the signal that the screens reload, and nothing else;
 * - at most REPLAY_CAP events: more than that missed is a `reset` too (a reload is one list call);
 * - the events are read by one indexed, limited statement, their records in batches of REPLAY_BATCH
 *   (frames.ts: one scoped statement per kind of record), the event loop free between batches;
 * - the stream's signal is checked before every statement: a closed stream starts none;
 * - ReplayAllowance: at most REPLAYS_PER_WINDOW replays per user per REPLAY_WINDOW_MS on one instance,
 *   past that 429 with Retry-After (the apps' reader waits and reconnects with its last id).
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { AuthContext } from '../auth/context.ts';
import type { Db } from '../db/database.ts';
import { eventsAfter, replayFloor, type LiveEvent } from './events.ts';
import type { Frame, FrameReader } from './frames.ts';

export const REPLAY_CAP = 100;
export const REPLAY_BATCH = 50;
export const REPLAY_MAX_AGE_MS = 15 * 60_000;
export const REPLAYS_PER_WINDOW = 10;
export const REPLAY_WINDOW_MS = 60_000;

export interface ReplayOptions {
  db: Db;
  reader: FrameReader;
  auth: AuthContext;
  /** The last event id the client saw. */
  lastId: number;
  /** Aborted when the stream closes. */
  signal: AbortSignal;
  /** Each batch's frames, or `reset` when the events missed cannot be replayed. */
  send(frames: Frame[] | 'reset', events: LiveEvent[]): void;
}

export async function replay({ db, reader, auth, lastId, signal, send }: ReplayOptions): Promise<void> {
  if (signal.aborted) return;
  if (lastId + 1 < (await replayFloor(db, REPLAY_MAX_AGE_MS))) return send('reset', []);
  if (signal.aborted) return;
  const missed = await eventsAfter(db, auth.tenantId, lastId, REPLAY_CAP + 1);
  if (missed.length > REPLAY_CAP) return send('reset', []);
  for (let start = 0; start < missed.length; start += REPLAY_BATCH) {
    // Other callers (and the news that this stream closed) get their turn between two batches.
    if (start > 0) await nextTurn();
    const batch = missed.slice(start, start + REPLAY_BATCH);
    const frames = await reader.framesFor(auth, batch, signal);
    if (frames === undefined || signal.aborted) return;
    send(frames, batch);
  }
}

/** Replays per user on this instance: a sliding window of their start times. */
export class ReplayAllowance {
  private readonly starts = new Map<string, number[]>();
  private lastSweep = 0;

  constructor(
    private readonly perWindow = REPLAYS_PER_WINDOW,
    private readonly windowMs = REPLAY_WINDOW_MS,
    private readonly clock: () => number = Date.now,
  ) {}

  /** Takes one replay for the user; answers 0, or the milliseconds until one is free again. */
  take(tenantId: number, userId: number): number {
    const key = `${tenantId}:${userId}`;
    const now = this.clock();
    const recent = (this.starts.get(key) ?? []).filter((t) => t > now - this.windowMs);
    if (recent.length >= this.perWindow) {
      this.starts.set(key, recent);
      return recent[0]! + this.windowMs - now;
    }
    recent.push(now);
    this.starts.set(key, recent);
    // Once a window, users whose window has passed are forgotten: the map holds only recent ones.
    if (now - this.lastSweep > this.windowMs) {
      this.lastSweep = now;
      for (const [k, times] of this.starts) if (times.at(-1)! <= now - this.windowMs) this.starts.delete(k);
    }
    return 0;
  }
}
