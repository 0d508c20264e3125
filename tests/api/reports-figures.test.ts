/**
 * GET /api/reports/tickets (issue 36, item 1), its figures: each against the fixture of
 * ./reports-world.ts computed by hand, over October and November 2026 by month and by week, for the
 * company, its client and the whole desk, and the ticket list's count for the same filter. The breakdown,
 * the breaches, the files, who may read it and what a bad period answers: tests/api/reports-breakdown.test.ts.
 * The minutes themselves (business time under a calendar, pauses, reopenings) are the clock's:
 * tests/api/sla-ticket-clock.test.ts.
 */
import qs from 'qs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, targets, type TestApp } from './harness.ts';
import type { BackOffice } from './back-office.ts';
import { at, FIXTURES, reportWorld, type ReportWorld } from './reports-world.ts';

describe.each(targets)('the service report on $name', (target) => {
  let t: TestApp;
  let b: BackOffice;
  let companyId: number;
  let clientId: number;
  let report: ReportWorld['report'];

  beforeAll(async () => {
    t = await buildTestApp(target, { config: { deadlineCheckMs: 0 } });
    ({ b, companyId, clientId, report } = await reportWorld(t));
  });
  afterAll(() => t?.close());

  it('says each figure of October and November by month, as computed by hand', async () => {
    const res = await report({
      from: '2026-10-01',
      to: '2026-11-30',
      group: 'month',
      company_id: [companyId],
    });
    expect(res.statusCode, res.body).toBe(200);
    const { rows, total } = res.json();
    expect(rows.map((r: { period: string; from: string; to: string }) => [r.period, r.from, r.to])).toEqual([
      ['2026-10-01', '2026-10-01', '2026-10-31'],
      ['2026-11-01', '2026-11-01', '2026-11-30'],
    ]);
    expect(rows[0]).toMatchObject({
      created: 1,
      solved: 0,
      backlog: 1,
      responded: 1,
      response_minutes: 45,
      response_median: 45,
      response_p90: 45,
      response_met: 1,
      response_breached: 0,
      resolution_timed: 0,
      resolution_median: null,
      reopened: 1,
    });
    expect(rows[1]).toEqual({
      period: '2026-11-01',
      from: '2026-11-01',
      to: '2026-11-30',
      created: 5,
      solved: 4,
      backlog: 2,
      // Answered in November: 30, 600 and 10 minutes.
      responded: 3,
      response_minutes: 640,
      response_median: 30,
      response_p90: 486, // 30 + 0.8 × (600 − 30)
      // The unanswered ticket solved in time counts as met on the day it was solved.
      response_met: 3,
      response_breached: 1,
      // Solved in November: 300, 2000, 60 and 120 minutes.
      resolution_timed: 4,
      resolution_minutes: 2480,
      resolution_median: 210, // (120 + 300) / 2
      resolution_p90: 1490, // 300 + 0.7 × (2000 − 300)
      resolution_met: 3,
      resolution_breached: 1,
      // The second ticket was reopened twice.
      reopened: 2,
    });
    expect(total).toMatchObject({
      created: 6,
      solved: 4,
      backlog: 2,
      responded: 4,
      response_minutes: 685,
      response_median: 37.5, // (30 + 45) / 2
      resolution_median: 210,
      reopened: 3,
    });
  });

  it('says the same figures for the client who asked, from their tickets', async () => {
    const query = { from: '2026-10-01', to: '2026-11-30', group: 'month' };
    const [byCompany, byClient] = await Promise.all([
      report({ ...query, company_id: [companyId] }),
      report({ ...query, client_id: [clientId] }),
    ]);
    expect(byClient.statusCode, byClient.body).toBe(200);
    const { rows, total } = byClient.json();
    // The last fixture (created 25 November, open) was asked by nobody: one created and one open less.
    const less = (figures: Record<string, unknown>) => ({
      ...figures,
      created: (figures.created as number) - 1,
      backlog: (figures.backlog as number) - 1,
    });
    expect(rows).toEqual([byCompany.json().rows[0], less(byCompany.json().rows[1])]);
    expect(total).toEqual(less(byCompany.json().total));
    // With the company as well, and per operator: the same tickets.
    const both = await report({ ...query, client_id: [clientId], company_id: [companyId] });
    expect(both.json().total).toEqual(total);
    const perOperator = await t.app.inject({
      method: 'GET',
      url: `/api/reports/tickets/breakdown?${qs.stringify({ ...query, client_id: [clientId], by: 'operator_id' })}`,
      headers: b.admin,
    });
    expect(perOperator.statusCode, perOperator.body).toBe(200);
    expect(perOperator.json().total).toEqual(total);
    // Another tenant's or nobody's client: nothing.
    const other = await report({ ...query, client_id: [clientId + 100000] });
    expect(other.json().total).toMatchObject({ created: 0, solved: 0, backlog: 0, response_median: null });
  });

  it('says the same for the whole desk as for every company and none (the desk’s own daily figures)', async () => {
    const companies = await t.db
      .selectFrom('companies')
      .select('id')
      .where('tenant_id', '=', b.tenantId)
      .execute();
    const query = { from: '2026-10-01', to: '2026-12-31', group: 'week' };
    const [desk, every] = await Promise.all([
      report(query),
      report({ ...query, company_id: [...companies.map((c) => c.id), 'none'] }),
    ]);
    expect(desk.statusCode, desk.body).toBe(200);
    expect(desk.json().total.created).toBeGreaterThanOrEqual(FIXTURES.length);
    expect(desk.json()).toEqual(every.json());
  });

  it('by week, clipped to the period, each week from its Monday', async () => {
    const res = await report({
      from: '2026-11-01',
      to: '2026-11-10',
      group: 'week',
      company_id: [companyId],
    });
    expect(res.statusCode, res.body).toBe(200);
    const rows = res.json().rows as Record<string, unknown>[];
    const figures = ['period', 'from', 'to', 'created', 'responded', 'solved', 'backlog', 'reopened'];
    expect(rows.map((r) => figures.map((f) => r[f]))).toEqual([
      // The week of Monday 26 October: only its Sunday is in the period.
      ['2026-10-26', '2026-11-01', '2026-11-01', 0, 0, 0, 1, 0],
      ['2026-11-02', '2026-11-02', '2026-11-08', 2, 2, 2, 1, 1],
      ['2026-11-09', '2026-11-09', '2026-11-10', 1, 1, 1, 1, 1],
    ]);
  });

  it('counts what the ticket list shows for the same filter (the drill-down)', async () => {
    const res = await report({ from: '2026-11-01', to: '2026-11-30', company_id: [companyId] });
    const list = await t.app.inject({
      method: 'GET',
      url: `/api/tickets?${qs.stringify({
        builder: [
          { where: ['company_id', '=', companyId] },
          {
            whereBetween: [
              'created_at',
              [at('2026-11-01T00:00').toISOString(), at('2026-11-30T23:59').toISOString()],
            ],
          },
        ],
      })}`,
      headers: b.admin,
    });
    expect(list.statusCode, list.body).toBe(200);
    expect(list.json().total).toBe(res.json().total.created);
  });
});
