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
  /** Operators: their category ids (the filter value 'me' on a categories field). */
  categoryIds: number[];
  /** record-token only: the one record it opens. */
  recordToken?: { resource: string; id: number };
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
