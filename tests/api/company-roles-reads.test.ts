/**
 * Company roles in the portal (issue 39, item 1): what a client reads. The demo's Jansen BV has Pieter
 * (client@example.com), its company admin, and Lotte, a member: she sees her own tickets and those
 * shared with her; he sees every ticket of the company. Every read path honours the role: lists,
 * records, `with`, `whereHas`, counts, search, files, live frames and signed links (exports are
 * operators' only: a client gets 403, tests/api/exports.test.ts). Creating tickets for a colleague,
 * sharing and setting roles: tests/api/company-roles-manage.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registry } from '../../server/schema/registry.ts';
import { linkHolderContext } from '../../server/auth/authenticate.ts';
import { frameReader } from '../../server/live/frames.ts';
import { signedFileUrl, signingKey } from '../../server/files/signed-urls.ts';
import { targets } from './harness.ts';
import { ADMIN, MEMBER, startCompanyRolesDesk, type CompanyRolesDesk } from './company-roles-world.ts';

describe.each(targets)('company roles on $name', (target) => {
  let { t, call, ids, jansen, tenantId, pieter, lotte, roles, notLottes, close } = {} as CompanyRolesDesk;

  beforeAll(async () => {
    ({ t, call, ids, jansen, tenantId, pieter, lotte, roles, notLottes, close } =
      await startCompanyRolesDesk(target));
  });
  afterAll(() => close?.());

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
});
