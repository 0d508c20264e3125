/**
 * API tokens as bearer tokens (issue 38, item 3). A token is `sdk_` and 32 random bytes in base64url: the
 * prefix tells it from a session's JWT at a glance (and in a leaked log), the bytes give it full entropy,
 * so the database keeps a plain SHA-256 of it (tokens.ts `tokenHash`) and finds it by that.
 *
 * A token acts as its owner with the owner's permissions that are among its scopes, and never touches a
 * login session: the owner signed in in a browser stays signed in (SPEC 8's one session per operator is
 * about sign-ins, and a token is none).
 *
 * Contexts are kept in the authenticator's AuthContextCache under the pseudo-session `api:<token id>`,
 * so a revocation anywhere reaches every instance as a logout does: migration 0048's trigger notifies
 * auth_user_changed with the owner, and `forgetUser` drops the owner's contexts, the token's with them.
 * The facts that never change (whose the token is, when it expires) are kept beside it.
 */
import { randomBytes } from 'node:crypto';
import type { Db } from '../db/database.ts';
import { FixedWindowCounter } from '../http/fixed-window.ts';
import { TooManyRequests, unauthenticated } from '../http/errors.ts';
import type { AuthContext, Tenant } from './context.ts';
import type { AuthContextCache } from './context-cache.ts';
import { tokenHash } from './tokens.ts';
import { loadAuthUser } from './user.ts';
import { waitText } from './rate-limit.ts';

/** What every API token starts with. */
export const API_TOKEN_PREFIX = 'sdk_';
/** How much of a token is kept in clear to tell tokens apart: the prefix and 8 of its 43 random characters. */
export const SHOWN_LENGTH = API_TOKEN_PREFIX.length + 8;
/** The whole token: the prefix and 43 base64url characters. */
const TOKEN_SHAPE = /^sdk_[A-Za-z0-9_-]{43}$/;
/** Last use is written at most this often per token, so a busy integration costs no write per call. */
export const LAST_USED_EVERY_MS = 60_000;
const WINDOW_MS = 60_000;
/** Tokens whose owner and expiry are kept, and whose counts of calls are; the oldest go first. */
const MAX_KEPT = 10_000;

export function isApiToken(bearer: string): boolean {
  return bearer.startsWith(API_TOKEN_PREFIX);
}

/** A new token: the secret (shown once), what the database keeps of it, and its start for display. */
export function newApiToken(): { token: string; hash: string; prefix: string } {
  const token = API_TOKEN_PREFIX + randomBytes(32).toString('base64url');
  return { token, hash: tokenHash(token), prefix: token.slice(0, SHOWN_LENGTH) };
}

interface Known {
  tokenId: number;
  tenantId: number;
  userId: number;
  expiresAt: number;
}

export class ApiTokenAuthenticator {
  private readonly known = new Map<string, Known>();
  /** Per token id: the calls of its current minute. */
  private readonly counts: FixedWindowCounter<number>;
  private readonly lastWritten = new Map<number, number>();

  constructor(
    private readonly db: Db,
    private readonly cache: AuthContextCache,
    perMinute: number,
    private readonly clock: () => number = Date.now,
  ) {
    this.counts = new FixedWindowCounter(perMinute, WINDOW_MS, MAX_KEPT);
  }

  /** `recheck`: the caller is checked again, not calling (a live stream's heartbeat): no count, no use noted. */
  async authenticate(
    tenant: Tenant,
    token: string,
    { ip, recheck = false }: { ip?: string; recheck?: boolean },
  ): Promise<AuthContext> {
    if (!TOKEN_SHAPE.test(token)) throw unauthenticated();
    const hash = tokenHash(token);
    const now = this.clock();
    const known = this.known.get(hash);
    let context: AuthContext | undefined;
    if (known && known.tenantId === tenant.id) {
      if (known.expiresAt <= now) throw unauthenticated();
      context = this.cache.get(tenant.id, known.userId, `api:${known.tokenId}`);
    }
    context ??= await this.load(tenant, hash, known);
    if (recheck) return context;
    this.count(context.tokenId!, now);
    await this.noteUse(context.tokenId!, now, ip);
    return context;
  }

  /**
   * The token and its owner from the database. The cache's generation is read before the load, so a
   * revocation heard meanwhile keeps this answer out of the cache; a token seen for the first time is
   * not cached (its owner was not known before the load).
   */
  private async load(tenant: Tenant, hash: string, known: Known | undefined): Promise<AuthContext> {
    const generation = known ? this.cache.generation(tenant.id, known.userId) : undefined;
    const row = await this.db
      .selectFrom('api_tokens')
      .select(['id', 'owner_id', 'scopes', 'expires_at', 'revoked_at'])
      .where('token_hash', '=', hash)
      .where('tenant_id', '=', tenant.id)
      .executeTakeFirst();
    if (!row || row.revoked_at !== null || row.expires_at.getTime() <= this.clock()) throw unauthenticated();
    const user = await loadAuthUser(this.db, tenant.id, row.owner_id, null);
    // Operators' tokens only (a client has the portal); an archived owner's tokens stop with the owner.
    if (!user || !user.isStaff) throw unauthenticated();
    const scopes = new Set(Array.isArray(row.scopes) ? (row.scopes as string[]) : []);
    const context: AuthContext = Object.freeze({
      kind: 'operator',
      userId: user.id,
      tenantId: user.tenantId,
      isOperator: user.isOperator,
      // Never more than the owner may: what the owner holds now, within the token's scopes.
      permissions: new Set(user.permissions.filter((name) => scopes.has(name))),
      companyIds: Object.freeze(user.companyIds) as number[],
      companyRoles: user.companyRoles,
      categoryIds: Object.freeze(user.categoryIds) as number[],
      tokenId: row.id,
    });
    this.remember(hash, {
      tokenId: row.id,
      tenantId: tenant.id,
      userId: row.owner_id,
      expiresAt: row.expires_at.getTime(),
    });
    if (generation !== undefined)
      this.cache.set(tenant.id, row.owner_id, `api:${row.id}`, context, generation);
    return context;
  }

  private remember(hash: string, known: Known): void {
    this.known.delete(hash);
    if (this.known.size >= MAX_KEPT) this.known.delete(this.known.keys().next().value!);
    this.known.set(hash, known);
  }

  /** Each token's own limit, per instance: a fixed minute, 429 with the wait once it is used up. */
  private count(tokenId: number, now: number): void {
    const wait = this.counts.hit(tokenId, now);
    if (wait > 0)
      throw new TooManyRequests(
        `Too many calls with this API token. Please try again in ${waitText(wait)}.`,
        wait,
      );
  }

  /**
   * Last use and address, at most once a minute per token: the instance skips the write within the
   * minute, and the statement's own condition keeps several instances from each writing it.
   */
  private async noteUse(tokenId: number, now: number, ip: string | undefined): Promise<void> {
    const last = this.lastWritten.get(tokenId);
    if (last !== undefined && now - last < LAST_USED_EVERY_MS) return;
    this.lastWritten.delete(tokenId);
    if (this.lastWritten.size >= MAX_KEPT) this.lastWritten.delete(this.lastWritten.keys().next().value!);
    this.lastWritten.set(tokenId, now);
    const at = new Date(now);
    await this.db
      .updateTable('api_tokens')
      .set({ last_used_at: at, last_used_ip: ip ?? null })
      .where('id', '=', tokenId)
      .where((eb) =>
        eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<', new Date(now - LAST_USED_EVERY_MS))]),
      )
      .execute();
  }
}
