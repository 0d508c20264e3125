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

  it('knows no ticket of another tenant', async () => {
    const id = await ticket({ sla_id: slaId });
    expect(await ticketClock(t.db, tenantId + 1000, id, T0, TODAY)).toBeNull();
  });
});
