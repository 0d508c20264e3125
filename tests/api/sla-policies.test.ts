/**
 * SLA policies (issue 35, item 2): which SLA governs a ticket and why (its own, its company's running
 * contract's, its company's, the tenant's default), and that SLA as the clock reads it: its calendar,
 * its targets per priority with the SLA's own times for the others, the pausing statuses and warnings.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, targets, type TestApp } from './harness.ts';
import { backOffice, type BackOffice } from './back-office.ts';
import { appliedSla, DEFAULT_SLA_SETTING, NO_PRIORITY, slaPolicies } from '../../server/sla/policy.ts';
import { ALWAYS_OPEN } from '../../common/sla/calendar.ts';

const TODAY = '2026-12-02';

describe.each(targets)('SLA policies on $name', (target) => {
  let t: TestApp;
  let b: BackOffice;
  let tenantId: number;
  const sla: Record<string, number> = {};
  let companyId: number;
  let ticketId: number;

  const api = (method: 'POST' | 'PUT', url: string, payload: Record<string, unknown>) =>
    t.app.inject({ method, url, headers: b.admin, payload });

  beforeAll(async () => {
    t = await buildTestApp(target);
    b = await backOffice(t, []);
    tenantId = b.tenantId;
    for (const name of ['Ticket SLA', 'Contract SLA', 'Company SLA', 'Tenant SLA']) {
      const res = await api('POST', '/api/slas', { name, response_time: 60, resolution_time: 480 });
      expect(res.statusCode, res.body).toBe(201);
      sla[name] = res.json().id;
    }
    const company = await api('POST', '/api/companies', { name: 'Policy BV', sla_id: sla['Company SLA'] });
    companyId = company.json().id;
    const status = await t.db
      .selectFrom('ticket_statuses')
      .select('id')
      .where('tenant_id', '=', tenantId)
      .orderBy('id')
      .executeTakeFirstOrThrow();
    const ticket = await api('POST', '/api/tickets', {
      description: 'Which SLA?',
      company_id: companyId,
      status_id: status.id,
      sla_id: sla['Ticket SLA'],
    });
    expect(ticket.statusCode, ticket.body).toBe(201);
    ticketId = ticket.json().id;
  });
  afterAll(() => t.close());

  it("applies the ticket's own SLA, then its company's running contract's, the company's, the tenant's", async () => {
    expect(await appliedSla(t.db, tenantId, ticketId, TODAY)).toEqual({
      slaId: sla['Ticket SLA'],
      source: 'ticket',
    });
    await t.db.updateTable('tickets').set({ sla_id: null }).where('id', '=', ticketId).execute();

    // A contract that ended, or has not begun, does not count; a running one does.
    const contract = async (name: string, start: string, end: string | null) => {
      const res = await api('POST', '/api/contracts', {
        name,
        period: 'month',
        quantity: 1,
        start_date: start,
        end_date: end,
        sla_id: sla['Contract SLA'],
      });
      expect(res.statusCode, res.body).toBe(201);
      await t.db
        .insertInto('company_contract')
        .values({ company_id: companyId, contract_id: res.json().id })
        .execute();
    };
    await contract('Ended', '2025-01-01', '2025-12-31');
    await contract('Future', '2027-01-01', null);
    expect(await appliedSla(t.db, tenantId, ticketId, TODAY)).toEqual({
      slaId: sla['Company SLA'],
      source: 'company',
    });
    await contract('Running', '2026-01-01', null);
    expect(await appliedSla(t.db, tenantId, ticketId, TODAY)).toEqual({
      slaId: sla['Contract SLA'],
      source: 'contract',
    });

    await t.db.updateTable('contracts').set({ sla_id: null }).where('name', 'in', ['Running']).execute();
    await t.db.updateTable('companies').set({ sla_id: null }).where('id', '=', companyId).execute();
    expect(await appliedSla(t.db, tenantId, ticketId, TODAY)).toEqual({
      slaId: expect.any(Number),
      source: 'tenant',
    });
    // Without the demo tenant's default (Basis), none applies.
    await t.db
      .deleteFrom('tenant_configs')
      .where('tenant_id', '=', tenantId)
      .where('name', '=', DEFAULT_SLA_SETTING)
      .execute();
    expect(await appliedSla(t.db, tenantId, ticketId, TODAY)).toBeNull();
    await t.db
      .insertInto('tenant_configs')
      .values({ tenant_id: tenantId, name: DEFAULT_SLA_SETTING, value: String(sla['Tenant SLA']) })
      .execute();
    expect(await appliedSla(t.db, tenantId, ticketId, TODAY)).toEqual({
      slaId: sla['Tenant SLA'],
      source: 'tenant',
    });
    // Another tenant never learns of the ticket.
    expect(await appliedSla(t.db, tenantId + 1000, ticketId, TODAY)).toBeNull();
  });

  it("reads each priority's targets, the SLA's own times for the others, the pausing statuses and warnings", async () => {
    const priorities = await t.db
      .selectFrom('priorities')
      .select('id')
      .where('tenant_id', '=', tenantId)
      .orderBy('order')
      .execute();
    const [low, high] = [priorities[0]!.id, priorities.at(-1)!.id];
    const id = sla['Ticket SLA']!;
    const row = await api('POST', '/api/sla-targets', {
      sla_id: id,
      priority_id: high,
      response_time: 15,
      next_response_time: null,
      resolution_time: 120,
    });
    expect(row.statusCode, row.body).toBe(201);
    const twice = await api('POST', '/api/sla-targets', { sla_id: id, priority_id: high, response_time: 5 });
    expect(twice.statusCode).toBe(422);
    const warn = await api('PUT', `/api/slas/${id}`, { warning_percentages: [50, 100] });
    expect(warn.statusCode).toBe(422);
    expect(Object.keys(warn.json().errors)).toEqual(['warning_percentages']);
    expect((await api('PUT', `/api/slas/${id}`, { warning_percentages: [50, 80] })).statusCode).toBe(200);

    const policy = (await slaPolicies(t.db, tenantId, [id])).get(id)!;
    expect(policy.targets[String(high)]).toEqual({
      first_response: 15,
      next_response: null,
      resolution: 120,
    });
    expect(policy.targets[String(low)]).toEqual({ first_response: 60, next_response: null, resolution: 480 });
    expect(policy.targets[NO_PRIORITY]).toEqual(policy.targets[String(low)]);
    expect(policy.warnings).toEqual([50, 80]);
    expect(policy.calendar).toEqual(ALWAYS_OPEN);
    const pausing = await t.db
      .selectFrom('ticket_statuses')
      .select('id')
      .where('tenant_id', '=', tenantId)
      .where('internal_type', 'in', [4, 6])
      .execute();
    expect([...policy.pausingStatuses!].sort()).toEqual(pausing.map((s) => String(s.id)).sort());
  });

  it("takes the demo SLA's office-hours calendar with its zone and holidays", async () => {
    const business = await t.db
      .selectFrom('slas')
      .select('id')
      .where('tenant_id', '=', tenantId)
      .where('name', '=', 'Business')
      .executeTakeFirstOrThrow();
    const policy = (await slaPolicies(t.db, tenantId, [business.id])).get(business.id)!;
    expect(policy.calendar.zone).toBe('Europe/Amsterdam');
    // 08:30-12:30 and 13:00-17:30: the lunch break does not count.
    expect(policy.calendar.week[0]).toEqual([
      { from: 510, to: 750 },
      { from: 780, to: 1050 },
    ]);
    expect(policy.calendar.week[6]).toEqual([]);
    expect(policy.calendar.yearlyHolidays).toContain('12-25');
    // The demo's one target of a priority: a critical ticket answered within the business hour.
    expect(Object.values(policy.targets).map((x) => x.first_response)).toEqual(
      expect.arrayContaining([240, 60]),
    );
  });

  it('a client reads no SLA targets, neither directly nor through a contract it may see', async () => {
    const direct = await t.app.inject({ url: '/api/sla-targets', headers: b.client });
    expect(direct.statusCode).toBe(403);
    for (const relation of ['sla', 'sla.targets']) {
      const res = await t.app.inject({ url: `/api/contracts?with[0]=${relation}`, headers: b.client });
      expect(res.statusCode).toBe(422);
      expect(res.json()).toEqual({
        message: 'The relation sla is not available in the portal.',
        errors: { with: ['The relation sla is not available in the portal.'] },
      });
    }
  });
});
