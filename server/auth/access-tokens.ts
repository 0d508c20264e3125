import type { JWT } from '@fastify/jwt';

/** What an access token says: who, in which tenant, in which login session. */
export interface AccessClaims {
  userId: number;
  tenantId: number;
  sessionId: string;
}

/** Short-lived HS256 bearer tokens: `sub` user id, `tid` tenant id, `sid` session id. */
export class AccessTokens {
  constructor(
    private readonly jwt: JWT,
    readonly lifetimeSeconds: number,
  ) {}

  sign(claims: AccessClaims): string {
    return this.jwt.sign({ sub: String(claims.userId), tid: claims.tenantId, sid: claims.sessionId });
  }

  /** The claims of a valid, unexpired token of ours; undefined for anything else. */
  verify(token: string): AccessClaims | undefined {
    let payload: Record<string, unknown>;
    try {
      payload = this.jwt.verify<Record<string, unknown>>(token);
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
