import people from '../data/people.json' with { type: 'json' };
import companyPlans from '../data/companies.json' with { type: 'json' };
import { fail, json, type SeedContext } from './context.ts';
import type { Lists } from './settings.ts';

/*
 * The two operators and the two client companies with their contacts (one who logs in, one who does
 * not). Nothing of one client's company points at the other's.
 */

export interface AssetPlan {
  name: string;
  category: string;
  status: string;
  location: string;
  /** Index into the company's clients, or null. */
  client: number | null;
  warrantyDays: number | null;
}

export interface CompanyPlan {
  name: string;
  address: string;
  postalCode: string;
  city: string;
  sla: string;
  domain: string;
  clients: { first: string; last: string; email: string; login: boolean; phone: string }[];
  tickets: number;
  assets: AssetPlan[];
  /** `sla`: the SLA the contract gives the company's tickets while it runs (demo/sla.ts). */
  contract: { name: string; period: 'month' | 'quarter'; hours: number; periods: number; sla: string };
  prepaid: { name: string; hours: number };
  workplaces: number;
  groups: { name: string; archived: boolean }[];
  quotes: { name: string; status: 1 | 2 | 3 | 4; products: [code: string, quantity: number][] }[];
  deals: string[];
  projects: string[];
  /** Descriptions of its subscriptions (data/sales.json) that have been terminated. */
  terminatedSubscriptions: string[];
}

export const COMPANIES = companyPlans as CompanyPlan[];

export interface Person {
  id: number;
  name: string;
}
export interface Client extends Person {
  email: string;
}

export interface People {
  adminId: number;
  operatorId: number;
  operators: Person[];
  companyIds: number[];
  /** Per company (in COMPANIES' order), its clients. */
  clientsOf: Client[][];
}

export async function seedPeople(ctx: SeedContext, lists: Lists): Promise<People> {
  const { db, opts } = ctx;
  const role = (name: string) => lists.roles.get(name) ?? fail(`no role ${name}`);
  const operatorIds = await ctx.list(
    'users',
    people.operators.map(({ role: roleName, categories: _, modules, ...o }) => ({
      ...o,
      password_hash: opts.passwordHash,
      is_staff: true,
      role_id: role(roleName),
      modules: json(modules),
    })),
  );
  const [adminId, operatorId] = operatorIds as [number, number];
  const operators = people.operators.map((o, i) => ({
    id: operatorIds[i]!,
    name: `${o.first_name} ${o.last_name}`,
  }));
  await db
    .insertInto('category_user')
    .values(
      people.operators.flatMap((o, i) =>
        o.categories.map((c) => ({ user_id: operatorIds[i]!, category_id: lists.categoryIds.get(c)! })),
      ),
    )
    .execute();

  const companyIds = await ctx.list(
    'companies',
    COMPANIES.map((c) => ({
      name: c.name,
      address_1: c.address,
      postal_code: c.postalCode,
      city: c.city,
      country_id: lists.countries.get('Nederland'),
      phone: c.clients[0]!.phone,
      email: `info@${c.domain}`,
      sla_id: lists.slaIds.get(c.sla),
    })),
  );
  const clientIds = await ctx.list(
    'users',
    COMPANIES.flatMap((c) =>
      c.clients.map((p) => ({
        first_name: p.first,
        last_name: p.last,
        email: p.email,
        password_hash: p.login ? opts.passwordHash : null,
        is_operator: 0,
        is_staff: false,
        role_id: role(people.clientRole),
        phone: p.phone,
        modules: json([]),
      })),
    ),
  );
  const clientsOf: Client[][] = [];
  let nextClient = 0;
  for (const c of COMPANIES) {
    clientsOf.push(
      c.clients.map((p) => ({ id: clientIds[nextClient++]!, name: `${p.first} ${p.last}`, email: p.email })),
    );
  }
  await ctx.list(
    'company_user',
    // Each company's first client is its company admin (issue 39), the others members.
    clientsOf.flatMap((clients, ci) =>
      clients.map((cl, i) => ({
        company_id: companyIds[ci],
        user_id: cl.id,
        company_role_id: lists.companyRoles.get(i === 0 ? 'admin' : 'member'),
      })),
    ),
  );
  return { adminId, operatorId, operators, companyIds, clientsOf };
}
