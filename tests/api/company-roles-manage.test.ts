/**
 * Company roles in the portal (issue 39, item 1): what a role lets a client do. The demo's Jansen BV
 * has Pieter (client@example.com), its company admin, and Lotte, a member: he creates tickets for her,
 * shares tickets and sets her role, which reaches her session at once; she shares only her own tickets
 * and changes no role; /auth/me says per company what the role allows; a role names only portal
 * resources. What each of them reads: tests/api/company-roles-reads.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { targets } from './harness.ts';
import {
  ADMIN,
  MEMBER,
  OPERATOR,
  OTHER,
  startCompanyRolesDesk,
  type CompanyRolesDesk,
} from './company-roles-world.ts';
import { FINANCE, makeFinanceClient } from './finance-client.ts';

describe.each(targets)('company roles on $name', (target) => {
  let { t, call, ids, jansen, pieter, lotte, eva, priority, roles, notLottes, close } =
    {} as CompanyRolesDesk;

  beforeAll(async () => {
    ({ t, call, ids, jansen, pieter, lotte, eva, priority, roles, notLottes, close } =
      await startCompanyRolesDesk(target));
  });
  afterAll(() => close?.());

  it('a member sees no memberships and cannot change a role; nor can the admin change his own or move one', async () => {
    const membership = await t.db
      .selectFrom('company_user')
      .select('id')
      .where('company_id', '=', jansen)
      .where('user_id', '=', lotte)
      .executeTakeFirstOrThrow();
    const own = await t.db
      .selectFrom('company_user')
      .select('id')
      .where('company_id', '=', jansen)
      .where('user_id', '=', pieter)
      .executeTakeFirstOrThrow();
    expect(await ids(MEMBER, '/api/company-user')).toEqual([]);
    const byMember = await call(MEMBER, 'PUT', `/api/company-user/${own.id}`, {
      company_role_id: roles.get('Member'),
    });
    expect(byMember.statusCode).toBe(404);
    const self = await call(ADMIN, 'PUT', `/api/company-user/${own.id}`, {
      company_role_id: roles.get('Member'),
    });
    expect(self.statusCode).toBe(422);
    expect(Object.keys(self.json().errors)).toEqual(['company_role_id']);
    const evasCompany = Number(
      (
        await t.db
          .selectFrom('company_user')
          .select('company_id')
          .where('user_id', '=', eva)
          .executeTakeFirstOrThrow()
      ).company_id,
    );
    const move = await call(ADMIN, 'PUT', `/api/company-user/${membership.id}`, { company_id: evasCompany });
    expect(move.statusCode).toBe(422);
    expect(await ids(ADMIN, '/api/company-user')).toContain(Number(membership.id));
  });

  it('/auth/me says per company what the role allows and sees company-wide: the portal offers by it', async () => {
    const companyOf = async (email: string) => {
      const res = await call(email, 'GET', '/api/auth/me');
      expect(res.statusCode, res.body).toBe(200);
      return (res.json().user.companies as Record<string, unknown>[]).find((c) => c.id === jansen);
    };
    expect(await companyOf(ADMIN)).toMatchObject({ manage_access: true, on_behalf: true, grants_all: true });
    expect(await companyOf(MEMBER)).toEqual({
      id: jansen,
      name: 'Jansen BV',
      manage_access: false,
      on_behalf: false,
      grants_all: false,
      company_resources: ['companies'],
      own_resources: ['tickets'],
    });
  });

  it('a role that sees the memberships but does not manage access changes none of them', async () => {
    const viewer = await call(OPERATOR, 'POST', '/api/company-roles', {
      name: 'Kijker',
      company_resources: ['companies', 'company-user'],
      own_resources: ['tickets'],
    });
    expect(viewer.statusCode, viewer.body).toBe(201);
    const memberships = await t.db
      .selectFrom('company_user')
      .select(['id', 'user_id'])
      .where('company_id', '=', jansen)
      .execute();
    const hers = memberships.find((m) => Number(m.user_id) === lotte)!;
    const his = memberships.find((m) => Number(m.user_id) === pieter)!;
    const made = await call(OPERATOR, 'PUT', `/api/company-user/${hers.id}`, {
      company_role_id: viewer.json().id,
    });
    expect(made.statusCode, made.body).toBe(200);
    try {
      await expect
        .poll(async () => (await ids(MEMBER, '/api/company-user')).sort(), { timeout: 1_000 })
        .toEqual(memberships.map((m) => Number(m.id)).sort());
      const demote = await call(MEMBER, 'PUT', `/api/company-user/${his.id}`, {
        company_role_id: roles.get('Member'),
      });
      expect(demote.statusCode).toBe(422);
      expect(Object.keys(demote.json().errors)).toEqual(['company_role_id']);
      const raise = await call(MEMBER, 'PUT', `/api/company-user/${hers.id}`, {
        company_role_id: roles.get('Company admin'),
      });
      expect(raise.statusCode).toBe(422);
    } finally {
      const back = await call(OPERATOR, 'PUT', `/api/company-user/${hers.id}`, {
        company_role_id: roles.get('Member'),
      });
      expect(back.statusCode).toBe(200);
      expect((await call(OPERATOR, 'DELETE', `/api/company-roles/${viewer.json().id}`)).statusCode).toBe(200);
    }
  });

  it('the admin creates a ticket for a colleague; a member may not, nor for a client of another company', async () => {
    const body = {
      description: 'For Lotte',
      priority_id: priority,
      company_id: jansen,
      custom_fields: { impact: 'department' },
    };
    const created = await call(ADMIN, 'POST', '/api/tickets', { ...body, client_id: lotte });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json().client_id).toBe(lotte);
    expect(await ids(MEMBER, '/api/tickets?builder[0][paginate]=100')).toContain(created.json().id);
    const outside = await call(ADMIN, 'POST', '/api/tickets', { ...body, client_id: eva });
    expect(outside.statusCode).toBe(422);
    expect(Object.keys(outside.json().errors)).toContain('client_id');
    const byMember = await call(MEMBER, 'POST', '/api/tickets', { ...body, client_id: pieter });
    expect(byMember.statusCode).toBe(422);
    expect(Object.keys(byMember.json().errors)).toEqual(['client_id']);
    const ownTicket = await call(MEMBER, 'POST', '/api/tickets', body);
    expect(ownTicket.statusCode, ownTicket.body).toBe(201);
    expect(ownTicket.json().client_id).toBe(lotte);
  });

  it('a ticket shared with her she sees; she shares only her own, with colleagues only', async () => {
    const id = await notLottes();
    const mineRes = await call(MEMBER, 'POST', '/api/tickets', {
      description: 'Mine',
      custom_fields: { impact: 'department' },
      priority_id: priority,
      company_id: jansen,
    });
    const mine = mineRes.json().id as number;
    // Not hers to share, and a client of another company is no colleague.
    expect(
      (await call(MEMBER, 'POST', '/api/ticket-shares', { ticket_id: id, user_id: lotte })).statusCode,
    ).toBe(422);
    expect(
      (await call(MEMBER, 'POST', '/api/ticket-shares', { ticket_id: mine, user_id: eva })).statusCode,
    ).toBe(422);
    expect(
      (await call(ADMIN, 'POST', '/api/ticket-shares', { ticket_id: id, user_id: eva })).statusCode,
    ).toBe(422);
    const shared = await call(ADMIN, 'POST', '/api/ticket-shares', { ticket_id: id, user_id: lotte });
    expect(shared.statusCode, shared.body).toBe(201);
    expect((await call(MEMBER, 'GET', `/api/tickets/${id}`)).statusCode).toBe(200);
    expect(await ids(MEMBER, '/api/tickets?builder[0][paginate]=100')).toContain(id);
    const own = await call(MEMBER, 'POST', '/api/ticket-shares', { ticket_id: mine, user_id: pieter });
    expect(own.statusCode, own.body).toBe(201);
    // Another company's client sees neither the ticket nor its shares.
    expect((await call(OTHER, 'GET', `/api/tickets/${id}`)).statusCode).toBe(404);
    const theirs = await ids(OTHER, '/api/ticket-shares');
    expect(theirs).not.toContain(shared.json().id);
    expect(theirs).not.toContain(own.json().id);
    // Unshared, it is gone for her again.
    expect((await call(ADMIN, 'DELETE', `/api/ticket-shares/${shared.json().id}`)).statusCode).toBe(200);
    expect((await call(MEMBER, 'GET', `/api/tickets/${id}`)).statusCode).toBe(404);
  });

  it("the admin's shares of her own ticket she sees and may end; those of a colleague's ticket she does not", async () => {
    const fenna = (await makeFinanceClient(t)).id;
    const mine = await call(MEMBER, 'POST', '/api/tickets', {
      description: 'Printer op de tweede verdieping',
      custom_fields: { impact: 'department' },
      priority_id: priority,
      company_id: jansen,
    });
    expect(mine.statusCode, mine.body).toBe(201);
    const ofHers = await call(ADMIN, 'POST', '/api/ticket-shares', {
      ticket_id: mine.json().id,
      user_id: fenna,
    });
    expect(ofHers.statusCode, ofHers.body).toBe(201);
    const ofPieters = await call(ADMIN, 'POST', '/api/ticket-shares', {
      ticket_id: await notLottes(),
      user_id: fenna,
    });
    expect(ofPieters.statusCode, ofPieters.body).toBe(201);
    // Who else reads her ticket is hers to know, whoever shared it; Pieter's ticket's shares are not.
    const seen = await ids(MEMBER, '/api/ticket-shares?builder[0][paginate]=100');
    expect(seen).toContain(ofHers.json().id);
    expect(seen).not.toContain(ofPieters.json().id);
    expect((await call(MEMBER, 'GET', `/api/ticket-shares/${ofPieters.json().id}`)).statusCode).toBe(404);
    expect((await call(MEMBER, 'DELETE', `/api/ticket-shares/${ofPieters.json().id}`)).statusCode).toBe(404);
    // The one shared with shows it too, and the ticket's client ends it.
    expect(await ids(FINANCE, '/api/ticket-shares?builder[0][paginate]=100')).toContain(ofHers.json().id);
    expect((await call(MEMBER, 'DELETE', `/api/ticket-shares/${ofHers.json().id}`)).statusCode).toBe(200);
    expect((await call(FINANCE, 'GET', `/api/tickets/${mine.json().id}`)).statusCode).toBe(404);
  });

  it('the admin makes her finance: she sees the invoices, and no longer once made a member again', async () => {
    const membership = await t.db
      .selectFrom('company_user')
      .select('id')
      .where('company_id', '=', jansen)
      .where('user_id', '=', lotte)
      .executeTakeFirstOrThrow();
    const res = await call(ADMIN, 'PUT', `/api/company-user/${membership.id}`, {
      company_role_id: roles.get('Finance'),
    });
    expect(res.statusCode, res.body).toBe(200);
    // The change reaches her signed-in session at once (auth_user_changed), not after the cache's TTL.
    await expect
      .poll(async () => (await ids(MEMBER, '/api/invoices')).length, { timeout: 1_000 })
      .toBeGreaterThan(0);
    const back = await call(ADMIN, 'PUT', `/api/company-user/${membership.id}`, {
      company_role_id: roles.get('Member'),
    });
    expect(back.statusCode).toBe(200);
    await expect.poll(async () => (await ids(MEMBER, '/api/invoices')).length, { timeout: 1_000 }).toBe(0);
  });

  it('a role names only portal resources limited by company (the provider edits roles in the back office)', async () => {
    const bad = await call(OPERATOR, 'POST', '/api/company-roles', {
      name: 'Odd',
      company_resources: ['operators'],
    });
    expect(bad.statusCode).toBe(422);
    expect(Object.keys(bad.json().errors)).toEqual(['company_resources']);
    const badOwn = await call(OPERATOR, 'POST', '/api/company-roles', {
      name: 'Odd',
      own_resources: ['invoices'],
    });
    expect(badOwn.statusCode).toBe(422);
    const good = await call(OPERATOR, 'POST', '/api/company-roles', {
      name: 'Assets',
      company_resources: ['companies', 'assets'],
      own_resources: ['tickets'],
    });
    expect(good.statusCode, good.body).toBe(201);
    expect(good.json().company_resources).toEqual(['companies', 'assets']);
    // The finance role's own list, contracts (of their companies) included, saves as the form sends it.
    const finance = await call(OPERATOR, 'PUT', `/api/company-roles/${good.json().id}`, {
      company_resources: ['companies', 'contracts', 'invoices', 'quotes', 'subscriptions'],
    });
    expect(finance.statusCode, finance.body).toBe(200);
    // An edit is held to the same: a name that is no resource at all, beside a good one.
    const badEdit = await call(OPERATOR, 'PUT', `/api/company-roles/${good.json().id}`, {
      own_resources: ['tickets', 'no-such-thing'],
    });
    expect(badEdit.statusCode).toBe(422);
    expect(badEdit.json().errors.own_resources[0]).toContain('no-such-thing');
    // A client cannot edit roles.
    expect(
      (await call(ADMIN, 'PUT', `/api/company-roles/${good.json().id}`, { grants_all: true })).statusCode,
    ).toBe(403);
  });

  it('a new membership gets the tenant default role', async () => {
    const made = await call(OPERATOR, 'POST', '/api/company-user', { company_id: jansen, user_id: eva });
    expect(made.statusCode, made.body).toBe(201);
    expect(made.json().company_role_id).toBe(roles.get('Member'));
    // Eva now sees her own Jansen tickets only: none.
    const jansenTickets = await ids(
      OTHER,
      `/api/tickets?builder[0][where][0]=company_id&builder[0][where][1]==&builder[0][where][2]=${jansen}`,
    );
    expect(jansenTickets).toEqual([]);
    expect((await call(OPERATOR, 'DELETE', `/api/company-user/${made.json().id}`)).statusCode).toBe(200);
  });
});
