/**
 * Company roles in the portal (issue 39, item 1). The demo's Jansen BV has Pieter (client@example.com),
 * its company admin, and Lotte, a member: she sees her own tickets and those shared with her; he sees
 * every ticket of the company, creates tickets for her and sets her role. Every read path honours the
 * role: lists, records, `with`, `whereHas`, counts, search, files, live frames and signed links (exports
 * are operators' only: a client gets 403, tests/api/exports.test.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registry } from '../../server/schema/registry.ts';
import { linkHolderContext } from '../../server/auth/authenticate.ts';
import { frameReader } from '../../server/live/frames.ts';
import { signedFileUrl, signingKey } from '../../server/files/signed-urls.ts';
import { buildTestApp, targets, type TestApp } from './harness.ts';

const ADMIN = 'client@example.com';
const MEMBER = 'lotte.smit@jansenbv.nl';
const OTHER = 'other@example.com';
const OPERATOR = 'admin@example.com';

describe.each(targets)('company roles on $name', (target) => {
  let t: TestApp;
  let tenantId: number;
  let jansen: number;
  let pieter: number;
  let lotte: number;
  let eva: number;
  let priority: number;
  const roles = new Map<string, number>();

  const call = async (
    email: string,
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: string,
    payload?: object,
  ) => t.app.inject({ method, url, headers: await t.as(email), ...(payload ? { payload } : {}) });
  const ids = async (email: string, url: string): Promise<number[]> => {
    const res = await call(email, 'GET', url);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data.map((r: { id: number }) => r.id);
  };
  const userId = async (email: string) =>
    Number(
      (await t.db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirstOrThrow()).id,
    );
  /** A Jansen ticket that is not Lotte's and not shared with her. */
  const notLottes = async () =>
    Number(
      (
        await t.db
          .selectFrom('tickets')
          .select('id')
          .where('company_id', '=', jansen)
          .where('client_id', '=', pieter)
          .where('is_template', '=', false)
          .where('id', 'not in', t.db.selectFrom('ticket_shares').select('ticket_id'))
          .orderBy('id')
          .executeTakeFirstOrThrow()
      ).id,
    );

  beforeAll(async () => {
    t = await buildTestApp(target, { logger: { level: 'error' } });
    jansen = Number(
      (
        await t.db
          .selectFrom('companies')
          .select('id')
          .where('name', '=', 'Jansen BV')
          .executeTakeFirstOrThrow()
      ).id,
    );
    tenantId = Number(
      (
        await t.db
          .selectFrom('companies')
          .select('tenant_id')
          .where('id', '=', jansen)
          .executeTakeFirstOrThrow()
      ).tenant_id,
    );
    pieter = await userId(ADMIN);
    lotte = await userId(MEMBER);
    eva = await userId(OTHER);
    priority = Number((await t.db.selectFrom('priorities').select('id').executeTakeFirstOrThrow()).id);
    for (const r of await t.db.selectFrom('company_roles').select(['id', 'name_en']).execute())
      roles.set(String(r.name_en), Number(r.id));
  });
  afterAll(() => t?.close());

  it('the demo gives each company an admin, and its other clients the default member role', async () => {
    const rows = await t.db
      .selectFrom('company_user')
      .select(['user_id', 'company_role_id'])
      .where('company_id', '=', jansen)
      .execute();
    const roleOf = new Map(rows.map((r) => [Number(r.user_id), Number(r.company_role_id)]));
    expect(roleOf.get(pieter)).toBe(roles.get('Company admin'));
    expect(roleOf.get(lotte)).toBe(roles.get('Member'));
  });

  it('a member lists only her own tickets; the admin all of the company', async () => {
    const all = await ids(ADMIN, '/api/tickets?builder[0][paginate]=100');
    const mine = await ids(MEMBER, '/api/tickets?builder[0][paginate]=100');
    const companyTickets = await t.db
      .selectFrom('tickets')
      .select(['id', 'client_id'])
      .where('company_id', '=', jansen)
      .where('is_template', '=', false)
      .execute();
    expect(new Set(all)).toEqual(new Set(companyTickets.map((r) => Number(r.id))));
    const lottes = companyTickets.filter((r) => Number(r.client_id) === lotte).map((r) => Number(r.id));
    expect(lottes.length).toBeGreaterThan(0);
    expect(new Set(mine)).toEqual(new Set(lottes));
    // The count is the list's.
    const res = await call(MEMBER, 'GET', '/api/tickets?builder[0][paginate]=1');
    expect(res.json().total).toBe(lottes.length);
  });

  it('no side door: record, where, with, whereHas, search, messages and files of a ticket not hers', async () => {
    const id = await notLottes();
    expect((await call(ADMIN, 'GET', `/api/tickets/${id}`)).statusCode).toBe(200);
    expect((await call(MEMBER, 'GET', `/api/tickets/${id}`)).statusCode).toBe(404);
    const byWhere = await call(
      MEMBER,
      'GET',
      `/api/tickets?builder[0][where][0]=id&builder[0][where][1]==&builder[0][where][2]=${id}`,
    );
    expect(byWhere.json().total).toBe(0);
    // Through her company: `with` loads only what she may see, `whereHas` finds nothing through it.
    const withTickets = await call(MEMBER, 'GET', `/api/companies/${jansen}?with[0]=tickets`);
    expect(withTickets.statusCode, withTickets.body).toBe(200);
    const loaded = (withTickets.json().tickets ?? []).map((r: { id: number }) => r.id);
    expect(loaded.length).toBeGreaterThan(0);
    expect(loaded).not.toContain(id);
    const viaHas = await call(
      MEMBER,
      'GET',
      `/api/companies?builder[0][whereHas][0]=tickets&builder[0][whereHas][1][0][where][0]=id&builder[0][whereHas][1][0][where][1]==&builder[0][whereHas][1][0][where][2]=${id}`,
    );
    expect(viaHas.json().total).toBe(0);
    const asAdmin = await call(
      ADMIN,
      'GET',
      `/api/companies?builder[0][whereHas][0]=tickets&builder[0][whereHas][1][0][where][0]=id&builder[0][whereHas][1][0][where][1]==&builder[0][whereHas][1][0][where][2]=${id}`,
    );
    expect(asAdmin.json().total).toBe(1);
    const reference = (
      await t.db.selectFrom('tickets').select('reference').where('id', '=', id).executeTakeFirstOrThrow()
    ).reference!;
    expect(await ids(ADMIN, `/api/tickets?builder[0][s]=${reference}`)).toContain(id);
    expect(await ids(MEMBER, `/api/tickets?builder[0][s]=${reference}`)).toEqual([]);
    // The ticket's thread and its files.
    const messages = await t.db
      .selectFrom('messages')
      .select('id')
      .where('morphable_type', '=', 'ticket')
      .where('morphable_id', '=', id)
      .where('visible_to_client', '=', true)
      .execute();
    expect(messages.length).toBeGreaterThan(0);
    for (const m of messages) {
      expect((await call(ADMIN, 'GET', `/api/messages/${m.id}`)).statusCode).toBe(200);
      expect((await call(MEMBER, 'GET', `/api/messages/${m.id}`)).statusCode).toBe(404);
    }
  });

  it('a file of a ticket not hers opens neither by her bearer token nor by a link made for her', async () => {
    const attachment = await t.db
      .selectFrom('attachments as a')
      .innerJoin('messages as m', 'm.id', 'a.message_id')
      .innerJoin('tickets as tk', (j) =>
        j.onRef('tk.id', '=', 'm.morphable_id').on('m.morphable_type', '=', 'ticket'),
      )
      .select('a.id')
      .where('tk.company_id', '=', jansen)
      .where('tk.client_id', '!=', lotte)
      .where('m.visible_to_client', '=', true)
      .executeTakeFirstOrThrow();
    const id = Number(attachment.id);
    expect((await call(ADMIN, 'GET', `/api/attachments/${id}/file`)).statusCode).toBe(200);
    expect((await call(MEMBER, 'GET', `/api/attachments/${id}/file`)).statusCode).toBe(404);
    const key = await signingKey(t.db);
    const get = (url: string) => t.app.inject({ method: 'GET', url });
    expect((await get(signedFileUrl(key, tenantId, id, { kind: 'client', userId: pieter }))).statusCode).toBe(
      200,
    );
    expect((await get(signedFileUrl(key, tenantId, id, { kind: 'client', userId: lotte }))).statusCode).toBe(
      404,
    );
  });

  it("a ticket's contract balance: her admin sees the company's contracts, a member on her own ticket none", async () => {
    const contracts = await t.db
      .selectFrom('company_contract')
      .select('contract_id')
      .where('company_id', '=', jansen)
      .execute();
    expect(contracts.length).toBeGreaterThan(0);
    const own = Number(
      (
        await t.db
          .selectFrom('tickets')
          .select('id')
          .where('company_id', '=', jansen)
          .where('client_id', '=', lotte)
          .where('is_template', '=', false)
          .orderBy('id')
          .executeTakeFirstOrThrow()
      ).id,
    );
    const balances = async (email: string) => {
      const res = await call(email, 'GET', `/api/tickets/${own}/contract-balance`);
      expect(res.statusCode, res.body).toBe(200);
      return res.json().data.map((r: { contract_id: number }) => r.contract_id);
    };
    // The member's role does not see contracts: the bar's figures are not hers to read through a ticket.
    expect(await balances(MEMBER)).toEqual([]);
    const admins = await balances(ADMIN);
    expect(admins.length).toBeGreaterThan(0);
    expect(contracts.map((c) => Number(c.contract_id))).toEqual(expect.arrayContaining(admins));
    // A ticket she may not see is no way in either.
    expect((await call(MEMBER, 'GET', `/api/tickets/${await notLottes()}/contract-balance`)).statusCode).toBe(
      404,
    );
  });

  it('live frames of a ticket not hers reach the admin, not the member', async () => {
    const id = await notLottes();
    const reader = frameReader(t.db, registry());
    const event = { id: 1, tenantId, kind: 'ticket.changed' as const, recordId: id, userId: null };
    const admin = (await linkHolderContext(t.db, tenantId, pieter))!;
    const member = (await linkHolderContext(t.db, tenantId, lotte))!;
    expect((await reader.framesFor(admin, [event]))!.length).toBe(1);
    expect(await reader.framesFor(member, [event])).toEqual([]);
  });

  it('the service overview shows a member no company figures; her admin gets them', async () => {
    const asAdmin = await call(ADMIN, 'GET', `/api/portal/service-overview?company_id=${jansen}`);
    expect(asAdmin.statusCode, asAdmin.body).toBe(200);
    expect(asAdmin.json().companies.map((c: { id: number }) => c.id)).toEqual([jansen]);
    expect((await call(MEMBER, 'GET', `/api/portal/service-overview?company_id=${jansen}`)).statusCode).toBe(
      404,
    );
    expect((await call(MEMBER, 'GET', '/api/portal/service-overview')).json().companies).toEqual([]);
  });

  it('finance sees invoices, a member none', async () => {
    const invoices = await ids(ADMIN, '/api/invoices?builder[0][paginate]=100');
    expect(invoices.length).toBeGreaterThan(0);
    expect(await ids(MEMBER, '/api/invoices?builder[0][paginate]=100')).toEqual([]);
    expect((await call(MEMBER, 'GET', `/api/invoices/${invoices[0]}`)).statusCode).toBe(404);
    // Contracts are seen through their companies, which a member sees too: the role still decides
    // (x-portal.scope byRole), on the list, the record, a period and through the company's `with`.
    const contracts = await ids(ADMIN, '/api/contracts?builder[0][paginate]=100');
    expect(contracts.length).toBeGreaterThan(0);
    expect(await ids(MEMBER, '/api/contracts?builder[0][paginate]=100')).toEqual([]);
    expect((await call(MEMBER, 'GET', `/api/contracts/${contracts[0]}`)).statusCode).toBe(404);
    expect(await ids(MEMBER, '/api/contract-periods?builder[0][paginate]=100')).toEqual([]);
    const company = await call(MEMBER, 'GET', `/api/companies/${jansen}?with[0]=contracts`);
    expect(company.statusCode, company.body).toBe(200);
    expect(company.json().contracts).toEqual([]);
    const adminsCompany = await call(ADMIN, 'GET', `/api/companies/${jansen}?with[0]=contracts`);
    expect(adminsCompany.json().contracts.length).toBeGreaterThan(0);
  });

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
