import { sql, type RawBuilder } from 'kysely';

/**
 * A client's role in one of its companies (issue 39): which portal resources it sees there company-wide
 * (`all`: every one), which only where they are its own or shared with it, and what else it may do there.
 * Loaded with the user (user.ts), carried in the AuthContext, read by the one portal scope
 * (server/query/sql.ts) and the few writes that ask (creating for a colleague, setting colleagues' roles).
 */
export interface CompanyRole {
  companyId: number;
  roleId: number;
  all: boolean;
  company: readonly string[];
  own: readonly string[];
  onBehalf: boolean;
  manageAccess: boolean;
}

/** The reach a caller's roles give on `resource`: the companies it sees it in wholly, and partly (own). */
export function reachOf(
  roles: readonly CompanyRole[],
  resource: string,
): { company: number[]; own: number[] } {
  const company: number[] = [];
  const own: number[] = [];
  for (const role of roles) {
    if (role.all || role.company.includes(resource)) company.push(role.companyId);
    else if (role.own.includes(resource)) own.push(role.companyId);
  }
  return { company, own };
}

/** The caller's role in `companyId`, if it belongs to that company. */
export const roleIn = (roles: readonly CompanyRole[], companyId: unknown): CompanyRole | undefined =>
  roles.find((r) => r.companyId === Number(companyId));

/**
 * Correlated subquery on `users as u`: the user's role per company. A membership without a role (written
 * by a path that named none) has the tenant's default role; without a default, no role, so that company
 * shows the client nothing but its membership.
 */
export function companyRolesOf(): RawBuilder<unknown[]> {
  return sql<unknown[]>`coalesce((
    select json_agg(json_build_object(
      'company_id', cu.company_id, 'role_id', r.id, 'all', r.grants_all, 'company', r.company_resources,
      'own', r.own_resources, 'on_behalf', r.create_on_behalf, 'manage', r.manage_access
    ) order by cu.company_id)
    from company_user cu
    join company_roles r on r.tenant_id = cu.tenant_id and r.id = coalesce(cu.company_role_id, (
      select d.id from company_roles d where d.tenant_id = cu.tenant_id and d.is_default limit 1))
    where cu.user_id = u.id and cu.tenant_id = u.tenant_id
  ), '[]'::json)`;
}

const names = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];

/** The loaded JSON rows as CompanyRoles (frozen: the context is shared by the requests of a session). */
export function toCompanyRoles(rows: unknown[]): readonly CompanyRole[] {
  return Object.freeze(
    rows.map((row) => {
      const r = row as Record<string, unknown>;
      return Object.freeze({
        companyId: Number(r.company_id),
        roleId: Number(r.role_id),
        all: r.all === true,
        company: Object.freeze(names(r.company)),
        own: Object.freeze(names(r.own)),
        onBehalf: r.on_behalf === true,
        manageAccess: r.manage === true,
      });
    }),
  );
}
