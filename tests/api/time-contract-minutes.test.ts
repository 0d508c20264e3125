/**
 * Time on a contract (issue 18 loose end, SPEC 3: a contract period lists its registered and remaining
 * time): a time registration booked on a contract period takes its rounded time off the period's
 * remaining minutes and adds it to its registered time, and off the contract's remaining minutes when
 * the period is the contract's current one, in the registration's own transaction; an edit moves the
 * booking (other time, another period, no period), a delete gives it back. A registration without a
 * period takes nothing off.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, targets, type TestApp } from './harness.ts';
import { backOffice, type BackOffice } from './back-office.ts';

describe.each(targets)('time registrations on a contract on $name', (target) => {
  let t: TestApp;
  let b: BackOffice;
  let ticketId: number;
  let contractId: number;
  let current: number;
  let older: number;

  const TOTAL = 600;

  /** The contract's and both periods' figures: [contract remaining, [registered, remaining] per period]. */
  const figures = async () => {
    const contract = await t.db
      .selectFrom('contracts')
      .select('minutes_remaining')
      .where('id', '=', contractId)
      .executeTakeFirstOrThrow();
    const periods = await t.db
      .selectFrom('contract_periods')
      .select(['id', 'registered_time', 'minutes_remaining'])
      .where('contract_id', '=', contractId)
      .execute();
    const of = (id: number) => {
      const p = periods.find((r) => Number(r.id) === id)!;
      return [Number(p.registered_time), Number(p.minutes_remaining)];
    };
    return { contract: Number(contract.minutes_remaining), current: of(current), older: of(older) };
  };

  const send = (method: 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
    t.app.inject({ method, url: `/api/time-registrations${url}`, headers: b.admin, payload });

  beforeAll(async () => {
    t = await buildTestApp(target);
    b = await backOffice(t, []);
    const contract = await t.db
      .insertInto('contracts')
      .values({
        tenant_id: b.tenantId,
        name: 'Strippenkaart proef',
        period: 'none',
        quantity: 10,
        minutes_remaining: TOTAL,
        start_date: '2026-01-01',
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    contractId = Number(contract.id);
    await t.db
      .insertInto('company_contract')
      .values({ company_id: b.ownCompanyId, contract_id: contractId })
      .execute();
    const period = async (start: string) =>
      Number(
        (
          await t.db
            .insertInto('contract_periods')
            .values({
              tenant_id: b.tenantId,
              contract_id: contractId,
              period_start: start,
              minutes_total: TOTAL,
              minutes_remaining: TOTAL,
            })
            .returning('id')
            .executeTakeFirstOrThrow()
        ).id,
      );
    older = await period('2026-01-01');
    current = await period('2026-06-01');
    const status = await t.db
      .selectFrom('ticket_statuses')
      .select('id')
      .where('tenant_id', '=', b.tenantId)
      .orderBy('id')
      .executeTakeFirstOrThrow();
    ticketId = Number(
      (
        await t.db
          .insertInto('tickets')
          .values({
            tenant_id: b.tenantId,
            company_id: b.ownCompanyId,
            status_id: status.id,
            description: 'Uren op de strippenkaart',
          })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id,
    );
  }, 120_000);
  afterAll(() => t?.close());

  it('a registration on the current period takes its rounded time off the period and the contract', async () => {
    const res = await send('POST', '', {
      ticket_id: ticketId,
      contract_period_id: current,
      time_spent: 20,
      executed_at: '2026-06-02T10:00:00.000Z',
    });
    expect(res.statusCode).toBe(201);
    // The demo tenant rounds up to 15 minutes: 20 minutes count as 30.
    expect(res.json().time_spent_rounded).toBe(30);
    expect(await figures()).toEqual({ contract: TOTAL - 30, current: [30, TOTAL - 30], older: [0, TOTAL] });

    const id = Number(res.json().id);
    expect((await send('PUT', `/${id}`, { time_spent: 50 })).statusCode).toBe(200);
    expect(await figures()).toEqual({ contract: TOTAL - 60, current: [60, TOTAL - 60], older: [0, TOTAL] });

    // Moved to an older period: that period pays, the contract's figure (its current period) is whole again.
    expect((await send('PUT', `/${id}`, { contract_period_id: older })).statusCode).toBe(200);
    expect(await figures()).toEqual({ contract: TOTAL, current: [0, TOTAL], older: [60, TOTAL - 60] });

    expect((await send('PUT', `/${id}`, { contract_period_id: null })).statusCode).toBe(200);
    expect(await figures()).toEqual({ contract: TOTAL, current: [0, TOTAL], older: [0, TOTAL] });

    expect((await send('PUT', `/${id}`, { contract_period_id: current })).statusCode).toBe(200);
    expect(await figures()).toEqual({ contract: TOTAL - 60, current: [60, TOTAL - 60], older: [0, TOTAL] });
    // An edit that does not touch time or period leaves the figures.
    expect((await send('PUT', `/${id}`, { description: 'Printer nagekeken' })).statusCode).toBe(200);
    expect(await figures()).toEqual({ contract: TOTAL - 60, current: [60, TOTAL - 60], older: [0, TOTAL] });

    expect((await send('DELETE', `/${id}`)).statusCode).toBe(200);
    expect(await figures()).toEqual({ contract: TOTAL, current: [0, TOTAL], older: [0, TOTAL] });
  });

  it('a registration without a contract period takes nothing off; a refused one changes nothing', async () => {
    const res = await send('POST', '', {
      ticket_id: ticketId,
      time_spent: 45,
      executed_at: '2026-06-03T10:00:00.000Z',
    });
    expect(res.statusCode).toBe(201);
    expect(await figures()).toEqual({ contract: TOTAL, current: [0, TOTAL], older: [0, TOTAL] });
    const refused = await send('POST', '', {
      ticket_id: ticketId,
      contract_period_id: current,
      time_spent: -5,
      executed_at: '2026-06-03T10:00:00.000Z',
    });
    expect(refused.statusCode).toBe(422);
    expect(await figures()).toEqual({ contract: TOTAL, current: [0, TOTAL], older: [0, TOTAL] });
  });
});
