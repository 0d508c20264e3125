import type { JWT } from '@fastify/jwt';
import type { KeyRing } from '../db/signing-keys.ts';
import { tokenHash } from './tokens.ts';

/** What an access token says: who, in which tenant, in which login session. */
export interface AccessClaims {
  userId: number;
  tenantId: number;
  sessionId: string;
}

/** Verified tokens kept (issue 40): a screen's calls and a live stream's heartbeats verify once. */
const VERIFIED_TOKENS = 10_000;

/** What a verification established, and what must still hold for it to stand. */
interface Verified {
  claims: AccessClaims;
  /** The key generation and key it was verified with: a retired or replaced key ends it. */
  generation: number;
  key: string;
  /** The token's `exp`, in ms: from then on the verifier refuses it, and so does the cache. */
  expiresAt: number;
}

/** A `kid` is a key generation (server/db/signing-keys.ts); a token without one was signed with generation 0. */
const KID = /^\d{1,6}$/;

/**
 * Short-lived HS256 bearer tokens: `sub` user id, `tid` tenant id, `sid` session id, signed with the
 * newest key of the ring and naming its generation in the header's `kid`, so a rotated key's tokens
 * still verify until they expire.
 */
export class AccessTokens {
  /**
   * Tokens verified before, by their SHA-256 (no bearer token is kept as such), least recently used
   * first. Only the signature and expiry checks are spared: whether the session still stands is the
   * Authenticator's question, asked on every call as before (its own cache, forgotten at logout).
   */
  private readonly verified = new Map<string, Verified>();

  constructor(
    private readonly jwt: JWT,
    readonly lifetimeSeconds: number,
    private readonly keys: KeyRing,
    /** The key @fastify/jwt was registered with: its verifier is built once, others per call. */
    private readonly registeredKey: string,
    private readonly maxVerified = VERIFIED_TOKENS,
    private readonly clock: () => number = () => Date.now(),
  ) {}

  async sign(claims: AccessClaims): Promise<string> {
    const { generation, key } = await this.keys.current();
    return this.jwt.sign(
      { sub: String(claims.userId), tid: claims.tenantId, sid: claims.sessionId },
      { key, kid: String(generation) },
    );
  }

  /**
   * The claims of a valid, unexpired token of ours; undefined for anything else. A token verified
   * before answers from memory while it has not expired and its key is still the ring's key of that
   * generation (a key retired or rotated away refuses it as the verifier would).
   */
  async verify(token: string): Promise<AccessClaims | undefined> {
    const hash = tokenHash(token);
    const known = this.verified.get(hash);
    if (known) {
      this.verified.delete(hash);
      if (this.clock() < known.expiresAt && (await this.keys.find(known.generation)) === known.key) {
        this.verified.set(hash, known);
        return known.claims;
      }
    }
    const found = await this.verifyAnew(token);
    if (found && Number.isFinite(found.expiresAt)) this.remember(hash, found);
    return found?.claims;
  }

  private remember(hash: string, found: Verified): void {
    if (this.verified.size >= this.maxVerified) {
      const oldest = this.verified.keys().next();
      if (!oldest.done) this.verified.delete(oldest.value);
    }
    this.verified.set(hash, found);
  }

  /** The full check: header, key of its generation, signature, expiry, claims. */
  private async verifyAnew(token: string): Promise<Verified | undefined> {
    let payload: Record<string, unknown>;
    let generation: number;
    let key: string | undefined;
    try {
      const decoded = this.jwt.decode<{ header?: { kid?: unknown } }>(token, { complete: true });
      const kid = decoded?.header?.kid ?? '0';
      if (typeof kid !== 'string' || !KID.test(kid)) return undefined;
      generation = Number(kid);
      key = await this.keys.find(generation);
      if (key === undefined) return undefined;
      payload =
        key === this.registeredKey
          ? this.jwt.verify<Record<string, unknown>>(token)
          : this.jwt.verify<Record<string, unknown>>(token, { key });
    } catch {
      return undefined;
    }
    const userId = Number(payload.sub);
    const { tid, sid } = payload;
    if (!Number.isSafeInteger(userId) || typeof tid !== 'number' || !Number.isSafeInteger(tid))
      return undefined;
    if (typeof sid !== 'string' || sid === '') return undefined;
    // Ours always carry exp and never nbf; anything else is verified anew each time.
    const { exp, nbf } = payload;
    const expiresAt = typeof exp === 'number' && nbf === undefined ? exp * 1000 : -Infinity;
    const claims = Object.freeze({ userId, tenantId: tid, sessionId: sid });
    return { claims, generation, key, expiresAt };
  }
}
