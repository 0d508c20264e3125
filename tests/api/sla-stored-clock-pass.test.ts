/**
 * The SLA clock kept on the ticket (issue 35, item 3), its background pass: time alone (a threshold, a
 * due instant), changes of an SLA or a calendar and a contract's SLA starting or ending are measured by
 * the claimed pass, which warns once per ticket, target, threshold and due instant and runs a breach's
 * actions once however many instances run it, and stops after the batch in hand. The write paths:
 * tests/api/sla-stored-clock-writes.test.ts.
 */
import { DateTime } from 'luxon';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSecondInstance, buildTestApp, targets, type TestApp } from './harness.ts';
import type { BackOffice } from './back-office.ts';
import { MIN, storedClockWorld, type StoredClockWorld } from './sla-stored-clock-world.ts';
import { tenantMidnight, tenantToday } from '../../server/sla/stored-clock.ts';
import { recheckSlaBatch, recheckSlaClocks, SLA_RECHECK_BATCH } from '../../server/sla/recheck.ts';

describe.each(targets)('the SLA clock stored on the ticket on $name', (target) => {
  let t: TestApp;
  let second: TestApp | undefined;
  let b: BackOffice;
  let adminId: number;
  let api: StoredClockWorld['api'];
  let stored: StoredClockWorld['stored'];
  let expectRecomputed: StoredClockWorld['expectRecomputed'];
  let ticket: StoredClockWorld['ticket'];
  let age: StoredClockWorld['age'];
  let alerts: StoredClockWorld['alerts'];

  beforeAll(async () => {
    t = await buildTestApp(target, { config: { deadlineCheckMs: 0 } });
    if (target.url) second = await buildSecondInstance(t, { config: { deadlineCheckMs: 0 } });
    ({ b, adminId, api, stored, expectRecomputed, ticket, age, alerts } = await storedClockWorld(t));
  });
  afterAll(async () => {
    await second?.close();
    await t?.close();
  });

  it('the pass measures what time alone changes, and warns once however many instances run it', async () => {
    const id = await ticket();
    const instances = [t, second ?? t];
    const pass = () => Promise.all(instances.map((i) => recheckSlaBatch(i.db)));

    await age(id, 50); // 50 of 60 minutes: past the 75 % warning, not yet the 90 % one
    await pass();
    expect(await stored(id)).toMatchObject({ first_response_state: 'warning', sla_state: 'warning' });
    await expectRecomputed(id);
    expect(await alerts(id)).toEqual([
      expect.objectContaining({
        kind: 'sla_warning',
        user_id: adminId,
        dedupe_key: expect.stringContaining(':75:'),
      }),
    ]);

    await age(id, 20); // 70 minutes: breached
    await pass();
    await t.db
      .updateTable('tickets')
      .set({ sla_recheck_at: new Date(0) })
      .where('id', '=', id)
      .execute();
    await pass();
    expect(await stored(id)).toMatchObject({ first_response_state: 'breached', sla_state: 'breached' });
    const told = await alerts(id);
    expect(told.map((a) => a.kind)).toEqual(['sla_warning', 'sla_breached']);
  });

  it("a breach runs its SLA's actions once, recorded in the history as done by the SLA", async () => {
    const [priority] = await t.db
      .selectFrom('priorities')
      .select('id')
      .where('tenant_id', '=', b.tenantId)
      .orderBy('id', 'desc')
      .limit(1)
      .execute();
    const other = await t.db
      .selectFrom('users')
      .select('id')
      .where('tenant_id', '=', b.tenantId)
      .where('is_staff', '=', true)
      .where('id', '!=', adminId)
      .executeTakeFirstOrThrow();
    const escalating = await api('POST', '/api/slas', {
      name: 'Escalating',
      response_time: 60,
      resolution_time: 480,
      breach_priority_id: priority!.id,
      breach_operator_id: other.id,
    });
    expect(escalating.statusCode, escalating.body).toBe(201);
    const slaOf = escalating.json().id as number;
    const id = await ticket({ sla_id: slaOf, priority_id: null });
    await age(id, 70);
    await Promise.all([t, second ?? t, t].map((i) => recheckSlaBatch(i.db)));
    await t.db
      .updateTable('tickets')
      .set({ sla_recheck_at: new Date(0) })
      .where('id', '=', id)
      .execute();
    await recheckSlaBatch(t.db);

    const row = await t.db
      .selectFrom('tickets')
      .select(['priority_id', 'operator_id'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ priority_id: priority!.id, operator_id: other.id });
    const history = await t.db
      .selectFrom('ticket_changes')
      .select(['field', 'user_id', 'sla_id', 'to_value'])
      .where('ticket_id', '=', id)
      .where('sla_id', 'is not', null)
      .orderBy('field')
      .execute();
    expect(history).toEqual([
      { field: 'operator_id', user_id: null, sla_id: slaOf, to_value: String(other.id) },
      { field: 'priority_id', user_id: null, sla_id: slaOf, to_value: String(priority!.id) },
    ]);
    const assigned = await t.db
      .selectFrom('notifications')
      .select('id')
      .where('ticket_id', '=', id)
      .where('user_id', '=', other.id)
      .where('kind', '=', 'assigned')
      .execute();
    expect(assigned).toHaveLength(1);
    await expectRecomputed(id);
  });

  it('an unassigned ticket warns the operators of the line', async () => {
    const id = await ticket({ operator_id: null });
    await age(id, 70);
    await recheckSlaBatch(t.db);
    const told = await alerts(id);
    expect(told.length).toBeGreaterThan(0);
    const operators = await t.db
      .selectFrom('users')
      .select(['id', 'is_operator'])
      .where(
        'id',
        'in',
        told.map((a) => a.user_id),
      )
      .execute();
    expect(operators.every((o) => o.is_operator !== null)).toBe(true);
  });

  it('a changed SLA and a changed calendar mark their open tickets, and the pass measures them again', async () => {
    const sla = (
      await api('POST', '/api/slas', { name: 'Changing', response_time: 60, resolution_time: 480 })
    ).json().id as number;
    const open = await ticket({ sla_id: sla });
    const closed = await ticket({ sla_id: sla });
    await t.app.inject({ method: 'POST', url: `/api/tickets/${closed}/close`, headers: b.admin });
    const created = (await stored(open)).created_at.getTime();
    const closedBefore = await stored(closed);

    expect((await api('PUT', `/api/slas/${sla}`, { resolution_time: 600 })).statusCode).toBe(200);
    expect((await stored(open)).sla_recheck_at!.getTime()).toBeLessThanOrEqual(Date.now());
    expect(await stored(closed)).toEqual(closedBefore);
    await recheckSlaBatch(t.db);
    expect((await stored(open)).resolution_due).toEqual(new Date(created + 600 * MIN));
    await expectRecomputed(open);

    // A calendar open one hour a day, every day: 600 business minutes take ten days at least.
    const hour = { from: '09:00', to: '10:00' };
    const days = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];
    const calendar = await api('POST', '/api/business-hour-contracts', {
      name: 'One hour',
      schedule: Object.fromEntries(days.map((d) => [d, [hour]])),
      timezone: 'UTC',
    });
    expect(calendar.statusCode, calendar.body).toBe(201);
    await api('PUT', `/api/slas/${sla}`, { business_hour_contract_id: calendar.json().id });
    await recheckSlaBatch(t.db);
    const narrow = (await stored(open)).resolution_due!.getTime();
    expect(narrow - created).toBeGreaterThan(9 * 24 * 60 * MIN);
    await expectRecomputed(open);

    const wider = { from: '09:00', to: '11:00' };
    const put = await api('PUT', `/api/business-hour-contracts/${calendar.json().id}`, {
      schedule: Object.fromEntries(days.map((d) => [d, [wider]])),
    });
    expect(put.statusCode, put.body).toBe(200);
    expect((await stored(open)).sla_recheck_at!.getTime()).toBeLessThanOrEqual(Date.now());
    await recheckSlaBatch(t.db);
    expect((await stored(open)).resolution_due!.getTime()).toBeLessThan(narrow);
    await expectRecomputed(open);
  });

  it('a pass that is told to stop ends after the batch in hand, and the next one takes the rest', async () => {
    const batch = SLA_RECHECK_BATCH;
    // One moment for every pass: a ticket whose threshold the clock reaches while the test runs is not
    // due at it, so the counts are exactly the tickets marked here.
    const now = Date.now();
    // What earlier tests left due is measured first, so that the tickets marked here are all that is due.
    await recheckSlaClocks(t.db, now);
    const open = await t.db
      .selectFrom('tickets')
      .select('id')
      .where('tenant_id', '=', b.tenantId)
      .where('resolved_at', 'is', null)
      .where('is_template', '=', false)
      .execute();
    // More than one batch due at once, as after an upgrade or a change of a widely used SLA.
    expect(open.length).toBeGreaterThan(batch);
    const ids = open.map((o) => o.id);
    await t.db
      .updateTable('tickets')
      .set({ sla_recheck_at: new Date(0) })
      .where('id', 'in', ids)
      .execute();
    const stillDue = async () =>
      (
        await t.db.selectFrom('tickets').select('id').where('sla_recheck_at', '<=', new Date(1)).execute()
      ).map((r) => r.id);
    expect((await stillDue()).sort()).toEqual([...ids].sort());

    let asked = 0;
    expect(await recheckSlaClocks(t.db, now, () => asked++ > 0)).toBe(batch);
    expect(await recheckSlaClocks(t.db, now, () => true)).toBe(0);
    expect(await stillDue()).toHaveLength(ids.length - batch);
    expect(await recheckSlaClocks(t.db, now)).toBe(ids.length - batch);
    expect(await stillDue()).toEqual([]);
  });

  it("a contract's SLA starting or ending is measured at the tenant's midnight, with no event on the ticket", async () => {
    const company = await api('POST', '/api/companies', { name: 'Contract boundary BV' });
    expect(company.statusCode, company.body).toBe(201);
    const companyId = company.json().id as number;
    const contractSla = (
      await api('POST', '/api/slas', { name: 'Contract', response_time: 30, resolution_time: 240 })
    ).json().id as number;
    const now = Date.now();
    const today = tenantToday(now);
    const tomorrow = DateTime.fromISO(today).plus({ days: 1 }).toISODate()!;
    const contract = await api('POST', '/api/contracts', {
      name: 'Starts tomorrow',
      period: 'month',
      quantity: 1,
      start_date: tomorrow,
      end_date: tomorrow,
      sla_id: contractSla,
    });
    expect(contract.statusCode, contract.body).toBe(201);
    await t.db
      .insertInto('company_contract')
      .values({ company_id: companyId, contract_id: contract.json().id })
      .execute();
    const id = await ticket({ sla_id: null, company_id: companyId });
    const closed = await ticket({ sla_id: null, company_id: companyId });
    await t.app.inject({ method: 'POST', url: `/api/tickets/${closed}/close`, headers: b.admin });

    // No SLA applies today; the open ticket is to be measured again when tomorrow begins, the closed not.
    const midnight = tenantMidnight(tomorrow);
    expect(await stored(id)).toMatchObject({ applied_sla_id: null, sla_recheck_at: new Date(midnight) });
    expect((await stored(closed)).sla_recheck_at).toBeNull();
    await expectRecomputed(id);

    // Just before midnight the pass leaves it as it is (other tests' tickets may be due); just after,
    // the contract's SLA applies.
    const before = await stored(id);
    await recheckSlaClocks(t.db, midnight - 1);
    expect(await stored(id)).toEqual(before);
    await recheckSlaClocks(t.db, midnight + MIN);
    const during = await stored(id);
    expect(during).toMatchObject({ applied_sla_id: contractSla, applied_sla_source: 'contract' });
    // The contract ends with the day: the next day it applies no more.
    const after = tenantMidnight(DateTime.fromISO(tomorrow).plus({ days: 1 }).toISODate()!);
    expect(during.sla_recheck_at!.getTime()).toBeLessThanOrEqual(after);
    await recheckSlaClocks(t.db, after + MIN);
    expect(await stored(id)).toMatchObject({ applied_sla_id: null, applied_sla_source: null });
  });
});
