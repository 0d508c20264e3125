/**
 * Callers built in code, for the query code's tests and bench/list-sql-build.ts: an AuthContext as the
 * server would build it after a login, without a login or a database.
 */
import type { CompanyRole } from '../server/auth/company-roles.ts';
import type { AuthContext } from '../server/auth/context.ts';

/** A second-line operator of tenant 1, user 1, without permissions or categories; `over` changes that. */
export const operatorAuth = (over: Partial<AuthContext> = {}): AuthContext => ({
  kind: 'operator',
  userId: 1,
  tenantId: 1,
  isOperator: 2,
  permissions: new Set(),
  companyIds: [],
  companyRoles: [],
  categoryIds: [],
  ...over,
});

/** A company admin's role in `companyId` (issue 39): every portal resource company-wide. */
export const companyAdmin = (companyId: number): CompanyRole => ({
  companyId,
  roleId: 1,
  all: true,
  company: [],
  own: [],
  onBehalf: true,
  manageAccess: true,
});
