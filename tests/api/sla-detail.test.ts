/**
 * GET /tickets/{id}/sla (issue 35, item 4): the live clock of one ticket for its detail screens. An
 * operator reads the applied SLA and why and every target's figures; a client reads the promise of a
 * ticket the portal lets them see, nothing else, and nothing at all when the tenant hides it.
 *
 * The SLAs here have no calendar, so business minutes are real minutes and the figures follow from the
 * history dated relative to now (the route measures at the request).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, targets, type TestApp } from './harness.ts';
import { backOffice, type BackOffice } from './back-office.ts';
import { statusesByKind, withoutDemoSlas } from './sla-world.ts';
import { PORTAL_SHOW_SLA } from '../../server/settings/tenant-config.ts';

const MIN = 60_000;

describe.each(targets)('a ticket SLA detail on $name', (target) => {
  let t: TestApp;
  let b: BackOffice;
  let slaId: number;
  let started: number;
  const status: Record<'open' | 'waiting', number> = { open: 0, waiting: 0 };

  const api = (method: 'POST' | 'PUT', url: string, payload: Record<string, unknown>) =>
    t.app.inject({ method, url, headers: b.admin, payload });
  const sla = (id: number, headers: Record<string, string>) =>
    t.app.inject({ method: 'GET', url: `/api/tickets/${id}/sla`, headers });

  /** A ticket of the demo client's company, created `minutesAgo` minutes before now. */
  async function ticket(minutesAgo: number, fields: Record<string, unknown> = {}): Promise<number> {
    const res = await api('POST', '/api/tickets', {
      description: 'SLA detail',
      status_id: status.open,
      company_id: b.ownCompanyId,
      sla_id: slaId,
      ...fields,
    });
    expect(res.statusCode, res.body).toBe(201);
    const id = res.json().id as number;
    started = Date.now() - minutesAgo * MIN;
    await t.db
      .updateTable('tickets')
      .set({ created_at: new Date(started) })
      .where('id', '=', id)
      .execute();
    return id;
  }

  beforeAll(async () => {
    t = await buildTestApp(target);
    b = await backOffice(t, ['tenant.tickets.show']);
    await withoutDemoSlas(t, b.tenantId);
    const created = await api('POST', '/api/slas', {
      name: 'Detail-SLA',
      name_en: 'Detail SLA',
      response_time: 60,
      resolution_time: 480,
    });
    expect(created.statusCode, created.body).toBe(201);
    slaId = created.json().id;
    Object.assign(status, await statusesByKind(t, b.tenantId));
  });
  afterAll(() => t.close());

  it('tells an operator the applied SLA, why, and each target to the minute', async () => {
    const id = await ticket(30);
    const res = await sla(id, { ...b.admin, 'accept-language': 'en' });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.applied).toEqual({ sla_id: slaId, name: 'Detail SLA', source: 'ticket' });
    expect(body).toMatchObject({
      business_hours: false,
      open: true,
      paused: false,
      next_response: null,
      next_response_breaches: 0,
    });
    expect(body.first_response).toMatchObject({
      target: 60,
      state: 'running',
      paused: false,
      paused_since: null,
      ended_at: null,
      due: new Date(started + 60 * MIN).toISOString(),
      started_at: new Date(started).toISOString(),
    });
    // Whole minutes, measured a moment after the ticket was dated: 30, or 31 on a slow machine.
    expect(body.first_response.elapsed).toBeGreaterThanOrEqual(30);
    expect(body.first_response.elapsed).toBeLessThanOrEqual(31);
    expect(body.first_response.remaining).toBe(60 - body.first_response.elapsed);
    expect(body.resolution).toMatchObject({ target: 480, due: new Date(started + 480 * MIN).toISOString() });
    // Dutch is the SLA's own name.
    expect((await sla(id, { ...b.admin, 'accept-language': 'nl' })).json().applied.name).toBe('Detail-SLA');
  });

  it('names the company as the reason when the ticket has no SLA of its own', async () => {
    await api('PUT', `/api/companies/${b.ownCompanyId}`, { sla_id: slaId });
    try {
      const id = await ticket(5, { sla_id: null });
      expect((await sla(id, b.admin)).json().applied).toMatchObject({ sla_id: slaId, source: 'company' });
    } finally {
      await api('PUT', `/api/companies/${b.ownCompanyId}`, { sla_id: null });
    }
  });

  it('says whether the SLA counts business hours: office hours do, 24/7 only with holidays', async () => {
    const weekdays = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday'];
    const calendars: [string, Record<string, unknown>, boolean][] = [
      [
        'Kantoor',
        { schedule: Object.fromEntries(weekdays.map((d) => [d, [{ from: '08:00', to: '17:00' }]])) },
        true,
      ],
      ['Altijd', { schedule: '24/7' }, false],
      ['Altijd behalve kerst', { schedule: '24/7', holidays: [{ date: '12-25', name: 'Kerst' }] }, true],
    ];
    for (const [name, fields, businessHours] of calendars) {
      const calendar = await api('POST', '/api/business-hour-contracts', { name, ...fields });
      expect(calendar.statusCode, calendar.body).toBe(201);
      const office = await api('POST', '/api/slas', {
        name: `${name}-SLA`,
        response_time: 60,
        resolution_time: 480,
        business_hour_contract_id: calendar.json().id,
      });
      const id = await ticket(5, { sla_id: office.json().id });
      expect((await sla(id, b.admin)).json(), name).toMatchObject({ business_hours: businessHours });
      expect((await sla(id, b.client)).json(), name).toMatchObject({ business_hours: businessHours });
    }
  });

  it('shows since when a paused ticket waits', async () => {
    const id = await ticket(50);
    expect((await api('PUT', `/api/tickets/${id}`, { status_id: status.waiting })).statusCode).toBe(200);
    const since = Date.now() - 20 * MIN;
    await t.db
      .updateTable('ticket_changes')
      .set({ created_at: new Date(since) })
      .where('ticket_id', '=', id)
      .where('field', '=', 'status_id')
      .execute();
    const body = (await sla(id, b.admin)).json();
    expect(body.paused).toBe(true);
    expect(body.resolution).toMatchObject({
      state: 'paused',
      paused: true,
      paused_since: new Date(since).toISOString(),
      due: null,
    });
    expect(body.resolution.elapsed).toBeGreaterThanOrEqual(30);
    expect(body.resolution.elapsed).toBeLessThanOrEqual(31);
  });

  it("shows a client their ticket's promise and whether it was met, nothing internal", async () => {
    const id = await ticket(40);
    await t.db
      .insertInto('messages')
      .values({
        tenant_id: b.tenantId,
        morphable_type: 'ticket',
        morphable_id: id,
        message: '<p>On it.</p>',
        visible_to_client: true,
        created_at: new Date(started + 15 * MIN),
      })
      .execute();
    const res = await sla(id, b.client);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      business_hours: false,
      first_response: {
        target: 60,
        due: null,
        state: 'met',
        ended_at: new Date(started + 15 * MIN).toISOString(),
      },
      resolution: {
        target: 480,
        due: new Date(started + 480 * MIN).toISOString(),
        state: 'running',
        ended_at: null,
      },
    });
  });

  it('promises a client nothing for a ticket without an SLA', async () => {
    const id = await ticket(5, { sla_id: null });
    expect((await sla(id, b.client)).json()).toEqual({
      business_hours: false,
      first_response: null,
      resolution: null,
    });
    expect((await sla(id, b.admin)).json()).toMatchObject({ applied: null });
  });

  it('is a 404 for a client of another company, as the ticket itself is', async () => {
    const id = await ticket(5);
    const other = await t.as('other@example.com');
    expect(
      (await t.app.inject({ method: 'GET', url: `/api/tickets/${id}`, headers: other })).statusCode,
    ).toBe(404);
    expect((await sla(id, other)).statusCode).toBe(404);
  });

  it('is a 404 for clients when the tenant hides the promise, operators still see it', async () => {
    const id = await ticket(5);
    await t.db
      .insertInto('tenant_configs')
      .values({ tenant_id: b.tenantId, name: PORTAL_SHOW_SLA, value: '0' })
      .execute();
    try {
      expect((await sla(id, b.client)).statusCode).toBe(404);
      expect((await sla(id, b.admin)).statusCode).toBe(200);
    } finally {
      await t.db
        .deleteFrom('tenant_configs')
        .where('tenant_id', '=', b.tenantId)
        .where('name', '=', PORTAL_SHOW_SLA)
        .execute();
    }
    expect((await sla(id, b.client)).statusCode).toBe(200);
  });

  it('refuses an operator without the read permission, and judges the id', async () => {
    const id = await ticket(5);
    expect((await sla(id, b.limited)).statusCode).toBe(403);
    for (const bad of ['abc', '0', '-1', '99999999999']) {
      const res = await t.app.inject({ method: 'GET', url: `/api/tickets/${bad}/sla`, headers: b.admin });
      expect(res.statusCode, bad).toBe(422);
    }
    expect((await sla(2_000_000_000, b.admin)).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: `/api/tickets/${id}/sla` })).statusCode).toBe(401);
  });
});
