/**
 * Issue 18, item 1: GET /api/dashboard. Each figure is checked two ways: by the tickets made for it
 * (each new ticket moves exactly the figures it belongs to, counted by hand) and against the ticket list
 * that the figure opens (the same filter as a builder query, answered by the generic list). Scope: other
 * tenants' tickets never count, clients and operators without tenant.tickets.index get 403.
 */
import qs from 'qs';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, targets, type TestApp } from './harness.ts';
import { backOffice, type BackOffice } from './back-office.ts';
import {
  DASHBOARD_COUNTS,
  DASHBOARD_ROWS,
  type DashboardAnswer,
  type DashboardCount,
  type DashboardRowKey,
} from '../../common/dashboard.ts';

const HOUR = 3600 * 1000;

describe.each(targets)('the operator dashboard on $name', (target) => {
  let t: TestApp;
  let b: BackOffice;
  let firstLine: Record<string, string>;
  let adminId: number;
  let firstLineId: number;
  /** Status id by SPEC 3 internal type. */
  const status: Record<number, number> = {};
  /** "Today" for these tests: the twelve hours either side of the start, so no deadline crosses it. */
  let day: { from: string; to: string };
  let serial = 0;

  const dashboard = async (headers: Record<string, string>, query: object = day) => {
    const res = await t.app.inject({ method: 'GET', url: `/api/dashboard?${qs.stringify(query)}`, headers });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as DashboardAnswer;
  };
  const figures = (answer: DashboardAnswer) =>
    Object.fromEntries(answer.rows.map((r) => [r.key, r.counts])) as Record<
      DashboardRowKey,
      Record<DashboardCount, number>
    >;

  async function makeTicket(values: {
    operator: number | null;
    type: number;
    deadline?: Date | null;
    created?: Date;
    /** The stored SLA clock (issue 35), as the server would have written it. */
    sla?: { state: 'running' | 'warning' | 'breached' | 'met' | 'paused'; due: Date | null };
    template?: boolean;
    tenantId?: number;
    statusId?: number;
  }) {
    serial += 1;
    await t.db
      .insertInto('tickets')
      .values({
        tenant_id: values.tenantId ?? b.tenantId,
        reference: `DASH-${serial}`,
        description: `Dashboard ${serial}`,
        status_id: values.statusId ?? status[values.type]!,
        operator_id: values.operator,
        company_id: values.tenantId ? null : b.ownCompanyId,
        deadline: values.deadline ?? null,
        is_template: values.template ?? false,
        ...(values.type === 2 || values.type === 3 ? { resolved_at: new Date() } : {}),
        ...(values.sla && { sla_state: values.sla.state, sla_due: values.sla.due, sla_recheck_at: null }),
        ...(values.created && { created_at: values.created, updated_at: values.created }),
      })
      .execute();
  }

  beforeAll(async () => {
    t = await buildTestApp(target);
    b = await backOffice(t, ['tenant.tickets.index']);
    firstLine = await t.as('operator@example.com');
    const ids = await t.db.selectFrom('users').select(['id', 'email']).execute();
    adminId = Number(ids.find((u) => u.email === 'admin@example.com')!.id);
    firstLineId = Number(ids.find((u) => u.email === 'operator@example.com')!.id);
    const statuses = await t.db
      .selectFrom('ticket_statuses')
      .select(['id', 'internal_type'])
      .where('tenant_id', '=', b.tenantId)
      .orderBy('order')
      .orderBy('id')
      .execute();
    for (const s of [...statuses].reverse()) status[Number(s.internal_type)] = Number(s.id);
    const now = Date.now();
    day = { from: new Date(now - 12 * HOUR).toISOString(), to: new Date(now + 12 * HOUR).toISOString() };
  });
  afterAll(() => t?.close());

  it('each new ticket moves exactly the figures it belongs to', async () => {
    const before = figures(await dashboard(b.admin));
    const now = Date.now();
    // Mine, open, deadline yesterday, made now: open, overdue, new today.
    await makeTicket({ operator: adminId, type: 1, deadline: new Date(now - 24 * HOUR) });
    // Mine, waiting for the client, deadline in an hour: open, due today, waiting, new today.
    await makeTicket({ operator: adminId, type: 4, deadline: new Date(now + HOUR) });
    // Mine, deadline an hour ago: overdue and due today both.
    await makeTicket({ operator: adminId, type: 1, deadline: new Date(now - HOUR) });
    // Mine, deadline in an earlier month (counted by the summary, not the deadline index): overdue.
    await makeTicket({ operator: adminId, type: 1, deadline: new Date(now - 40 * 24 * HOUR) });
    // Nobody's, client replied, no deadline, made two days ago: open and replied only.
    await makeTicket({ operator: null, type: 5, created: new Date(now - 48 * HOUR) });
    // The first-line operator's, closed, deadline past, made now: new today only.
    await makeTicket({ operator: firstLineId, type: 2, deadline: new Date(now - 24 * HOUR) });
    // A template never counts.
    await makeTicket({ operator: adminId, type: 1, deadline: new Date(now - HOUR), template: true });
    // Another tenant's ticket, nobody's and open, never counts.
    const otherStatus = await t.db
      .insertInto('ticket_statuses')
      .values({ tenant_id: b.otherTenantId, name: 'Open', name_client: 'Open', internal_type: 1 })
      .returning('id')
      .executeTakeFirstOrThrow();
    await makeTicket({
      operator: null,
      type: 1,
      tenantId: b.otherTenantId,
      statusId: Number(otherStatus.id),
      deadline: new Date(now - HOUR),
    });

    const after = figures(await dashboard(b.admin));
    const moved = (key: DashboardRowKey) =>
      Object.fromEntries(DASHBOARD_COUNTS.map((c) => [c, after[key][c] - before[key][c]]));
    expect(moved('mine')).toEqual({
      open: 4,
      overdue: 3,
      due_today: 2,
      waiting: 1,
      got_reply: 0,
      new_today: 4,
      sla_breached: 0,
      sla_within_hour: 0,
    });
    // The admin is a second-line operator: the line moves with them.
    expect(moved('second_line')).toEqual(moved('mine'));
    expect(moved('unassigned')).toEqual({
      open: 1,
      overdue: 0,
      due_today: 0,
      waiting: 0,
      got_reply: 1,
      new_today: 0,
      sla_breached: 0,
      sla_within_hour: 0,
    });
    expect(moved('first_line')).toEqual({
      open: 0,
      overdue: 0,
      due_today: 0,
      waiting: 0,
      got_reply: 0,
      new_today: 1,
      sla_breached: 0,
      sla_within_hour: 0,
    });

    // Moving a ticket to another operator and status moves its figures (the summary's trigger).
    await sql`update tickets set operator_id = ${firstLineId}, status_id = ${status[2]!}
      where reference = 'DASH-1'`.execute(t.db);
    const moved2 = figures(await dashboard(b.admin));
    expect(moved2.mine.open).toBe(after.mine.open - 1);
    expect(moved2.mine.overdue).toBe(after.mine.overdue - 1);
    expect(moved2.first_line.open).toBe(after.first_line.open);
    // A deadline taken away leaves the earlier month's overdue tickets.
    await sql`update tickets set deadline = null where reference = 'DASH-4'`.execute(t.db);
    const moved3 = figures(await dashboard(b.admin));
    expect(moved3.mine.overdue).toBe(moved2.mine.overdue - 1);
    expect(moved3.mine.open).toBe(moved2.mine.open);
  });

  it('counts open tickets by their stored SLA clock: breached, and due within the hour (issue 35)', async () => {
    const before = figures(await dashboard(b.admin));
    const now = Date.now();
    const sla = (state: 'running' | 'warning' | 'breached' | 'met' | 'paused', due: number | null) => ({
      state,
      due: due === null ? null : new Date(now + due),
    });
    // Mine and open: breached (no target left in time); breached with another target due in 30 minutes
    // (both figures); running due in 30 minutes; a warning due in 50 minutes; running due in two hours
    // (neither); paused and met (neither).
    await makeTicket({ operator: adminId, type: 1, sla: sla('breached', null) });
    await makeTicket({ operator: adminId, type: 1, sla: sla('breached', HOUR / 2) });
    await makeTicket({ operator: adminId, type: 1, sla: sla('running', HOUR / 2) });
    await makeTicket({ operator: adminId, type: 4, sla: sla('warning', (HOUR * 5) / 6) });
    await makeTicket({ operator: adminId, type: 1, sla: sla('running', 2 * HOUR) });
    await makeTicket({ operator: adminId, type: 4, sla: sla('paused', null) });
    await makeTicket({ operator: adminId, type: 1, sla: sla('met', null) });
    // Nobody's: a target past its due the background pass has not marked yet counts as within the hour.
    await makeTicket({ operator: null, type: 5, sla: sla('running', -HOUR / 4) });
    // Closed: a breach stays a breach, but the ticket is no longer open.
    await makeTicket({ operator: firstLineId, type: 2, sla: sla('breached', null) });
    await makeTicket({ operator: adminId, type: 1, template: true, sla: sla('breached', HOUR / 2) });

    const after = figures(await dashboard(b.admin));
    const moved = (key: DashboardRowKey, count: DashboardCount) => after[key][count] - before[key][count];
    expect(moved('mine', 'sla_breached')).toBe(2);
    expect(moved('mine', 'sla_within_hour')).toBe(3);
    expect(moved('second_line', 'sla_breached')).toBe(2);
    expect(moved('unassigned', 'sla_breached')).toBe(0);
    expect(moved('unassigned', 'sla_within_hour')).toBe(1);
    expect(moved('first_line', 'sla_breached')).toBe(0);
    expect(moved('first_line', 'sla_within_hour')).toBe(0);
    expect(moved('mine', 'open')).toBe(7);
  });

  it('each figure is the total of the ticket list it opens', async () => {
    const answer = await dashboard(b.admin);
    const total = async (builder: object[]) => {
      const res = await t.app.inject({
        method: 'GET',
        url: `/api/tickets?${qs.stringify({ builder })}`,
        headers: b.admin,
      });
      expect(res.statusCode, res.body).toBe(200);
      return res.json().total as number;
    };
    const now = new Date().toISOString();
    const filterOf: Record<DashboardCount, object[]> = {
      open: [{ whereIn: ['status_id', answer.statuses.open] }],
      overdue: [{ whereIn: ['status_id', answer.statuses.open] }, { where: ['deadline', '<', now] }],
      due_today: [
        { whereIn: ['status_id', answer.statuses.open] },
        { whereBetween: ['deadline', [day.from, day.to]] },
      ],
      waiting: [{ whereIn: ['status_id', answer.statuses.waiting] }],
      got_reply: [{ whereIn: ['status_id', answer.statuses.got_reply] }],
      new_today: [{ whereBetween: ['created_at', [day.from, day.to]] }],
      sla_breached: [
        { whereIn: ['status_id', answer.statuses.open] },
        { whereIn: ['sla_state', ['breached']] },
      ],
      sla_within_hour: [
        { whereIn: ['status_id', answer.statuses.open] },
        { where: ['sla_due', '<=', new Date(Date.now() + HOUR).toISOString()] },
      ],
    };
    expect(answer.rows.map((r) => r.key)).toEqual([...DASHBOARD_ROWS]);
    expect(answer.rows[0]!.operator_ids).toEqual([adminId]);
    expect(answer.rows.find((r) => r.key === 'first_line')!.operator_ids).toContain(firstLineId);
    let nonZero = 0;
    for (const row of answer.rows) {
      const whose =
        row.operator_ids === null
          ? [{ whereNull: 'operator_id' }]
          : [{ whereIn: ['operator_id', row.operator_ids] }];
      for (const count of DASHBOARD_COUNTS) {
        expect(row.counts[count], `${row.key} ${count}`).toBe(await total([...whose, ...filterOf[count]]));
        if (row.counts[count] > 0) nonZero += 1;
      }
    }
    // Not a table of zeros agreeing with empty lists.
    expect(nonZero).toBeGreaterThan(10);
  });

  it('a first-line operator sees their own figures; clients and operators without the list get 403', async () => {
    const own = await dashboard(firstLine);
    expect(own.rows[0]).toMatchObject({ key: 'mine', operator_ids: [firstLineId] });
    expect(own.rows.find((r) => r.key === 'first_line')!.counts).toEqual(
      (await dashboard(b.admin)).rows.find((r) => r.key === 'first_line')!.counts,
    );
    for (const headers of [b.client, b.limited]) {
      const res = await t.app.inject({ method: 'GET', url: '/api/dashboard', headers });
      expect(res.statusCode, res.body).toBe(403);
    }
    const anonymous = await t.app.inject({ method: 'GET', url: '/api/dashboard' });
    expect(anonymous.statusCode).toBe(401);
  });

  it('a day that is not one answers 422 saying why; no day is the current UTC day', async () => {
    const bad = async (query: object, field: string) => {
      const res = await t.app.inject({
        method: 'GET',
        url: `/api/dashboard?${qs.stringify(query)}`,
        headers: b.admin,
      });
      expect(res.statusCode, res.body).toBe(422);
      expect(Object.keys(res.json().errors)).toEqual([field]);
    };
    await bad({ from: 'yesterday', to: day.to }, 'from');
    await bad({ from: day.from }, 'to');
    await bad({ from: day.to, to: day.from }, 'to');
    await bad({ from: '2026-01-01T00:00:00Z', to: '2026-01-05T00:00:00Z' }, 'to');
    const plain = await dashboard(b.admin, {});
    const start = new Date();
    start.setUTCHours(0, 0, 0, 0);
    expect(plain.today.from).toBe(start.toISOString());
    expect(new Date(plain.today.to).getTime() - start.getTime()).toBe(24 * HOUR - 1);
  });

  const bound = (name: string) => [
    `The ${name} must be a date and time in ISO 8601 (2026-11-24T00:00:00+01:00).`,
  ];
  const ONE_DAY = { to: ['From and to must be the start and end of one day.'] };
  it.each<[string, Record<string, string>, Record<string, string[]>]>([
    ['a from that is no date', { from: 'yesterday', to: '2026-11-24T23:59:59Z' }, { from: bound('from') }],
    ['a from without its to', { from: '2026-11-24T00:00:00Z' }, { to: bound('to') }],
    ['a to without its from', { to: '2026-11-24T00:00:00Z' }, { from: bound('from') }],
    ['neither a date', { from: 'x', to: 'y' }, { from: bound('from'), to: bound('to') }],
    ['a leap second', { from: '2026-11-24T00:00:00Z', to: '2026-11-24T23:59:60Z' }, { to: bound('to') }],
    ['a date without a time', { from: '2026-11-24', to: '2026-11-24T23:59:59Z' }, { from: bound('from') }],
    ['to before from', { from: '2026-11-24T00:00:00Z', to: '2026-11-23T23:00:00Z' }, ONE_DAY],
    ['more than a day', { from: '2026-11-24T00:00:00Z', to: '2026-11-28T00:00:00Z' }, ONE_DAY],
  ])('%s: the exact 422', async (_label, query, errors) => {
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/dashboard?${qs.stringify(query)}`,
      headers: b.admin,
    });
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json()).toEqual({ message: Object.values(errors)[0]![0], errors });
  });

  it('takes a day given without a zone, and one with an offset', async () => {
    for (const query of [
      { from: '2026-11-24T00:00:00', to: '2026-11-24T23:59:59' },
      { from: '2026-11-24T00:00:00+01:00', to: '2026-11-24T23:59:59.999+01:00' },
    ]) {
      const res = await t.app.inject({
        method: 'GET',
        url: `/api/dashboard?${qs.stringify(query)}`,
        headers: b.admin,
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().today.from).toBe(new Date(query.from).toISOString());
    }
  });
});
