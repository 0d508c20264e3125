import type { AuthContextCache } from './context-cache.ts';
import type { ListenChannel, Listener } from '../db/listener.ts';

/**
 * The channel migration 0012's triggers notify, with the payload '<tenant id>:<user id>', whenever a
 * user's sessions or account change: a refresh token revoked (logout, a new operator login, a password
 * reset, a reused token), a user row changed (session id, password, role, archived) or deleted.
 */
export const AUTH_CHANGES_CHANNEL = 'auth_user_changed';

/**
 * Hears, on the instance's LISTEN connection (server/db/listener.ts), the changes other instances make,
 * and forgets the user in this instance's context cache, so a logout elsewhere refuses the token here
 * at once, not after the TTL. While the connection is down the cache is bypassed, since notifications
 * may be missed; it is used again once listening is back.
 */
export class SessionEvents implements ListenChannel {
  readonly name = AUTH_CHANGES_CHANNEL;

  constructor(
    private readonly listener: Listener,
    private readonly cache: AuthContextCache,
  ) {
    // Nothing heard yet: nothing may be kept until listening.
    cache.bypass(true);
    listener.add(this);
  }

  get listening(): boolean {
    return this.listener.listening && !this.cache.isBypassed;
  }

  heard(payload: string | undefined): void {
    const match = /^(\d+):(\d+)$/.exec(payload ?? '');
    if (!match) return;
    this.cache.forgetUser(Number(match[1]), Number(match[2]));
  }

  up(): void {
    // Listening from now on; whatever changed while deaf was never cached (bypass).
    this.cache.bypass(false);
  }

  down(): void {
    this.cache.bypass(true);
  }
}
