import type { FastifyRequest } from 'fastify';
import type { Db } from '../db/database.ts';
import { bySchema } from '../db/schema-tables.ts';
import type { Registry } from '../schema/registry.ts';
import { unauthenticated } from '../http/errors.ts';
import type { AuthContext, Tenant } from './context.ts';
import type { AccessTokens } from './access-tokens.ts';
import { AuthContextCache } from './context-cache.ts';
import { ApiTokenAuthenticator, isApiToken } from './api-tokens.ts';
import { findRecordToken } from './record-tokens.ts';
import { loadAuthUser, type AuthUser } from './user.ts';

/** Spec section 8: the portal shows its own text for this one, so it must be exactly this. */
export const MULTIPLE_SESSIONS_MESSAGE = 'You cannot have multiple login sessions per account.';

/** The header a quote link's token travels in (spec section 7: instead of the bearer token). */
export const RECORD_TOKEN_HEADER = 'x-quote-token';

export interface AuthenticatorOptions {
  db: Db;
  tokens: AccessTokens;
  /** Resolves a record token's resource to its table; a function so the registry loads lazily. */
  registry: () => Registry;
  cache?: AuthContextCache;
  /** Calls one API token may make per minute (config.apiTokenRequestsPerMinute); 0: no limit. */
  apiTokensPerMinute?: number;
}

/** Turns a request's credentials into the AuthContext every route works with. */
export class Authenticator {
  readonly cache: AuthContextCache;
  private readonly db: Db;
  private readonly tokens: AccessTokens;
  private readonly registry: () => Registry;
  private readonly apiTokens: ApiTokenAuthenticator;

  constructor({
    db,
    tokens,
    registry,
    cache = new AuthContextCache(),
    apiTokensPerMinute = 0,
  }: AuthenticatorOptions) {
    this.db = db;
    this.tokens = tokens;
    this.registry = registry;
    this.cache = cache;
    this.apiTokens = new ApiTokenAuthenticator(db, cache, apiTokensPerMinute);
  }

  /** The bearer token wins (an API token by its prefix, else a session's access token); else the quote token; else 401. */
  async authenticate(request: FastifyRequest): Promise<AuthContext> {
    const tenant = request.tenant as Tenant | undefined;
    if (!tenant) throw unauthenticated();
    const bearer = bearerToken(request.headers.authorization);
    if (bearer && isApiToken(bearer)) return this.apiTokens.authenticate(tenant, bearer, { ip: request.ip });
    if (bearer) return this.fromAccessToken(tenant, bearer);
    const recordToken = singleHeader(request.headers[RECORD_TOKEN_HEADER]);
    if (recordToken) return this.fromRecordToken(tenant, recordToken);
    throw unauthenticated();
  }

  /**
   * A session's access token; an API token (by its prefix) too, for what checks a caller again without a
   * request (a live stream's heartbeat), which neither counts against its limit nor notes a use.
   */
  async fromAccessToken(tenant: Tenant, token: string): Promise<AuthContext> {
    if (isApiToken(token)) return this.apiTokens.authenticate(tenant, token, { recheck: true });
    const claims = await this.tokens.verify(token);
    // A token of another tenant is as good as no token here, whatever it grants over there.
    if (!claims || claims.tenantId !== tenant.id) throw unauthenticated();
    const { userId, sessionId } = claims;
    const cached = this.cache.get(tenant.id, userId, sessionId);
    if (cached) return cached;

    const generation = this.cache.generation(tenant.id, userId);
    const user = await loadAuthUser(this.db, tenant.id, userId, sessionId);
    if (!user) throw unauthenticated();
    if (user.isStaff && user.sessionId !== sessionId) {
      // A different id means a login elsewhere replaced this session; none means the operator logged out.
      throw unauthenticated(user.sessionId === null ? undefined : MULTIPLE_SESSIONS_MESSAGE);
    }
    if (!user.sessionAlive) throw unauthenticated();

    const context = userContext(user);
    this.cache.set(tenant.id, userId, sessionId, context, generation);
    return context;
  }

  /** A quote link: exactly one record, what its x-record-link opens, and the portal actions on it. */
  async fromRecordToken(tenant: Tenant, token: string): Promise<AuthContext> {
    const found = await findRecordToken(this.db, tenant.id, token);
    if (!found) throw unauthenticated();
    const resource = this.registry().get(found.resource);
    if (!resource) throw unauthenticated();

    let companyIds: number[] = [];
    const companyColumn = resource.fields.company_id?.column;
    let query = bySchema(this.db).selectFrom(resource.table).where('id', '=', found.recordId);
    if (resource.tenant) query = query.where('tenant_id', '=', tenant.id);
    if (companyColumn) {
      const row = await query.select(`${companyColumn} as company_id`).executeTakeFirst();
      if (!row) throw unauthenticated();
      if (row.company_id !== null && row.company_id !== undefined) companyIds = [Number(row.company_id)];
    } else {
      const row = await query.select('id').executeTakeFirst();
      if (!row) throw unauthenticated();
    }

    const name = found.resource;
    const relations = resource.recordLink.map((r) => resource.relations[r]!);
    // The record's lines are read as a list of their own too (the portal's quote page does).
    const lines = relations.flatMap((r) =>
      r.kind === 'belongsTo' || r.kind === 'morphTo'
        ? []
        : [`portal.${r.resource}.index`, `portal.${r.resource}.show`],
    );
    return Object.freeze({
      kind: 'record-token',
      userId: null,
      tenantId: tenant.id,
      isOperator: 0,
      permissions: new Set([
        `portal.${name}.show`,
        `portal.${name}.accept`,
        `portal.${name}.download`,
        ...lines,
      ]),
      companyIds: Object.freeze(companyIds) as number[],
      // A link opens its record by recordLinkScope, never by a company's role.
      companyRoles: Object.freeze([]),
      categoryIds: Object.freeze([]) as unknown as number[],
      recordToken: Object.freeze({ resource: name, id: found.recordId, relations: Object.freeze(relations) }),
    });
  }
}

/** What a signed-in user (or a link made for one) may do, as loaded from the database. */
function userContext(user: AuthUser): AuthContext {
  return Object.freeze({
    kind: user.isStaff ? 'operator' : 'client',
    userId: user.id,
    tenantId: user.tenantId,
    isOperator: user.isOperator,
    permissions: new Set(user.permissions),
    companyIds: Object.freeze(user.companyIds) as number[],
    companyRoles: user.companyRoles,
    categoryIds: Object.freeze(user.categoryIds) as number[],
  });
}

/**
 * The holder of a download link made for a user (server/files/signed-urls.ts), as the account is
 * now: undefined once it is deleted or archived, and with its current companies and role, so a link
 * opens no more than its holder's bearer token would. A link carries no login session.
 */
export async function linkHolderContext(
  db: Db,
  tenantId: number,
  userId: number,
): Promise<AuthContext | undefined> {
  const user = await loadAuthUser(db, tenantId, userId, null);
  return user && userContext(user);
}

/** The token of `Authorization: Bearer <token>`; undefined for any other or no scheme. */
export function bearerToken(header: string | undefined): string | undefined {
  const match = header ? /^Bearer[ \t]+([^\s]+)[ \t]*$/i.exec(header) : null;
  return match?.[1];
}

function singleHeader(value: string | string[] | undefined): string | undefined {
  const first = Array.isArray(value) ? value[0] : value;
  const trimmed = first?.trim();
  return trimmed ? trimmed : undefined;
}
