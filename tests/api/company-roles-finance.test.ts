/**
 * The finance role at the API (issue 39, item 1: "finance: invoices, quotes and subscriptions"), and the
 * files and actions of those records for a role that does not reach them. A finance client of Jansen BV
 * reads the company's quotes, subscriptions, contracts and invoices (and their lines and periods) as its
 * admin does, sees only her own tickets (the starting role's `own_resources`), and another company's
 * records are 404. A member, whose role reaches none of them, gets 404 from their PDFs, the invoicing
 * file, accepting a quote and buying hours: the record is not hers to see, the rule every read path
 * follows (docs/decisions.md "Company roles in the portal"), not 403 (she holds the permission; the
 * role decides which rows).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, targets, type TestApp } from './harness.ts';
import { FINANCE, makeFinanceClient } from './finance-client.ts';

const ADMIN = 'client@example.com';
const MEMBER = 'lotte.smit@jansenbv.nl';
const OTHER = 'other@example.com';
/** The resources the finance role reads company-wide, with the children that follow them. */
const FINANCE_READS = [
  'invoices',
  'quotes',
  'quote-lines',
  'subscriptions',
  'subscription-lines',
  'contracts',
  'contract-periods',
];

describe.each(targets)('the finance role on $name', (target) => {
  let t: TestApp;
  let jansen: number;
  let fenna: number;

  const call = async (email: string, method: 'GET' | 'POST', url: string, payload?: object) =>
    t.app.inject({ method, url, headers: await t.as(email), ...(payload ? { payload } : {}) });
  const ids = async (email: string, resource: string) => {
    const res = await call(email, 'GET', `/api/${resource}?builder[0][paginate]=100`);
    expect(res.statusCode, res.body).toBe(200);
    return (res.json().data as { id: number }[]).map((r) => r.id).sort((a, b) => a - b);
  };
  const first = async (email: string, resource: string) => {
    const found = await ids(email, resource);
    expect(found.length, `${email} lists ${resource}`).toBeGreaterThan(0);
    return found[0]!;
  };

  beforeAll(async () => {
    t = await buildTestApp(target, { logger: { level: 'error' } });
    ({ id: fenna, companyId: jansen } = await makeFinanceClient(t));
  });
  afterAll(() => t?.close());

  it('reads the quotes, subscriptions, contracts and invoices of her company, as its admin does', async () => {
    for (const resource of FINANCE_READS) {
      const hers = await ids(FINANCE, resource);
      expect(hers.length, resource).toBeGreaterThan(0);
      expect(hers, resource).toEqual(await ids(ADMIN, resource));
      const one = await call(FINANCE, 'GET', `/api/${resource}/${hers[0]}`);
      expect(one.statusCode, `${resource}: ${one.body}`).toBe(200);
    }
    // The company's own records name it.
    for (const resource of ['invoices', 'quotes', 'subscriptions']) {
      const res = await call(FINANCE, 'GET', `/api/${resource}?builder[0][paginate]=100`);
      const companies = new Set((res.json().data as { company_id: number }[]).map((r) => r.company_id));
      expect([...companies], resource).toEqual([jansen]);
    }
  });

  it('sees only her own tickets: none of the company until she makes one', async () => {
    const companyTickets = await ids(ADMIN, 'tickets');
    expect(companyTickets.length).toBeGreaterThan(0);
    expect(await ids(FINANCE, 'tickets')).toEqual([]);
    expect((await call(FINANCE, 'GET', `/api/tickets/${companyTickets[0]}`)).statusCode).toBe(404);
    const priority = await t.db.selectFrom('priorities').select('id').executeTakeFirstOrThrow();
    const made = await call(FINANCE, 'POST', '/api/tickets', {
      description: 'Vraag over factuur',
      priority_id: Number(priority.id),
      company_id: jansen,
      custom_fields: { impact: 'department' },
    });
    expect(made.statusCode, made.body).toBe(201);
    expect(made.json().client_id).toBe(fenna);
    expect(await ids(FINANCE, 'tickets')).toEqual([made.json().id]);
  });

  it("another company's records are 404 to her, and a filter on their id finds nothing", async () => {
    let probed = 0;
    for (const resource of [...FINANCE_READS, 'tickets']) {
      const mine = new Set(await ids(FINANCE, resource));
      for (const id of (await ids(OTHER, resource)).filter((i) => !mine.has(i)).slice(0, 3)) {
        probed += 1;
        expect((await call(FINANCE, 'GET', `/api/${resource}/${id}`)).statusCode, `${resource}/${id}`).toBe(
          404,
        );
        const byId = await call(
          FINANCE,
          'GET',
          `/api/${resource}?builder[0][where][0]=id&builder[0][where][1]==&builder[0][where][2]=${id}`,
        );
        expect(byId.json().total, `${resource}/${id} by where`).toBe(0);
      }
    }
    expect(probed).toBeGreaterThan(5);
  });

  it('her invoice and quote files open; a member gets 404 from every file and action of them', async () => {
    const invoice = await first(ADMIN, 'invoices');
    const quote = await first(ADMIN, 'quotes');
    const files = [
      ['POST', `/api/invoices/${invoice}/download`],
      ['GET', `/api/invoicing/${invoice}`],
      ['POST', `/api/quotes/${quote}/download`],
    ] as const;
    for (const [method, url] of files) {
      const asFinance = await call(FINANCE, method, url);
      expect(asFinance.statusCode, `${url}: ${asFinance.body.slice(0, 200)}`).toBe(200);
      const asMember = await call(MEMBER, method, url);
      expect(asMember.statusCode, url).toBe(404);
    }
    expect((await call(FINANCE, 'POST', `/api/invoices/${invoice}/download`)).headers['content-type']).toBe(
      'application/pdf',
    );
    // The invoicing collection is the invoice list under another address: empty for her, not for finance.
    const collection = async (email: string) => {
      const res = await call(email, 'GET', '/api/invoicing/invoices');
      expect(res.statusCode, res.body).toBe(200);
      return res.json().total as number;
    };
    expect(await collection(MEMBER)).toBe(0);
    expect(await collection(FINANCE)).toBe((await ids(ADMIN, 'invoices')).length);
    // Acting on them: the record is looked up before the body is read, so the answer is the 404.
    const accept = await call(MEMBER, 'POST', `/api/quotes/${quote}/accept`, {
      name: 'Lotte Smit',
      signature: 'data:image/png;base64,AAAA',
    });
    expect(accept.statusCode, accept.body).toBe(404);
    const contract = await first(ADMIN, 'contracts');
    const buy = await call(MEMBER, 'POST', `/api/contracts/${contract}/buy`, { prepaid_card_id: 1 });
    expect(buy.statusCode, buy.body).toBe(404);
  });
});
