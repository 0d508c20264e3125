import type { AuthContext } from './context.ts';

/**
 * Loaded AuthContexts for a few seconds per (tenant, user, session), so a screen that fires several
 * calls costs one user query. Login and logout call `forgetUser`, so a replaced or ended session is
 * refused on its very next call; role or membership changes show after at most `ttlMs`.
 *
 * A load that started before a `forgetUser` must not put its (possibly stale) answer back: each user
 * has a generation number, bumped by `forgetUser`, and `set` ignores answers of an older generation.
 *
 * With several instances on one database, the others learn of a logout or login through PostgreSQL
 * notifications (session-events.ts); while that channel is down the cache is bypassed (`bypass(true)`),
 * since a change another instance made could otherwise be missed for the whole TTL.
 *
 * `forgetUser` is where an instance learns that a user's sessions changed, from its own routes or from
 * another instance: what holds a user's session open beyond one request (a live event stream) hears of
 * it through `onForget` and checks its token again at once.
 */
export class AuthContextCache {
  private readonly entries = new Map<string, Map<string, { context: AuthContext; expires: number }>>();
  private readonly generations = new Map<string, number>();
  private lastGeneration = 0;
  private bypassed = false;
  private readonly forgetListeners = new Set<(tenantId: number, userId: number) => void>();
  /** Every generation is at least this: raised by `bypass(true)` to outdate every load in flight. */
  private floor = 0;

  constructor(
    private readonly ttlMs = 5_000,
    private readonly maxUsers = 10_000,
    private readonly clock: () => number = Date.now,
  ) {}

  get(tenantId: number, userId: number, sessionId: string): AuthContext | undefined {
    if (this.bypassed) return undefined;
    const entry = this.entries.get(userKey(tenantId, userId))?.get(sessionId);
    if (!entry) return undefined;
    if (entry.expires > this.clock()) return entry.context;
    this.entries.get(userKey(tenantId, userId))?.delete(sessionId);
    return undefined;
  }

  /** The generation to hand back to `set` after loading. */
  generation(tenantId: number, userId: number): number {
    return Math.max(this.generations.get(userKey(tenantId, userId)) ?? 0, this.floor);
  }

  set(tenantId: number, userId: number, sessionId: string, context: AuthContext, generation: number): void {
    const key = userKey(tenantId, userId);
    if (this.bypassed || this.generation(tenantId, userId) !== generation) return;
    let sessions = this.entries.get(key);
    if (!sessions) {
      if (this.entries.size >= this.maxUsers) this.evictOldest();
      sessions = new Map();
      this.entries.set(key, sessions);
    }
    sessions.set(sessionId, { context, expires: this.clock() + this.ttlMs });
  }

  forgetUser(tenantId: number, userId: number): void {
    const key = userKey(tenantId, userId);
    this.entries.delete(key);
    // A fresh, never repeated number: any load that read an earlier generation can no longer store.
    this.generations.delete(key);
    this.generations.set(key, ++this.lastGeneration);
    if (this.generations.size > this.maxUsers) {
      const oldest = this.generations.keys().next();
      if (!oldest.done) this.generations.delete(oldest.value);
    }
    for (const listener of this.forgetListeners) listener(tenantId, userId);
  }

  /** Hears every `forgetUser` (see above); returns the unsubscribe. A listener must not throw. */
  onForget(listener: (tenantId: number, userId: number) => void): () => void {
    this.forgetListeners.add(listener);
    return () => this.forgetListeners.delete(listener);
  }

  /**
   * On: nothing is served or kept (what is kept is dropped now), every request loads its user. For
   * while changes made elsewhere cannot be heard of; a load that started before stays unstored too.
   */
  bypass(on: boolean): void {
    if (on === this.bypassed) return;
    this.bypassed = on;
    if (on) {
      this.entries.clear();
      // Loads in flight read older generations: `set` must refuse them once the bypass ends.
      this.floor = ++this.lastGeneration;
    }
  }

  get isBypassed(): boolean {
    return this.bypassed;
  }

  private evictOldest(): void {
    const first = this.entries.keys().next();
    if (!first.done) this.entries.delete(first.value);
  }
}

function userKey(tenantId: number, userId: number): string {
  return `${tenantId}:${userId}`;
}
