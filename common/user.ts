/**
 * The signed-in user as login, refresh and `GET /api/auth/me` return it (server/auth/user.ts loads it,
 * server/auth/schemas.ts writes it; the apps keep it in localStorage: src/dataProvider/storage.ts).
 * Never a password hash.
 */
export interface UserPayload {
  id: number;
  first_name: string | null;
  last_name: string | null;
  full_name: string | null;
  /**
   * users.email may be null (nothing in the database requires one) while userSchema says string: a
   * signed-in user whose address was removed would be answered with "". Typed as stored; left as it was.
   */
  email: string | null;
  is_operator: 0 | 1 | 2;
  acronym: string | null;
  permissions_names: string[];
  modules: string[];
  configs: { name: string; value: unknown }[];
  categories: number[];
  /**
   * The client's companies and its company role in each (issue 39): `on_behalf`, `manage_access`, what
   * it may do; `grants_all` and `company_resources`, the portal resources it sees there company-wide;
   * `own_resources`, those it sees there only where they are its own.
   */
  companies: ({
    id: number;
    name: string;
    grants_all?: boolean;
    company_resources?: string[];
    own_resources?: string[];
  } & Partial<Record<CompanyAbility, boolean>>)[];
}

/**
 * What a client's company role may do beyond seeing (issue 39): create tickets for colleagues, set the
 * colleagues' roles. The keys of `companies[]` above; a schema's `x-portal.ability` names one.
 */
export const COMPANY_ABILITIES = ['on_behalf', 'manage_access'] as const;
export type CompanyAbility = (typeof COMPANY_ABILITIES)[number];

/** Whether the user's role in at least one of its companies has `ability` (none asked: yes). */
export const holdsAbility = (user: Pick<UserPayload, 'companies'>, ability: CompanyAbility | undefined) =>
  ability === undefined || (user.companies ?? []).some((company) => company[ability] === true);

/** Whether the user's role in `companyId` shows it `resource` company-wide (not only its own rows). */
export function seesCompanyWide(
  user: Pick<UserPayload, 'companies'>,
  companyId: unknown,
  resource: string,
): boolean {
  const company = (user.companies ?? []).find((c) => c.id === Number(companyId));
  return !!company && (company.grants_all === true || !!company.company_resources?.includes(resource));
}
