/**
 * A ticket's SLA clock from its recorded history (issue 35, item 3, server side): the ticket, its
 * history entries (written by the real update path) and its messages become the clock's events, and
 * the clock says what an operator would: a public reply meets the first response, an internal note and
 * a held mail count for nothing, a pausing status stops the clock, a closing status solves the ticket,
 * and a ticket without an SLA of its own is measured under its company's.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, targets, type TestApp } from './harness.ts';
import { backOffice, type BackOffice } from './back-office.ts';
import { ticketClock } from '../../server/sla/ticket-clock.ts';
import { responseTimes, storeTicketClocks } from '../../server/sla/stored-clock.ts';

const T0 = Date.parse('2026-11-30T09:00:00Z');
const MIN = 60_000;
const TODAY = '2026-12-02';

describe.each(targets)('a ticket clock from its history on $name', (target) => {
  let t: TestApp;
  let b: BackOffice;
  let tenantId: number;
  let slaId: number;
  const status: Record<'open' | 'waiting' | 'closed', number> = { open: 0, waiting: 0, closed: 0 };

  const api = (method: 'POST' | 'PUT', url: string, payload: Record<string, unknown>) =>
    t.app.inject({ method, url, headers: b.admin, payload });

  /** A ticket created at T0 under `sla` (its own) for `companyId`. */
  async function ticket(fields: Record<string, unknown>): Promise<number> {
    const res = await api('POST', '/api/tickets', {
      description: 'Clock',
      status_id: status.open,
      ...fields,
    });
    expect(res.statusCode, res.body).toBe(201);
    const id = res.json().id as number;
    await t.db
      .updateTable('tickets')
      .set({ created_at: new Date(T0) })
      .where('id', '=', id)
      .execute();
    return id;
  }

  async function message(ticketId: number, minutes: number, fields: Record<string, unknown>) {
    await t.db
      .insertInto('messages')
      .values({
        tenant_id: tenantId,
        morphable_type: 'ticket',
        morphable_id: ticketId,
        message: '<p>…</p>',
        created_at: new Date(T0 + minutes * MIN),
        ...fields,
      })
      .execute();
  }

  /** Sets the ticket's status through the API and dates its history entry `minutes` after T0. */
  async function setStatus(ticketId: number, statusId: number, minutes: number) {
    expect((await api('PUT', `/api/tickets/${ticketId}`, { status_id: statusId })).statusCode).toBe(200);
    await t.db
      .updateTable('ticket_changes')
      .set({ created_at: new Date(T0 + minutes * MIN) })
      .where('ticket_id', '=', ticketId)
      .where('field', '=', 'status_id')
      .where('to_value', '=', String(statusId))
      .execute();
  }

  /** Like setStatus, for a status the ticket may have had before: dates only the change just made. */
  async function setStatusAt(ticketId: number, statusId: number, minutes: number) {
    expect((await api('PUT', `/api/tickets/${ticketId}`, { status_id: statusId })).statusCode).toBe(200);
    const last = await t.db
      .selectFrom('ticket_changes')
      .select((eb) => eb.fn.max('id').as('id'))
      .where('ticket_id', '=', ticketId)
      .where('field', '=', 'status_id')
      .executeTakeFirstOrThrow();
    await t.db
      .updateTable('ticket_changes')
      .set({ created_at: new Date(T0 + minutes * MIN) })
      .where('id', '=', last.id!)
      .execute();
  }

  beforeAll(async () => {
    t = await buildTestApp(target);
    b = await backOffice(t, []);
    tenantId = b.tenantId;
    const sla = await api('POST', '/api/slas', {
      name: 'Clock SLA',
      response_time: 60,
      resolution_time: 480,
    });
    slaId = sla.json().id;
    const statuses = await t.db
      .selectFrom('ticket_statuses')
      .select(['id', 'internal_type'])
      .where('tenant_id', '=', tenantId)
      .orderBy('order')
      .execute();
    status.open = statuses.find((s) => s.internal_type === 1)!.id;
    status.waiting = statuses.find((s) => s.internal_type === 4)!.id;
    status.closed = statuses.find((s) => s.internal_type === 2)!.id;
  });
  afterAll(() => t.close());

  it('a public reply meets the first response; an internal note and a held mail count for nothing', async () => {
    const id = await ticket({ sla_id: slaId });
    await message(id, 10, { visible_to_client: false });
    await message(id, 20, { is_from_client: true, sender_check: 'unverified' });
    await message(id, 30, { visible_to_client: true });
    const result = (await ticketClock(t.db, tenantId, id, T0 + 120 * MIN, TODAY))!;
    expect(result.applied).toEqual({ slaId, source: 'ticket' });
    expect(result.clock.first_response).toMatchObject({ state: 'met', elapsed: 30, target: 60 });
    expect(result.clock.next_response).toBeNull();
    expect(result.clock.resolution).toMatchObject({ state: 'running', elapsed: 120, due: T0 + 480 * MIN });
  });

  it('a pausing status stops the clock, and a closing status solves the ticket', async () => {
    const id = await ticket({ sla_id: slaId });
    await setStatus(id, status.waiting, 100);
    const paused = (await ticketClock(t.db, tenantId, id, T0 + 300 * MIN, TODAY))!.clock;
    expect(paused.resolution).toMatchObject({ state: 'paused', elapsed: 100, pausedSince: T0 + 100 * MIN });
    // The first response, due after 60 minutes, breached before the pause: a breach stays one.
    expect(paused.first_response).toMatchObject({
      state: 'breached',
      elapsed: 100,
      breachedAt: T0 + 60 * MIN,
    });
    await setStatus(id, status.open, 400);
    await setStatus(id, status.closed, 450);
    const solved = (await ticketClock(t.db, tenantId, id, T0 + 900 * MIN, TODAY))!.clock;
    expect(solved.resolution).toMatchObject({ state: 'met', elapsed: 150, endedBy: 'solved' });
    // Its first response was never given: it breached while the ticket ran (60 minutes), before solving.
    expect(solved.first_response).toMatchObject({ state: 'breached', breachedAt: T0 + 60 * MIN });
  });

  it("measures a ticket without an SLA of its own under its company's", async () => {
    const company = await api('POST', '/api/companies', { name: 'Clock BV', sla_id: slaId });
    const id = await ticket({ company_id: company.json().id });
    const result = (await ticketClock(t.db, tenantId, id, T0 + 30 * MIN, TODAY))!;
    expect(result.applied).toEqual({ slaId, source: 'company' });
    expect(result.clock.first_response).toMatchObject({ state: 'running', remaining: 30 });
  });

  it('keeps what the reports measure: business minutes to the first answer and to the solution, reopenings added', async () => {
    // Monday to Friday, 09:00 to 17:00 in Amsterdam. T0 is Monday 30 November 2026, 10:00 there.
    const workday = [{ from: '09:00', to: '17:00' }];
    const weekdays = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday'];
    const calendar = await api('POST', '/api/business-hour-contracts', {
      name: 'Office hours',
      schedule: Object.fromEntries(weekdays.map((d) => [d, workday])),
      timezone: 'Europe/Amsterdam',
    });
    expect(calendar.statusCode, calendar.body).toBe(201);
    const office = await api('POST', '/api/slas', {
      name: 'Office SLA',
      response_time: 240,
      resolution_time: 960,
      business_hour_contract_id: calendar.json().id,
    });
    expect(office.statusCode, office.body).toBe(201);
    const id = await ticket({ sla_id: office.json().id });
    // Waiting for the client from 11:00 to 13:00 (paused), answered at 14:00: 60 + 60 minutes.
    await setStatusAt(id, status.waiting, 60);
    await setStatusAt(id, status.open, 180);
    await message(id, 240, { visible_to_client: true });
    // Solved at 16:00: 60 + 180 minutes open. Reopened at 20:00 (out of hours) and solved again on
    // Tuesday at 09:30 (23 hours and a half after T0): 30 more.
    await setStatusAt(id, status.closed, 360);
    await setStatusAt(id, status.open, 600);
    await setStatusAt(id, status.closed, 23 * 60 + 30);
    const now = T0 + 3 * 24 * 60 * MIN;
    const figures = responseTimes((await ticketClock(t.db, tenantId, id, now, TODAY))!.clock);
    expect(figures).toEqual({
      first_response_at: new Date(T0 + 240 * MIN),
      first_response_minutes: 120,
      resolution_minutes: 270,
      reopened_at: [new Date(T0 + 600 * MIN)],
    });
    // The write that stores the clock keeps them on the ticket.
    await t.db.transaction().execute((trx) => storeTicketClocks(trx, tenantId, [id], now));
    expect(
      await t.db
        .selectFrom('tickets')
        .select(['first_response_at', 'first_response_minutes', 'resolution_minutes', 'reopened_at'])
        .where('id', '=', id)
        .executeTakeFirstOrThrow(),
    ).toEqual(figures);
  });

  it('has no first response for a ticket solved unanswered, and no times while it is open', async () => {
    const unanswered = await ticket({ sla_id: slaId });
    await setStatus(unanswered, status.closed, 45);
    expect(
      responseTimes((await ticketClock(t.db, tenantId, unanswered, T0 + 60 * MIN, TODAY))!.clock),
    ).toEqual({
      first_response_at: null,
      first_response_minutes: null,
      resolution_minutes: 45,
      reopened_at: [],
    });
    const open = await ticket({ sla_id: slaId });
    await message(open, 15, { visible_to_client: true });
    expect(responseTimes((await ticketClock(t.db, tenantId, open, T0 + 60 * MIN, TODAY))!.clock)).toEqual({
      first_response_at: new Date(T0 + 15 * MIN),
      first_response_minutes: 15,
      resolution_minutes: null,
      reopened_at: [],
    });
  });

  it('knows no ticket of another tenant', async () => {
    const id = await ticket({ sla_id: slaId });
    expect(await ticketClock(t.db, tenantId + 1000, id, T0, TODAY)).toBeNull();
  });
});
