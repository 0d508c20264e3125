import { json, type SeedContext } from '../db/seed/demo/context.ts';

/*
 * The company roles every tenant starts with (issue 39), the same three migration 0051 gave the tenants
 * that existed then: a member sees its own tickets and those shared with it; a company admin sees all
 * of the company and acts for colleagues; finance sees the company's invoices, quotes and subscriptions
 * besides its own tickets. The member is the default a new membership gets. The provider edits them.
 */
export const STARTING_COMPANY_ROLES = [
  {
    key: 'member',
    name: 'Lid',
    name_en: 'Member',
    name_de: 'Mitglied',
    grants_all: false,
    company_resources: ['companies'],
    own_resources: ['tickets'],
    create_on_behalf: false,
    manage_access: false,
    is_default: true,
  },
  {
    key: 'admin',
    name: 'Bedrijfsbeheerder',
    name_en: 'Company admin',
    name_de: 'Firmenadministrator',
    grants_all: true,
    company_resources: [],
    own_resources: [],
    create_on_behalf: true,
    manage_access: true,
    is_default: false,
  },
  {
    key: 'finance',
    name: 'Financiën',
    name_en: 'Finance',
    name_de: 'Finanzen',
    grants_all: false,
    // Contracts too: finance is told of a contract's low balance and buys more hours on its page.
    company_resources: ['companies', 'contracts', 'invoices', 'quotes', 'subscriptions'],
    own_resources: ['tickets'],
    create_on_behalf: false,
    manage_access: false,
    is_default: false,
  },
] as const;

export type CompanyRoleKey = (typeof STARTING_COMPANY_ROLES)[number]['key'];

/** Inserts the starting company roles; their ids by key. */
export async function seedCompanyRoles(ctx: SeedContext): Promise<Map<CompanyRoleKey, number>> {
  const ids = await ctx.list(
    'company_roles',
    STARTING_COMPANY_ROLES.map(({ key: _, company_resources, own_resources, ...role }) => ({
      ...role,
      company_resources: json(company_resources),
      own_resources: json(own_resources),
    })),
  );
  return new Map(STARTING_COMPANY_ROLES.map((r, i) => [r.key, ids[i]!]));
}
