import type { JWT } from '@fastify/jwt';
import type { KeyRing } from '../db/signing-keys.ts';

/** What an access token says: who, in which tenant, in which login session. */
export interface AccessClaims {
  userId: number;
  tenantId: number;
  sessionId: string;
}

/** A `kid` is a key generation (server/db/signing-keys.ts); a token without one was signed with generation 0. */
const KID = /^\d{1,6}$/;

/**
 * Short-lived HS256 bearer tokens: `sub` user id, `tid` tenant id, `sid` session id, signed with the
 * newest key of the ring and naming its generation in the header's `kid`, so a rotated key's tokens
 * still verify until they expire.
 */
export class AccessTokens {
  constructor(
    private readonly jwt: JWT,
    readonly lifetimeSeconds: number,
    private readonly keys: KeyRing,
    /** The key @fastify/jwt was registered with: its verifier is built once, others per call. */
    private readonly registeredKey: string,
  ) {}

  async sign(claims: AccessClaims): Promise<string> {
    const { generation, key } = await this.keys.current();
    return this.jwt.sign(
      { sub: String(claims.userId), tid: claims.tenantId, sid: claims.sessionId },
      { key, kid: String(generation) },
    );
  }

  /** The claims of a valid, unexpired token of ours; undefined for anything else. */
  async verify(token: string): Promise<AccessClaims | undefined> {
    let payload: Record<string, unknown>;
    try {
      const decoded = this.jwt.decode<{ header?: { kid?: unknown } }>(token, { complete: true });
      const kid = decoded?.header?.kid ?? '0';
      if (typeof kid !== 'string' || !KID.test(kid)) return undefined;
      const key = await this.keys.find(Number(kid));
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
    return { userId, tenantId: tid, sessionId: sid };
  }
}
