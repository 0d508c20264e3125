/**
 * The global search (GET /api/search) follows the company roles and the knowledge base's visibility
 * (issue 39, items 1 and 4: "search" among the read paths): a member finds her own tickets and those
 * shared with her, not a colleague's; a finance client finds the company's invoices, a member none; a
 * client finds portal articles and those chosen for her company, never an internal one or one chosen for
 * another company. The search is its own statement (server/search/global-search.ts), so it is checked
 * here beside the list paths of tests/api/company-roles-reads.test.ts and tests/api/knowledge-base.test.ts.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, targets, type TestApp } from './harness.ts';
import { FINANCE, makeFinanceClient } from './finance-client.ts';

/** A word no demo record holds, so every match is one of this test's rows. */
const MARK = `rolzoek${randomBytes(3).toString('hex')}`;
const ADMIN = 'client@example.com';
const MEMBER = 'lotte.smit@jansenbv.nl';
const OTHER = 'other@example.com';
const OPERATOR = 'admin@example.com';

describe.each(targets)('global search by company role on $name', (target) => {
  let t: TestApp;
  let jansen: number;
  const tickets = {} as Record<'his' | 'hers', number>;
  const articles = {} as Record<'portal' | 'mine' | 'theirs' | 'internal', number>;

  const found = async (email: string, q: string, resource: string) => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/search',
      headers: await t.as(email),
      query: { q },
    });
    expect(res.statusCode, res.body).toBe(200);
    const group = (res.json().data as { resource: string; records: { id: number }[] }[]).find(
      (g) => g.resource === resource,
    );
    return (group?.records.map((r) => r.id) ?? []).sort((a, b) => a - b);
  };
  const sorted = (...values: number[]) => [...values].sort((a, b) => a - b);
  const post = async (email: string, url: string, payload: object) => {
    const res = await t.app.inject({ method: 'POST', url, headers: await t.as(email), payload });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().id as number;
  };

  beforeAll(async () => {
    t = await buildTestApp(target, { logger: { level: 'error' } });
    jansen = (await makeFinanceClient(t)).companyId;
    const other = Number(
      (
        await t.db
          .selectFrom('users as u')
          .innerJoin('company_user as cu', 'cu.user_id', 'u.id')
          .select('cu.company_id')
          .where('u.email', '=', OTHER)
          .executeTakeFirstOrThrow()
      ).company_id,
    );
    const priority = Number((await t.db.selectFrom('priorities').select('id').executeTakeFirstOrThrow()).id);
    const ticket = (email: string, words: string) =>
      post(email, '/api/tickets', {
        description: `${words} ${MARK}`,
        priority_id: priority,
        company_id: jansen,
        custom_fields: { impact: 'department' },
      });
    tickets.his = await ticket(ADMIN, 'Server van Pieter');
    tickets.hers = await ticket(MEMBER, 'Printer van Lotte');
    const article = (title: string, visibility: string) =>
      post(OPERATOR, '/api/knowledge-articles', {
        title: `${title} ${MARK}`,
        body: '<p>Uitleg.</p>',
        visibility,
      });
    articles.portal = await article('Portaal', 'portal');
    articles.mine = await article('Jansen', 'companies');
    articles.theirs = await article('De Vries', 'companies');
    articles.internal = await article('Intern', 'internal');
    for (const [id, company] of [
      [articles.mine, jansen],
      [articles.theirs, other],
    ] as const)
      await post(OPERATOR, '/api/knowledge-article-companies', {
        knowledge_article_id: id,
        company_id: company,
      });
  });
  afterAll(() => t?.close());

  it("a member finds her own ticket, not her colleague's until it is shared with her", async () => {
    expect(await found(ADMIN, MARK, 'tickets')).toEqual(sorted(tickets.his, tickets.hers));
    expect(await found(MEMBER, MARK, 'tickets')).toEqual([tickets.hers]);
    expect(await found(FINANCE, MARK, 'tickets')).toEqual([]);
    expect(await found(OTHER, MARK, 'tickets')).toEqual([]);
    // By its reference too, the way a ticket is usually looked up.
    const { reference } = await t.db
      .selectFrom('tickets')
      .select('reference')
      .where('id', '=', tickets.his)
      .executeTakeFirstOrThrow();
    expect(await found(ADMIN, reference!, 'tickets')).toContain(tickets.his);
    expect(await found(MEMBER, reference!, 'tickets')).toEqual([]);
    const share = await post(ADMIN, '/api/ticket-shares', {
      ticket_id: tickets.his,
      user_id: Number(
        (await t.db.selectFrom('users').select('id').where('email', '=', MEMBER).executeTakeFirstOrThrow())
          .id,
      ),
    });
    expect(await found(MEMBER, MARK, 'tickets')).toEqual(sorted(tickets.his, tickets.hers));
    const gone = await t.app.inject({
      method: 'DELETE',
      url: `/api/ticket-shares/${share}`,
      headers: await t.as(ADMIN),
    });
    expect(gone.statusCode, gone.body).toBe(200);
    expect(await found(MEMBER, MARK, 'tickets')).toEqual([tickets.hers]);
  });

  it("finance finds the company's invoices by code; a member and another company's client do not", async () => {
    const invoice = await t.db
      .selectFrom('invoices')
      .select(['id', 'code'])
      .where('company_id', '=', jansen)
      .where('external_id', 'is not', null)
      .where('code', 'is not', null)
      .orderBy('id')
      .executeTakeFirstOrThrow();
    const code = String(invoice.code);
    expect(code.length).toBeGreaterThanOrEqual(3);
    expect(await found(FINANCE, code, 'invoices')).toContain(Number(invoice.id));
    expect(await found(ADMIN, code, 'invoices')).toContain(Number(invoice.id));
    expect(await found(MEMBER, code, 'invoices')).toEqual([]);
    expect(await found(OTHER, code, 'invoices')).not.toContain(Number(invoice.id));
  });

  it('clients find portal articles and those for their company, never internal ones or another company’s', async () => {
    expect(await found(OPERATOR, MARK, 'knowledge-articles')).toEqual(
      sorted(articles.portal, articles.mine, articles.theirs, articles.internal),
    );
    for (const email of [ADMIN, MEMBER, FINANCE])
      expect(await found(email, MARK, 'knowledge-articles'), email).toEqual(
        sorted(articles.portal, articles.mine),
      );
    expect(await found(OTHER, MARK, 'knowledge-articles')).toEqual(sorted(articles.portal, articles.theirs));
  });
});
