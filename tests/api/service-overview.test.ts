/**
 * GET /api/portal/service-overview (issue 36, item 3): each figure against the hand-computed fixture of
 * ./service-overview-world.ts (a client of two companies, an outsider company), the scoping (a company
 * not the caller's is a 404), the query's 422s, and who may read it: clients whose role holds
 * portal.reports.index, which a new desk's client role does not get and the demo's does.
 */
import qs from 'qs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, targets, type TestApp } from './harness.ts';
import { newClient, overviewWorld, type OverviewWorld } from './service-overview-world.ts';
import { startingRoleMay } from '../../server/db/seed/permissions.ts';
import { SERVICE_OVERVIEW_PERMISSION } from '../../common/service-overview.ts';

const NOTHING = {
  opened: 0,
  solved: 0,
  response_median: null,
  resolution_median: null,
  response_met: 0,
  response_breached: 0,
  resolution_met: 0,
  resolution_breached: 0,
};

describe.each(targets)('the portal service overview on $name', (target) => {
  let t: TestApp;
  let w: OverviewWorld;
  let client: Record<string, string>;

  const overview = (query: Record<string, unknown>, headers = client) =>
    t.app.inject({ method: 'GET', url: `/api/portal/service-overview?${qs.stringify(query)}`, headers });

  beforeAll(async () => {
    t = await buildTestApp(target, { config: { deadlineCheckMs: 0 } });
    w = await overviewWorld(t);
    client = await t.as(w.clientEmail);
  });
  afterAll(() => t?.close());

  it("says each month of 2026 of both the client's companies, as computed by hand", async () => {
    const res = await overview({ year: 2026 });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.companies).toEqual([
      { id: w.companies.A, name: 'Alfa Overzicht BV' },
      { id: w.companies.B, name: 'Beta Overzicht BV' },
    ]);
    expect(body.company_id).toBeNull();
    expect([body.from, body.to]).toEqual(['2026-01-01', '2026-12-31']);
    expect(body.months.map((m: { month: string }) => m.month)).toEqual(
      Array.from({ length: 12 }, (_, i) => `2026-${String(i + 1).padStart(2, '0')}-01`),
    );
    const [october, november] = [body.months[9], body.months[10]];
    expect(october).toEqual({
      month: '2026-10-01',
      opened: 1,
      solved: 1,
      response_median: 30,
      resolution_median: 300,
      response_met: 1,
      response_breached: 0,
      resolution_met: 1,
      resolution_breached: 0,
    });
    // Answered in November: 600 and 10 minutes; solved: 2000 and 60 (the ticket without an SLA has
    // no outcome). The outsider's ticket of 5 and 50 minutes is not theirs.
    expect(november).toEqual({
      month: '2026-11-01',
      opened: 3,
      solved: 2,
      response_median: 305,
      resolution_median: 1030,
      response_met: 1,
      response_breached: 1,
      resolution_met: 0,
      resolution_breached: 1,
    });
    for (const m of body.months.filter((_: unknown, i: number) => i !== 9 && i !== 10))
      expect(m).toEqual({ month: m.month, ...NOTHING });
    expect(body.total).toEqual({
      opened: 4,
      solved: 3,
      response_median: 30,
      resolution_median: 300,
      response_met: 2,
      response_breached: 1,
      resolution_met: 1,
      resolution_breached: 1,
    });
    // The first priority's own row of the SLA, the second priority the SLA's own times; not the
    // outsider's SLA.
    expect(body.targets).toEqual([
      {
        priority_id: w.priorities.P1.id,
        priority: w.priorities.P1.label,
        response_time: 30,
        resolution_time: 240,
      },
      {
        priority_id: w.priorities.P2.id,
        priority: w.priorities.P2.label,
        response_time: 60,
        resolution_time: 480,
      },
    ]);
    // This month's period of A's contract (not last month's), B's prepaid card; not the outsider's.
    expect(body.contracts).toEqual([
      expect.objectContaining({
        contract_name: 'Beheer Alfa',
        prepaid: false,
        period_start: w.thisMonth.from,
        period_end: w.thisMonth.to,
        minutes_total: 600,
        registered_time: 180,
        minutes_remaining: 420,
      }),
      expect.objectContaining({
        contract_name: 'Strippenkaart Beta',
        prepaid: true,
        minutes_total: 1200,
        registered_time: 300,
        minutes_remaining: 900,
      }),
    ]);
  });

  it('says one company alone when asked, its targets and contracts only', async () => {
    const a = (await overview({ year: 2026, company_id: w.companies.A })).json();
    expect(a.company_id).toBe(w.companies.A);
    expect(a.months[10]).toMatchObject({
      opened: 1,
      solved: 1,
      response_median: 600,
      resolution_median: 2000,
    });
    expect(a.total).toMatchObject({ opened: 2, solved: 2, response_met: 1, response_breached: 1 });
    expect(a.contracts.map((c: { contract_name: string }) => c.contract_name)).toEqual(['Beheer Alfa']);
    const b = (await overview({ year: 2026, company_id: w.companies.B })).json();
    expect(b.total).toMatchObject({ opened: 2, solved: 1, response_median: 10, resolution_median: 60 });
    expect(b.total).toMatchObject({ resolution_met: 0, resolution_breached: 0 });
    expect(b.targets).toEqual([
      {
        priority_id: w.priorities.P1.id,
        priority: w.priorities.P1.label,
        response_time: 30,
        resolution_time: 240,
      },
    ]);
    expect(b.contracts.map((c: { contract_name: string }) => c.contract_name)).toEqual([
      'Strippenkaart Beta',
    ]);
  });

  it('covers the last 12 months up to the end of this one by default', async () => {
    const body = (await overview({})).json();
    expect(body.months).toHaveLength(12);
    expect(body.months[11].month).toBe(w.thisMonth.from);
    expect(body.to).toBe(w.thisMonth.to);
  });

  it('names the priorities in the language asked for', async () => {
    const label = await t.db
      .selectFrom('priorities')
      .select('label_en')
      .where('id', '=', w.priorities.P1.id)
      .executeTakeFirstOrThrow();
    const res = await overview(
      { year: 2026, company_id: w.companies.B },
      { ...client, 'accept-language': 'en' },
    );
    expect(res.json().targets[0].priority).toBe(label.label_en ?? w.priorities.P1.label);
  });

  it('leaves the SLA figures out when the desk shows clients no SLA promise', async () => {
    await t.db
      .insertInto('tenant_configs')
      .values({ tenant_id: w.tenantId, name: 'portal_show_sla', value: 'nee' })
      .execute();
    try {
      const body = (await overview({ year: 2026 })).json();
      expect(body.targets).toBeNull();
      expect(body.total).toEqual({
        opened: 4,
        solved: 3,
        response_median: 30,
        resolution_median: 300,
        response_met: null,
        response_breached: null,
        resolution_met: null,
        resolution_breached: null,
      });
    } finally {
      await t.db
        .deleteFrom('tenant_configs')
        .where('tenant_id', '=', w.tenantId)
        .where('name', '=', 'portal_show_sla')
        .execute();
    }
  });

  it("answers 404 for a company that is not the caller's", async () => {
    expect((await overview({ company_id: w.companies.O })).statusCode).toBe(404);
    expect((await overview({ company_id: 2147483647 })).statusCode).toBe(404);
    // The demo's own client, of another company, cannot ask for A either.
    const demo = await t.as('client@example.com');
    expect((await overview({ company_id: w.companies.A }, demo)).statusCode).toBe(404);
    const own = await overview({ year: 2026 }, demo);
    expect(own.statusCode).toBe(200);
    expect(own.json().companies.map((c: { id: number }) => c.id)).not.toContain(w.companies.A);
  });

  it('answers 422 naming what is wrong with the query', async () => {
    const errors = async (query: Record<string, unknown>) => {
      const res = await overview(query);
      expect(res.statusCode, res.body).toBe(422);
      const body = res.json();
      expect(body.message).toBe(Object.values(body.errors as Record<string, string[]>)[0]![0]);
      return body.errors;
    };
    expect(await errors({ year: 1999 })).toEqual({ year: ['The year must be at least 2000.'] });
    expect(await errors({ year: 'last' })).toEqual({ year: ['The year must be of type integer.'] });
    expect(await errors({ company_id: 0 })).toEqual({ company_id: ['The company_id must be at least 1.'] });
    expect(await errors({ company_id: 'A' })).toEqual({
      company_id: ['The company_id must be of type integer.'],
    });
  });

  it('is for clients whose role holds the permission: 403 for others, 401 without a session', async () => {
    const role = await t.db
      .insertInto('roles')
      .values({ tenant_id: w.tenantId, name: 'Klant zonder overzicht', is_operator: false })
      .returning('id')
      .executeTakeFirstOrThrow();
    await t.db
      .insertInto('permission_role')
      .columns(['role_id', 'permission_id'])
      .expression((eb) =>
        eb
          .selectFrom('permissions')
          .select([eb.val(role.id).as('role_id'), 'id'])
          .where('name', 'like', 'portal.%')
          .where('name', '!=', SERVICE_OVERVIEW_PERMISSION),
      )
      .execute();
    await newClient(t, w.tenantId, 'zonder@example.com', [w.companies.A], Number(role.id));
    const without = await t.as('zonder@example.com');
    expect((await overview({}, without)).statusCode).toBe(403);
    expect((await overview({}, w.admin)).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: '/api/portal/service-overview' })).statusCode).toBe(401);
  });

  it("is not a new desk's client role's by default, and the demo's client role has it", async () => {
    expect(startingRoleMay(2, SERVICE_OVERVIEW_PERMISSION)).toBe(false);
    expect(startingRoleMay(2, 'portal.tickets.create')).toBe(true);
    expect(startingRoleMay(0, SERVICE_OVERVIEW_PERMISSION)).toBe(false);
    const session = await t.login('client@example.com');
    expect(session.body.user.permissions_names).toContain(SERVICE_OVERVIEW_PERMISSION);
  });
});
