/**
 * The time report (issue 36, item 1): GET /api/reports/time, /api/reports/time/breakdown and
 * /api/reports/contracts, each figure against a fixture computed by hand: seven registrations on the
 * tickets of two companies (and one without a ticket, on a prepaid card) by two operators, billable and
 * not, on contract periods and not, over October to December 2026, written through the API (the rounding
 * to the demo's 15 minutes and the booking on the periods are the API's). Then that the figures follow a
 * ticket to another company, a contract shared by a second company and an activity made billable; who
 * may read them; and what bad input answers.
 */
import qs from 'qs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, targets, type TestApp } from './harness.ts';
import { backOffice, type BackOffice } from './back-office.ts';
import { statusesByKind } from './sla-world.ts';

const FIGURES = [
  'minutes',
  'rounded_minutes',
  'billable_minutes',
  'non_billable_minutes',
  'contract_minutes',
  'registrations',
];
/** A row's figures in FIGURES' order. */
const figures = (row: Record<string, unknown>) => FIGURES.map((f) => row[f]);

describe.each(targets)('the time report on $name', (target) => {
  let t: TestApp;
  let b: BackOffice;
  let A: number; // Tijd BV
  let B: number; // Uren NV
  let admin: { id: number; full_name: string };
  let operator: { id: number; full_name: string };
  let support: number; // billable
  let meeting: number; // not billable
  let contract: number; // Support Tijd, per month, of Tijd BV
  let prepaid: number; // Strippenkaart Tijd, a prepaid card of Tijd BV
  const period: Record<'sep' | 'oct' | 'nov' | 'dec' | 'card' | 'other', number> = {
    sep: 0,
    oct: 0,
    nov: 0,
    dec: 0,
    card: 0,
    other: 0,
  };
  let ticketA: number;
  let ticketB: number;
  const registrations: number[] = [];

  const get = (path: string, query: Record<string, unknown>, headers = b.admin) =>
    t.app.inject({ method: 'GET', url: `/api/reports/${path}?${qs.stringify(query)}`, headers });
  const ok = async (path: string, query: Record<string, unknown>) => {
    const res = await get(path, query);
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  };

  beforeAll(async () => {
    t = await buildTestApp(target, { config: { deadlineCheckMs: 0 } });
    b = await backOffice(t, []);
    const status = await statusesByKind(t, b.tenantId);
    const post = async (url: string, payload: Record<string, unknown>) => {
      const res = await t.app.inject({ method: 'POST', url, headers: b.admin, payload });
      expect(res.statusCode, res.body).toBe(201);
      return res.json().id as number;
    };
    A = await post('/api/companies', { name: 'Tijd BV' });
    B = await post('/api/companies', { name: 'Uren NV' });
    const user = (email: string) =>
      t.db
        .selectFrom('users')
        .select(['id', 'full_name'])
        .where('email', '=', email)
        .executeTakeFirstOrThrow()
        .then((u) => ({ id: Number(u.id), full_name: String(u.full_name) }));
    admin = await user('admin@example.com');
    operator = await user('operator@example.com');
    const activity = async (name: string, is_billable: boolean) =>
      Number(
        (
          await t.db
            .insertInto('activities')
            .values({ tenant_id: b.tenantId, name, is_billable })
            .returning('id')
            .executeTakeFirstOrThrow()
        ).id,
      );
    support = await activity('Support', true);
    meeting = await activity('Overleg', false);
    const newContract = async (name: string, kind: string, company: number) => {
      const row = await t.db
        .insertInto('contracts')
        .values({ tenant_id: b.tenantId, name, period: kind, quantity: 10, start_date: '2026-09-01' })
        .returning('id')
        .executeTakeFirstOrThrow();
      await t.db
        .insertInto('company_contract')
        .values({ company_id: company, contract_id: row.id })
        .execute();
      return Number(row.id);
    };
    const newPeriod = async (contractId: number, start: string, end: string | null, total: number) =>
      Number(
        (
          await t.db
            .insertInto('contract_periods')
            .values({
              tenant_id: b.tenantId,
              contract_id: contractId,
              period_start: start,
              period_end: end,
              minutes_total: total,
              minutes_remaining: total,
            })
            .returning('id')
            .executeTakeFirstOrThrow()
        ).id,
      );
    contract = await newContract('Support Tijd', 'month', A);
    period.sep = await newPeriod(contract, '2026-09-01', '2026-09-30', 600);
    period.oct = await newPeriod(contract, '2026-10-01', '2026-10-31', 600);
    period.nov = await newPeriod(contract, '2026-11-01', '2026-11-30', 600);
    period.dec = await newPeriod(contract, '2026-12-01', '2026-12-31', 600);
    prepaid = await newContract('Strippenkaart Tijd', 'none', A);
    period.card = await newPeriod(prepaid, '2026-09-01', null, 1200);
    period.other = await newPeriod(
      await newContract('Beheer Uren', 'month', B),
      '2026-11-01',
      '2026-11-30',
      300,
    );
    const ticket = (company: number) =>
      post('/api/tickets', { description: 'Werk', status_id: status.open, company_id: company });
    ticketA = await ticket(A);
    ticketB = await ticket(B);
    const time = (
      ticket_id: number | null,
      who: number,
      activity_id: number | null,
      executed_at: string,
      time_spent: number,
      contract_period_id: number | null,
    ) =>
      post('/api/time-registrations', {
        ticket_id,
        operator_id: who,
        activity_id,
        executed_at,
        time_spent,
        contract_period_id,
        description: 'Gedaan',
      });
    // Amsterdam is UTC+2 until 25 October 2026, UTC+1 after. Minutes rounded up to 15.
    registrations.push(
      // 1: 15 October 10:00, 50 → 60, on October's period.
      await time(ticketA, admin.id, support, '2026-10-15T08:00:00Z', 50, period.oct),
      // 2: 31 October 23:30 (22:30 UTC), 20 → 30, not billable, on no contract.
      await time(ticketA, operator.id, meeting, '2026-10-31T22:30:00Z', 20, null),
      // 3: 2 November, 90, on no contract.
      await time(ticketB, operator.id, support, '2026-11-02T08:00:00Z', 90, null),
      // 4: 10 November, no ticket, 25 → 30 on the prepaid card: Tijd BV's through its contract.
      await time(null, admin.id, support, '2026-11-10T13:00:00Z', 25, period.card),
      // 5: 30 November 23:30, no activity (not billable), 10 → 15.
      await time(ticketB, admin.id, null, '2026-11-30T22:30:00Z', 10, null),
      // 6: 1 December 00:30 (30 November 23:30 UTC), 40 → 45 on December's period.
      await time(ticketA, admin.id, support, '2026-11-30T23:30:00Z', 40, period.dec),
      // 7: 5 November, 15, booked late on September's period.
      await time(ticketA, operator.id, support, '2026-11-05T10:00:00Z', 15, period.sep),
    );
  });
  afterAll(() => t?.close());

  const OCT_NOV = { from: '2026-10-01', to: '2026-11-30' };

  it('says each figure of October and November by month, as computed by hand', async () => {
    const { rows, total } = await ok('time', { ...OCT_NOV, group: 'month', company_id: [A, B] });
    expect(rows.map((r: Record<string, unknown>) => [r.period, r.from, r.to, ...figures(r)])).toEqual([
      // 1 and 2: 50 + 20 minutes, 60 + 30 rounded, 60 billable, 30 not, 60 on a contract.
      ['2026-10-01', '2026-10-01', '2026-10-31', 70, 90, 60, 30, 60, 2],
      // 3, 4, 5 and 7: 90 + 25 + 10 + 15, rounded 90 + 30 + 15 + 15; 5 has no activity: not billable.
      ['2026-11-01', '2026-11-01', '2026-11-30', 140, 150, 135, 15, 45, 4],
    ]);
    expect(figures(total)).toEqual([210, 240, 195, 45, 105, 6]);
  });

  it('by week, clipped to the period, each week from its Monday; days in the desk’s zone', async () => {
    const { rows } = await ok('time', {
      from: '2026-11-01',
      to: '2026-11-30',
      group: 'week',
      company_id: [A, B],
    });
    expect(rows.map((r: Record<string, unknown>) => [r.period, r.from, r.to, ...figures(r)])).toEqual([
      ['2026-10-26', '2026-11-01', '2026-11-01', 0, 0, 0, 0, 0, 0],
      ['2026-11-02', '2026-11-02', '2026-11-08', 105, 105, 105, 0, 15, 2],
      ['2026-11-09', '2026-11-09', '2026-11-15', 25, 30, 30, 0, 30, 1],
      ['2026-11-16', '2026-11-16', '2026-11-22', 0, 0, 0, 0, 0, 0],
      ['2026-11-23', '2026-11-23', '2026-11-29', 0, 0, 0, 0, 0, 0],
      ['2026-11-30', '2026-11-30', '2026-11-30', 10, 15, 0, 15, 0, 1],
    ]);
    // 5 and 6 are both on 30 November in UTC; in Amsterdam 6 is on 1 December.
    const days = await ok('time', { from: '2026-11-30', to: '2026-12-01', group: 'day', company_id: [A, B] });
    expect(days.rows.map((r: Record<string, unknown>) => [r.period, r.minutes, r.contract_minutes])).toEqual([
      ['2026-11-30', 10, 0],
      ['2026-12-01', 40, 45],
    ]);
  });

  it('breaks the time down per company, operator, activity and contract, each row named, none last', async () => {
    const by = async (key: string) => {
      const res = await ok('time/breakdown', { ...OCT_NOV, by: key, company_id: [A, B] });
      expect(figures(res.total)).toEqual([210, 240, 195, 45, 105, 6]);
      return res.rows.map((r: Record<string, unknown>) => [r.key, r.name, ...figures(r)]);
    };
    // The card's time (4) is Tijd BV's: its contract has that one company.
    expect(await by('company_id')).toEqual([
      [A, 'Tijd BV', 110, 135, 105, 30, 105, 4],
      [B, 'Uren NV', 100, 105, 90, 15, 0, 2],
    ]);
    const operators = [
      [admin.id, admin.full_name, 85, 105, 90, 15, 90, 3],
      [operator.id, operator.full_name, 125, 135, 105, 30, 15, 3],
    ].sort((x, y) => String(x[1]).localeCompare(String(y[1])));
    expect(await by('operator_id')).toEqual(operators);
    expect(await by('activity_id')).toEqual([
      [meeting, 'Overleg', 20, 30, 0, 30, 0, 1],
      [support, 'Support', 180, 195, 195, 0, 105, 4],
      [null, null, 10, 15, 0, 15, 0, 1],
    ]);
    expect(await by('contract_id')).toEqual([
      [prepaid, 'Strippenkaart Tijd', 25, 30, 30, 0, 30, 1],
      [contract, 'Support Tijd', 65, 75, 75, 0, 75, 2],
      [null, null, 120, 135, 90, 45, 0, 3],
    ]);
  });

  it('filters by operator, line, contract (none: on no contract) and activity', async () => {
    const total = async (query: Record<string, unknown>) =>
      figures((await ok('time', { ...OCT_NOV, company_id: [A, B], ...query })).total);
    expect(await total({ operator_id: [admin.id] })).toEqual([85, 105, 90, 15, 90, 3]);
    // The admin is second line, the operator first line.
    expect(await total({ line: 2 })).toEqual([85, 105, 90, 15, 90, 3]);
    expect(await total({ line: 1 })).toEqual([125, 135, 105, 30, 15, 3]);
    expect(await total({ contract_id: ['none'] })).toEqual([120, 135, 90, 45, 0, 3]);
    expect(await total({ contract_id: [prepaid, 'none'] })).toEqual([145, 165, 120, 45, 30, 4]);
    expect(await total({ activity_id: [meeting], company_id: [A] })).toEqual([20, 30, 0, 30, 0, 1]);
    expect(await total({ activity_id: ['none'] })).toEqual([10, 15, 0, 15, 0, 1]);
  });

  it('lists the consumption of each contract period of the range, a prepaid card’s too', async () => {
    const { rows, total } = await ok('contracts', { ...OCT_NOV, company_id: [A] });
    const card = { prepaid: true, contract_id: prepaid, contract_name: 'Strippenkaart Tijd' };
    const monthly = { prepaid: false, contract_id: contract, contract_name: 'Support Tijd' };
    const companies = [{ id: A, name: 'Tijd BV' }];
    expect(rows).toEqual([
      // 4 on the card: 30 of its 1200 minutes taken off.
      {
        id: period.card,
        period_start: '2026-09-01',
        period_end: null,
        ...card,
        companies,
        ...{ minutes: 25, rounded_minutes: 30, registrations: 1 },
        ...{ minutes_total: 1200, registered_time: 30, minutes_remaining: 1170 },
      },
      // September's period is before the range, but 7 was booked on it in the range.
      {
        id: period.sep,
        period_start: '2026-09-01',
        period_end: '2026-09-30',
        ...monthly,
        companies,
        ...{ minutes: 15, rounded_minutes: 15, registrations: 1 },
        ...{ minutes_total: 600, registered_time: 15, minutes_remaining: 585 },
      },
      {
        id: period.oct,
        period_start: '2026-10-01',
        period_end: '2026-10-31',
        ...monthly,
        companies,
        ...{ minutes: 50, rounded_minutes: 60, registrations: 1 },
        ...{ minutes_total: 600, registered_time: 60, minutes_remaining: 540 },
      },
      // Nothing booked in November; December's period (6) is after the range.
      {
        id: period.nov,
        period_start: '2026-11-01',
        period_end: '2026-11-30',
        ...monthly,
        companies,
        ...{ minutes: 0, rounded_minutes: 0, registrations: 0 },
        ...{ minutes_total: 600, registered_time: 0, minutes_remaining: 600 },
      },
    ]);
    expect(total).toEqual({
      minutes: 90,
      rounded_minutes: 105,
      registrations: 3,
      minutes_total: 3000,
      registered_time: 105,
      minutes_remaining: 2895,
    });
    // What the periods lost in the range is the time report's time on contracts.
    expect((await ok('time', { ...OCT_NOV, company_id: [A] })).total.contract_minutes).toBe(105);
    // December: 6 on December's period.
    const december = await ok('contracts', { from: '2026-12-01', to: '2026-12-31', contract_id: [contract] });
    expect(december.rows.map((r: Record<string, unknown>) => [r.id, r.rounded_minutes])).toEqual([
      [period.dec, 45],
    ]);
    const other = await ok('contracts', { ...OCT_NOV, company_id: [B] });
    expect(
      other.rows.map((r: Record<string, unknown>) => [r.id, r.contract_name, r.rounded_minutes]),
    ).toEqual([[period.other, 'Beheer Uren', 0]]);
  });

  it('follows a ticket to another company, a contract shared with another, an activity made billable', async () => {
    const companies = async (query: Record<string, unknown> = {}) =>
      (await ok('time/breakdown', { ...OCT_NOV, by: 'company_id', company_id: [A, B], ...query })).rows.map(
        (r: Record<string, unknown>) => [r.key, r.rounded_minutes],
      );
    const moved = await t.app.inject({
      method: 'PUT',
      url: `/api/tickets/${ticketB}`,
      headers: b.admin,
      payload: { company_id: A },
    });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(await companies()).toEqual([[A, 240]]);
    // The card shared by both companies: whose is the time without a ticket? Neither.
    await t.db.insertInto('company_contract').values({ company_id: B, contract_id: prepaid }).execute();
    expect(await companies()).toEqual([[A, 210]]);
    const card = await ok('time/breakdown', { ...OCT_NOV, by: 'company_id', contract_id: [prepaid] });
    expect(card.rows.map((r: Record<string, unknown>) => [r.key, r.name, r.rounded_minutes])).toEqual([
      [null, null, 30],
    ]);
    await t.db.updateTable('activities').set({ is_billable: true }).where('id', '=', meeting).execute();
    const billable = await ok('time', { ...OCT_NOV, company_id: [A] });
    expect([billable.total.billable_minutes, billable.total.non_billable_minutes]).toEqual([195, 15]);
    // A registration deleted and one edited: gone from the figures, moved to its new day.
    const gone = await t.app.inject({
      method: 'DELETE',
      url: `/api/time-registrations/${registrations[2]}`,
      headers: b.admin,
    });
    expect(gone.statusCode, gone.body).toBe(200);
    const edited = await t.app.inject({
      method: 'PUT',
      url: `/api/time-registrations/${registrations[0]}`,
      headers: b.admin,
      payload: { executed_at: '2026-11-16T09:00:00Z', time_spent: 61 },
    });
    expect(edited.statusCode, edited.body).toBe(200);
    const after = await ok('time', { ...OCT_NOV, company_id: [A] });
    expect(after.rows.map((r: Record<string, unknown>) => [r.period, r.minutes, r.rounded_minutes])).toEqual([
      ['2026-10-01', 20, 30],
      ['2026-11-01', 61 + 10 + 15, 75 + 15 + 15],
    ]);
  });

  it('is for operators with the reports permission: second line yes, first line and clients no', async () => {
    const operatorAuth = await t.as('operator@example.com');
    for (const path of ['time', 'time/breakdown', 'contracts']) {
      const query = { ...OCT_NOV, by: 'company_id' };
      expect((await get(path, query)).statusCode).toBe(200);
      expect((await get(path, query, operatorAuth)).statusCode).toBe(403);
      expect((await get(path, query, b.client)).statusCode).toBe(403);
      expect((await get(path, query, {})).statusCode).toBe(401);
    }
  });

  it('answers 422 naming what is wrong with the period, the key or a filter', async () => {
    const errors = async (path: string, query: Record<string, unknown>) => {
      const res = await get(path, query);
      expect(res.statusCode, res.body).toBe(422);
      return res.json().errors;
    };
    const range = ['The period must end on or after its first day and span at most 1830 days.'];
    for (const path of ['time', 'time/breakdown', 'contracts']) {
      const by = path === 'time/breakdown' ? { by: 'operator_id' } : {};
      expect(await errors(path, { to: '2026-11-30', ...by })).toEqual({
        from: ['The from field is required.'],
      });
      expect(await errors(path, { from: '2026-11-30', to: '2026-11-01', ...by })).toEqual({ to: range });
      expect(await errors(path, { from: '2016-01-01', to: '2026-11-01', ...by })).toEqual({ to: range });
      expect(Object.keys(await errors(path, { ...OCT_NOV, ...by, company_id: ['x'] }))).toEqual([
        'company_id',
      ]);
    }
    expect(await errors('time', { ...OCT_NOV, group: 'year' })).toEqual({
      group: ['The selected group is invalid.'],
    });
    expect(Object.keys(await errors('time/breakdown', { ...OCT_NOV, by: 'ticket_id' }))).toEqual(['by']);
    expect(Object.keys(await errors('time/breakdown', OCT_NOV))).toEqual(['by']);
    expect(Object.keys(await errors('contracts', { ...OCT_NOV, contract_id: ['none'] }))).toEqual([
      'contract_id',
    ]);
  });
});
