/**
 * The reports' daily figures (issue 36, migration 0035, and the whole desk's of 0040): kept by triggers, they equal a
 * recomputation from the tickets after whatever the desk does through its real write paths: tickets
 * created, answered, solved, reopened, moved to another operator or company, merged and deleted.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSecondInstance, buildTestApp, targets, type TestApp } from './harness.ts';
import { backOffice, type BackOffice } from './back-office.ts';
import { statusesByKind } from './sla-world.ts';
import {
  deskDays,
  recomputedReportDays,
  storedDeskDays,
  storedReportDays,
} from '../../server/reports/recompute.ts';
import { settleDeskDays } from '../../server/reports/desk-days.ts';
import { tenantToday } from '../../server/sla/stored-clock.ts';
import { summaryTablesDown, summaryTablesUp } from '../../server/db/summary-tables.ts';

type Write =
  | { kind: 'create'; company: number; priority: number }
  | { kind: 'answer'; ticket: number }
  | { kind: 'solve'; ticket: number }
  | { kind: 'reopen'; ticket: number }
  | { kind: 'operator'; ticket: number; operator: number }
  | { kind: 'company'; ticket: number; company: number }
  | { kind: 'merge'; ticket: number; other: number }
  | { kind: 'delete'; ticket: number };

describe.each(targets)('the reports’ daily figures on $name', (target) => {
  let t: TestApp;
  let b: BackOffice;
  let status: { open: number; closed: number; waiting: number };
  let companies: number[];
  let operators: number[];
  let priorities: number[];

  const api = (method: 'POST' | 'PUT' | 'DELETE', url: string, payload?: Record<string, unknown>) =>
    t.app.inject({ method, url, headers: b.admin, payload });

  /** The keyed figures equal a recomputation, and the whole desk's (migration 0040) their sum per day. */
  const expectExact = async () => {
    const recomputed = await recomputedReportDays(t.db, b.tenantId);
    expect(await storedReportDays(t.db, b.tenantId)).toEqual(recomputed);
    expect(await storedDeskDays(t.db, b.tenantId)).toEqual(deskDays(recomputed));
  };

  const unsettledDays = async () =>
    Number(
      (
        await t.db
          .selectFrom('ticket_report_desk_days')
          .select((e) => e.fn.countAll<number>().as('n'))
          .where('tenant_id', '=', b.tenantId)
          .where('settled', '=', false)
          .executeTakeFirstOrThrow()
      ).n,
    );

  beforeAll(async () => {
    t = await buildTestApp(target, { config: { deadlineCheckMs: 0 } });
    b = await backOffice(t, []);
    status = await statusesByKind(t, b.tenantId);
    const ids = (table: 'companies' | 'priorities') =>
      t.db
        .selectFrom(table)
        .select('id')
        .where('tenant_id', '=', b.tenantId)
        .orderBy('id')
        .limit(3)
        .execute();
    companies = (await ids('companies')).map((r) => r.id);
    priorities = (await ids('priorities')).map((r) => r.id);
    operators = (
      await t.db
        .selectFrom('users')
        .select('id')
        .where('tenant_id', '=', b.tenantId)
        .where('email', 'in', ['admin@example.com', 'operator@example.com'])
        .execute()
    ).map((r) => r.id);
  });
  afterAll(() => t?.close());

  it('start equal to the tickets the migration found', async () => {
    await expectExact();
  });

  it('count a ticket on the days it was created, answered, solved and reopened, under its current keys', async () => {
    const res = await api('POST', '/api/tickets', {
      description: 'Counted',
      status_id: status.open,
      company_id: companies[0],
      priority_id: priorities[0],
    });
    expect(res.statusCode, res.body).toBe(201);
    const id = res.json().id as number;
    const today = tenantToday(Date.now());
    const mine = async () =>
      (await storedReportDays(t.db, b.tenantId)).filter(
        (d) => d.day === today && d.company_id === companies[0] && d.priority_id === priorities[0],
      );
    const before = (await mine()).reduce((n, d) => n + d.created, 0);
    expect(before).toBeGreaterThanOrEqual(1);
    const answered = await api('POST', '/api/messages', {
      morphable_type: 'ticket',
      morphable_id: id,
      message: '<p>On it.</p>',
      visible_to_client: true,
    });
    expect(answered.statusCode, answered.body).toBe(201);
    expect((await api('PUT', `/api/tickets/${id}`, { status_id: status.closed })).statusCode).toBe(200);
    const row = await t.db
      .selectFrom('tickets')
      .select(['first_response_minutes', 'resolution_minutes', 'first_response_at'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row.first_response_at).not.toBeNull();
    expect(row.resolution_minutes).not.toBeNull();
    await expectExact();
    // Reopened today: one reopening on the day, under the same keys.
    const reopenedBefore = (await mine()).reduce((n, d) => n + d.reopened, 0);
    expect((await api('PUT', `/api/tickets/${id}`, { status_id: status.open })).statusCode).toBe(200);
    expect((await mine()).reduce((n, d) => n + d.reopened, 0)).toBe(reopenedBefore + 1);
    await expectExact();
    // Moved to another company, its days go with it.
    const moved = await api('PUT', `/api/tickets/${id}`, { company_id: companies[1] });
    expect(moved.statusCode, moved.body).toBe(200);
    expect((await mine()).reduce((n, d) => n + d.created, 0)).toBe(before - 1);
    expect((await mine()).reduce((n, d) => n + d.reopened, 0)).toBe(reopenedBefore);
    await expectExact();
  });

  it('stay equal to a recomputation after random writes through the API', async () => {
    const tickets: number[] = [];
    const done = new Map<Write['kind'], number>();
    const pick = (i: number) => tickets[i % tickets.length];
    const write = fc.oneof(
      fc.record({
        kind: fc.constant('create' as const),
        company: fc.nat(2),
        priority: fc.nat(2),
      }),
      ...(['answer', 'solve', 'reopen', 'delete'] as const).map((kind) =>
        fc.record({ kind: fc.constant(kind), ticket: fc.nat(50) }),
      ),
      fc.record({ kind: fc.constant('operator' as const), ticket: fc.nat(50), operator: fc.nat(1) }),
      fc.record({ kind: fc.constant('company' as const), ticket: fc.nat(50), company: fc.nat(2) }),
      fc.record({ kind: fc.constant('merge' as const), ticket: fc.nat(50), other: fc.nat(50) }),
    );
    const apply = async (w: Write) => {
      if (w.kind === 'create') {
        const res = await api('POST', '/api/tickets', {
          description: 'Random',
          status_id: status.open,
          company_id: companies[w.company],
          priority_id: priorities[w.priority],
        });
        expect(res.statusCode, res.body).toBe(201);
        tickets.push(res.json().id);
        done.set('create', (done.get('create') ?? 0) + 1);
        return;
      }
      const id = pick(w.ticket);
      if (id === undefined) return;
      // A write may be refused (a merged ticket is gone, a merge across companies): what was done counts.
      const res = await call(w, id);
      if (res && res.statusCode < 300) done.set(w.kind, (done.get(w.kind) ?? 0) + 1);
    };
    const call = async (w: Exclude<Write, { kind: 'create' }>, id: number) => {
      if (w.kind === 'answer')
        return api('POST', '/api/messages', {
          morphable_type: 'ticket',
          morphable_id: id,
          message: '<p>Answer</p>',
          visible_to_client: true,
        });
      if (w.kind === 'solve') await api('PUT', `/api/tickets/${id}`, { status_id: status.closed });
      if (w.kind === 'reopen') await api('PUT', `/api/tickets/${id}`, { status_id: status.open });
      if (w.kind === 'operator')
        await api('PUT', `/api/tickets/${id}`, { operator_id: operators[w.operator] });
      if (w.kind === 'company') await api('PUT', `/api/tickets/${id}`, { company_id: companies[w.company] });
      if (w.kind === 'merge') {
        const other = pick(w.other);
        if (other !== undefined && other !== id)
          await api('POST', '/api/tickets/merge', { ids: [id, other] });
      }
      if (w.kind === 'delete') await api('DELETE', `/api/tickets/${id}`);
    };
    await fc.assert(
      fc.asyncProperty(fc.array(write, { minLength: 5, maxLength: 25 }), async (writes) => {
        for (const w of writes) await apply(w);
        await expectExact();
        // Settled, the whole desk's days are one row each, and as exact.
        await settleDeskDays(t.db);
        expect(await unsettledDays()).toBe(0);
        await expectExact();
      }),
      { numRuns: 4 },
    );
    // The writes did reach every kind of figure.
    const days = await storedReportDays(t.db, b.tenantId);
    for (const measure of ['created', 'responded', 'solved', 'resolution_timed', 'reopened'] as const)
      expect(
        days.some((d) => d[measure] > 0),
        measure,
      ).toBe(true);
  });

  it.runIf(target.name === 'postgres')(
    'stay exact when two instances settle the whole desk’s days while tickets are written',
    async () => {
      const second = await buildSecondInstance(t);
      try {
        const writes = Array.from({ length: 12 }, (_, i) =>
          api('POST', '/api/tickets', {
            description: `Settled while written ${i}`,
            status_id: i % 3 === 0 ? status.closed : status.open,
            company_id: companies[i % 3],
            priority_id: priorities[0],
          }),
        );
        const settles = Array.from({ length: 6 }, (_, i) => settleDeskDays((i % 2 ? second : t).db));
        const answers = await Promise.all(writes);
        expect(answers.map((r) => r.statusCode)).toEqual(answers.map(() => 201));
        await Promise.all(settles);
        await expectExact();
        await Promise.all([settleDeskDays(t.db), settleDeskDays(second.db)]);
        expect(await unsettledDays()).toBe(0);
        await expectExact();
      } finally {
        await second.close();
      }
    },
  );

  it('are filled again exactly when the summary tables are put up after a bulk insert', async () => {
    expect((await storedReportDays(t.db, b.tenantId)).some((d) => d.reopened > 0)).toBe(true);
    await summaryTablesDown(t.db);
    await summaryTablesUp(t.db);
    await expectExact();
  });
});
