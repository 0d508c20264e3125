/**
 * Counts follow the company role (issue 39, item 1: "counts"): a client's `withCount` on her company
 * counts only the related rows her role lets her see, never the company's total. A count is a subquery
 * of its own (server/query/select.ts countSubqueries), so it is checked here against what the same
 * caller's list of the related resource finds for the company, relation by relation, for a member
 * (own tickets), a finance client (invoices, quotes, subscriptions, contracts; own tickets) and the
 * company admin (everything), on the record and on the companies list.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registry } from '../../server/schema/registry.ts';
import { buildTestApp, targets, type TestApp } from './harness.ts';
import { FINANCE, makeFinanceClient } from './finance-client.ts';

const ADMIN = 'client@example.com';
const MEMBER = 'lotte.smit@jansenbv.nl';

describe.each(targets)('company role counts on $name', (target) => {
  let t: TestApp;
  let jansen: number;
  /** The company's to-many relations to portal resources a client lists, with the key that names it. */
  const relations: { name: string; resource: string; foreignKey: string }[] = [];

  const get = async (email: string, url: string) => {
    const res = await t.app.inject({ method: 'GET', url, headers: await t.as(email) });
    expect(res.statusCode, `${email} ${url}: ${res.body}`).toBe(200);
    return res.json();
  };
  /** What the caller's own list of the resource finds for the company (the list's total). */
  const listed = async (email: string, resource: string, foreignKey: string) =>
    (
      await get(
        email,
        `/api/${resource}?builder[0][where][0]=${foreignKey}&builder[0][where][1]==&builder[0][where][2]=${jansen}&builder[1][paginate]=1`,
      )
    ).total as number;
  const withCounts = () => relations.map((r, i) => `withCount[${i}]=${r.name}`).join('&');

  beforeAll(async () => {
    t = await buildTestApp(target, { logger: { level: 'error' } });
    jansen = (await makeFinanceClient(t)).companyId;
    const companies = registry().require('companies');
    for (const relation of Object.values(companies.relations)) {
      if (relation.kind !== 'hasMany') continue;
      const related = registry().require(relation.resource);
      if (related.portal?.actions.includes('index'))
        relations.push({ name: relation.name, resource: relation.resource, foreignKey: relation.foreignKey });
    }
    // The relations the roles differ on are among them.
    expect(relations.map((r) => r.resource)).toEqual(
      expect.arrayContaining(['tickets', 'invoices', 'quotes', 'subscriptions', 'company-user']),
    );
    // The finance client's own ticket: her own reach on tickets counts it, and only it.
    const priority = await t.db.selectFrom('priorities').select('id').executeTakeFirstOrThrow();
    const own = await t.app.inject({
      method: 'POST',
      url: '/api/tickets',
      headers: await t.as(FINANCE),
      payload: {
        description: 'Factuur klopt niet',
        priority_id: Number(priority.id),
        company_id: jansen,
        custom_fields: { impact: 'department' },
      },
    });
    expect(own.statusCode, own.body).toBe(201);
  });
  afterAll(() => t?.close());

  it.each([ADMIN, MEMBER, FINANCE])(
    "%s: each count on her company's record is what her own list finds",
    async (email) => {
      const record = await get(email, `/api/companies/${jansen}?${withCounts()}`);
      const listedRows = await get(
        email,
        `/api/companies?builder[0][where][0]=id&builder[0][where][1]==&builder[0][where][2]=${jansen}&${withCounts()}`,
      );
      expect(listedRows.data).toHaveLength(1);
      for (const r of relations) {
        const expected = await listed(email, r.resource, r.foreignKey);
        expect(record[`${r.name}_count`], `${r.name} on the record`).toBe(expected);
        expect(listedRows.data[0][`${r.name}_count`], `${r.name} on the list`).toBe(expected);
      }
    },
  );

  it("the counts differ by role as the role data says: the company's total only for its admin", async () => {
    const tickets = Number(
      (
        await t.db
          .selectFrom('tickets')
          .select((eb) => eb.fn.countAll().as('n'))
          .where('company_id', '=', jansen)
          .where('is_template', '=', false)
          .executeTakeFirstOrThrow()
      ).n,
    );
    // Invoices a client may see at all (the portal leaves drafts out): the admin's list.
    const invoices = await listed(ADMIN, 'invoices', 'company_id');
    const counts = async (email: string) =>
      get(email, `/api/companies/${jansen}?withCount[0]=tickets&withCount[1]=invoices`);
    const [admin, member, finance] = [await counts(ADMIN), await counts(MEMBER), await counts(FINANCE)];
    expect(invoices).toBeGreaterThan(0);
    expect(admin).toMatchObject({ tickets_count: tickets, invoices_count: invoices });
    // Lotte's own tickets (the demo gives her some), no invoices.
    expect(member.tickets_count).toBeGreaterThan(0);
    expect(member.tickets_count).toBeLessThan(tickets);
    expect(member.invoices_count).toBe(0);
    // Finance: her one ticket, every invoice.
    expect(finance).toMatchObject({ tickets_count: 1, invoices_count: invoices });
  });
});
