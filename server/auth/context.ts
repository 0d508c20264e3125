import type { Language, Relation } from '../../common/schema/types.ts';
import type { CompanyRole } from './company-roles.ts';

/** Who is calling, as every route sees it after authentication. */
export interface AuthContext {
  /** operator: back office; client: portal; record-token: a link that opens exactly one record. */
  kind: 'operator' | 'client' | 'record-token';
  userId: number | null;
  tenantId: number;
  /** 0 client, 1 first line, 2 second line. */
  isOperator: 0 | 1 | 2;
  /** Full permission names, e.g. 'tenant.tickets.index', 'portal.quotes.show'. */
  permissions: ReadonlySet<string>;
  /** Clients (and record-token holders): the companies whose rows they may see. */
  companyIds: number[];
  /** Clients: their role in each of those companies (issue 39), which narrows what they see there. */
  companyRoles: readonly CompanyRole[];
  /** Operators: their category ids (the filter value 'me' on a categories field). */
  categoryIds: number[];
  /** record-token only: the one record it opens, and the relations of it its schema opens too. */
  recordToken?: RecordLink;
  /** The request's language (Accept-Language; server/http/language.ts): translated fields read in it. Default nl. */
  language?: Language;
  /** The request's address (Fastify's request.ip, as TRUST_PROXY lets it be), for the audit log. */
  ip?: string;
  /** The API token the call came with (issue 38's tokens), for the audit log. */
  tokenId?: number;
}

/**
 * The desk itself as a caller: no user, no permission of its own (a mail that arrives, an SLA's
 * escalation). Paths that take it write what they were built to write, in the tenant given.
 */
export function systemContext(tenantId: number): AuthContext {
  return {
    kind: 'operator',
    userId: null,
    tenantId,
    isOperator: 2,
    permissions: new Set(),
    companyIds: [],
    companyRoles: [],
    categoryIds: [],
  };
}

/**
 * What a link to one record opens (the resource's x-record-link): the record, the rows of its to-many
 * `relations` (its lines), and the label of the record each to-one relation points at.
 */
export interface RecordLink {
  resource: string;
  id: number;
  relations: readonly Relation[];
}

export interface Tenant {
  id: number;
  slug: string;
  name: string;
  setupCompleted: boolean;
  trialEndsAt: Date | null;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the tenancy plugin on every /api request; unknown subdomain answers 404 before this. */
    tenant: Tenant;
    /** Resolves the caller or throws HttpError 401. Cached per request. */
    getAuth(): Promise<AuthContext>;
  }
}
