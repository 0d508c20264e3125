/**
 * Which portal screens a client's company roles offer (common/portal-offers.ts): a resource its roles
 * reach in no company is no screen (a member's invoices), one they do not narrow always is, and a
 * resource asking for an ability needs it too. The roles are the starting ones (server/tenancy).
 */
import { describe, expect, it } from 'vitest';
import { portalOffers, rolesReach } from '../../common/portal-offers.ts';
import type { UserPayload } from '../../common/user.ts';
import { STARTING_COMPANY_ROLES } from '../../server/tenancy/company-roles.ts';
import { registry } from '../../server/schema/registry.ts';

type Company = UserPayload['companies'][number];

/** A client of one company with the starting role of this key, as /api/auth/me writes it. */
function clientWith(key: (typeof STARTING_COMPANY_ROLES)[number]['key']): Pick<UserPayload, 'companies'> {
  const role = STARTING_COMPANY_ROLES.find((r) => r.key === key)!;
  const company: Company = {
    id: 1,
    name: 'Jansen BV',
    grants_all: role.grants_all,
    company_resources: [...role.company_resources],
    own_resources: [...role.own_resources],
    on_behalf: role.create_on_behalf,
    manage_access: role.manage_access,
  };
  return { companies: [company] };
}

const offered = (user: Pick<UserPayload, 'companies'>) =>
  [...registry().resources.values()]
    .filter((r) => r.portal?.actions.includes('index'))
    .filter((r) => portalOffers(user, r))
    .map((r) => r.name);

describe('the portal screens a company role offers', () => {
  it('a member: her own tickets, her companies and the knowledge base, no invoices, contracts or colleagues', () => {
    const screens = offered(clientWith('member'));
    expect(screens).toEqual(expect.arrayContaining(['tickets', 'companies', 'knowledge-articles']));
    for (const name of ['invoices', 'quotes', 'subscriptions', 'contracts', 'assets', 'company-user'])
      expect(screens, name).not.toContain(name);
  });

  it('finance: invoices, quotes, subscriptions and contracts besides her own tickets', () => {
    const screens = offered(clientWith('finance'));
    expect(screens).toEqual(
      expect.arrayContaining(['tickets', 'invoices', 'quotes', 'subscriptions', 'contracts']),
    );
    expect(screens).not.toContain('assets');
    expect(screens).not.toContain('company-user');
  });

  it('the company admin: every screen, colleagues included', () => {
    const all = [...registry().resources.values()]
      .filter((r) => r.portal?.actions.includes('index'))
      .map((r) => r.name);
    expect(offered(clientWith('admin'))).toEqual(all);
    expect(all).toContain('company-user');
    // A payload stored before roles existed (no companies): the roles decide nothing, abilities hold none.
    expect(offered({ companies: undefined as unknown as Company[] })).toEqual(
      all.filter((name) => name !== 'company-user'),
    );
  });

  it('a role in one of two companies is enough; no company reaches nothing the roles narrow', () => {
    const invoices = registry().require('invoices');
    const member = clientWith('member').companies[0]!;
    const finance = { ...clientWith('finance').companies[0]!, id: 2 };
    expect(rolesReach({ companies: [member, finance] }, invoices)).toBe(true);
    expect(rolesReach({ companies: [member] }, invoices)).toBe(false);
    expect(rolesReach({ companies: [] }, invoices)).toBe(false);
    // Not narrowed by the roles: offered to a client of no company too.
    expect(rolesReach({ companies: [] }, registry().require('knowledge-articles'))).toBe(true);
  });

  it('"own" reaches only a resource that says what its own rows are, as the server scopes them', () => {
    // A role whose own list names invoices (stored before the server refused it: invoices have no
    // x-portal.own, so the server's scope gives such a client none of them) offers no invoices screen.
    const own = (names: string[]): Company => ({
      ...clientWith('member').companies[0]!,
      company_resources: [],
      own_resources: names,
    });
    const invoices = registry().require('invoices');
    const tickets = registry().require('tickets');
    expect(invoices.portal?.own).toBeUndefined();
    expect(tickets.portal?.own).toBeDefined();
    expect(rolesReach({ companies: [own(['invoices'])] }, invoices)).toBe(false);
    expect(rolesReach({ companies: [own(['tickets'])] }, tickets)).toBe(true);
    expect(rolesReach({ companies: [own([])] }, tickets)).toBe(false);
  });
});
