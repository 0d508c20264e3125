/**
 * The time report's daily figures (issue 36, migration 0038): kept by triggers on time registrations
 * and tickets, they equal a recomputation from the registrations after whatever the desk does through
 * its real write paths: time registered, edited (time, day, ticket, contract period, activity, operator)
 * and deleted; tickets moved to another company (or none), merged and deleted. The report's figures per
 * key, which read billable, the contract and a contract's company at query time, equal a recomputation
 * too, also after an activity's billable flag or a contract's companies change. And a tenant deleted
 * takes its figures with it.
 */
import fc from 'fast-check';
import qs from 'qs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, targets, type TestApp } from './harness.ts';
import { backOffice, type BackOffice } from './back-office.ts';
import { statusesByKind } from './sla-world.ts';
import {
  recomputedTimeByKey,
  recomputedTimeDays,
  storedTimeDays,
} from '../../server/reports/time-recompute.ts';
import { TIME_KEYS, TIME_MEASURES } from '../../common/time-report.ts';

/** Registrations fall from 24 to 27 October 2026 (UTC): across Amsterdam's midnights and its DST change. */
const FIRST_DAY = Date.UTC(2026, 9, 24);
const RANGE = { from: '2026-10-20', to: '2026-10-31' };

type Registration = {
  ticket: number | null;
  operator: number;
  activity: number;
  period: number;
  minutes: number;
  at: number;
};
/** Every kind of write, in an order where each has something to work on (three tickets exist). */
const EVERY_PATH: Write[] = [
  { kind: 'register', ticket: 0, operator: 0, activity: 1, period: 1, minutes: 50, at: 100 },
  { kind: 'register', ticket: null, operator: 1, activity: 2, period: 3, minutes: 20, at: 1500 },
  { kind: 'register', ticket: 1, operator: 0, activity: 0, period: 0, minutes: 5, at: 23 * 60 + 30 },
  { kind: 'edit', registration: 0, changes: { ticket: 1, minutes: 61, at: 2000, period: 2 } },
  { kind: 'company', ticket: 1, company: 3 },
  { kind: 'company', ticket: 1, company: 0 },
  { kind: 'share', company: 2 },
  { kind: 'billable', activity: 1 },
  { kind: 'unregister', registration: 2 },
  { kind: 'ticket', company: 0 },
  { kind: 'register', ticket: 3, operator: 1, activity: 1, period: 1, minutes: 30, at: 3000 },
  { kind: 'merge', ticket: 0, other: 3 },
  { kind: 'delete ticket', ticket: 0 },
  { kind: 'share', company: 2 },
];
const KINDS = [...new Set(EVERY_PATH.map((w) => w.kind))];

type Write =
  | ({ kind: 'register' } & Registration)
  | { kind: 'edit'; registration: number; changes: Partial<Registration> }
  | { kind: 'unregister'; registration: number }
  | { kind: 'ticket'; company: number }
  | { kind: 'company'; ticket: number; company: number }
  | { kind: 'merge'; ticket: number; other: number }
  | { kind: 'delete ticket'; ticket: number }
  | { kind: 'billable'; activity: number }
  | { kind: 'share'; company: number };

describe.each(targets)('the time report’s daily figures on $name', (target) => {
  let t: TestApp;
  let b: BackOffice;
  let openStatus: number;
  let companies: number[];
  let operators: number[];
  /** Two activities of the test's own (billable, not) and none. */
  let activities: (number | null)[];
  /** No period, two of a contract of the first company, a prepaid card of the second. */
  let periods: (number | null)[];
  let card: number;
  const tickets: number[] = [];
  const registrations: number[] = [];

  const api = (method: 'POST' | 'PUT' | 'DELETE', url: string, payload?: Record<string, unknown>) =>
    t.app.inject({ method, url, headers: b.admin, payload });

  const expectExact = async () => {
    expect(await storedTimeDays(t.db, b.tenantId)).toEqual(await recomputedTimeDays(t.db, b.tenantId));
    for (const by of TIME_KEYS) {
      const res = await t.app.inject({
        method: 'GET',
        url: `/api/reports/time/breakdown?${qs.stringify({ ...RANGE, by })}`,
        headers: b.admin,
      });
      expect(res.statusCode, res.body).toBe(200);
      const reported = (res.json().rows as Record<string, number | null>[]).map((r) => [
        r.key,
        TIME_MEASURES.map((m) => r[m]),
      ]);
      const recomputed = [...(await recomputedTimeByKey(t.db, b.tenantId, by, RANGE.from, RANGE.to))]
        .map(([key, figures]) => [key, TIME_MEASURES.map((m) => figures[m])])
        .filter(([, figures]) => (figures as number[]).some((n) => n !== 0));
      const order = (rows: unknown[][]) => [...rows].sort((x, y) => String(x[0]).localeCompare(String(y[0])));
      expect(order(reported), by).toEqual(order(recomputed));
    }
  };

  const pick = <T>(list: T[], i: number): T | undefined => list[i % list.length];

  const body = (r: Partial<Registration>) => ({
    ...(r.ticket !== undefined && {
      ticket_id: r.ticket === null ? null : (pick(tickets, r.ticket) ?? null),
    }),
    ...(r.operator !== undefined && { operator_id: operators[r.operator] }),
    ...(r.activity !== undefined && { activity_id: activities[r.activity] }),
    ...(r.period !== undefined && { contract_period_id: periods[r.period] }),
    ...(r.minutes !== undefined && { time_spent: r.minutes }),
    ...(r.at !== undefined && { executed_at: new Date(FIRST_DAY + r.at * 60_000).toISOString() }),
  });

  beforeAll(async () => {
    t = await buildTestApp(target, { config: { deadlineCheckMs: 0 } });
    b = await backOffice(t, []);
    openStatus = (await statusesByKind(t, b.tenantId)).open;
    companies = [];
    for (const name of ['Eerste BV', 'Tweede BV', 'Derde BV']) {
      const res = await api('POST', '/api/companies', { name });
      companies.push(res.json().id);
    }
    operators = (
      await t.db
        .selectFrom('users')
        .select('id')
        .where('tenant_id', '=', b.tenantId)
        .where('email', 'in', ['admin@example.com', 'operator@example.com'])
        .execute()
    ).map((r) => Number(r.id));
    activities = [null];
    for (const [name, is_billable] of [
      ['Werk', true],
      ['Reistijd', false],
    ] as const) {
      const row = await t.db
        .insertInto('activities')
        .values({ tenant_id: b.tenantId, name, is_billable })
        .returning('id')
        .executeTakeFirstOrThrow();
      activities.push(Number(row.id));
    }
    const contract = async (company: number, period: string) => {
      const row = await t.db
        .insertInto('contracts')
        .values({ tenant_id: b.tenantId, name: `Contract ${period}`, period, start_date: '2026-10-01' })
        .returning('id')
        .executeTakeFirstOrThrow();
      await t.db
        .insertInto('company_contract')
        .values({ company_id: company, contract_id: row.id })
        .execute();
      return Number(row.id);
    };
    const period = async (contractId: number, start: string) =>
      Number(
        (
          await t.db
            .insertInto('contract_periods')
            .values({
              tenant_id: b.tenantId,
              contract_id: contractId,
              period_start: start,
              minutes_total: 600,
            })
            .returning('id')
            .executeTakeFirstOrThrow()
        ).id,
      );
    const monthly = await contract(companies[0]!, 'month');
    card = await contract(companies[1]!, 'none');
    periods = [
      null,
      await period(monthly, '2026-10-01'),
      await period(monthly, '2026-11-01'),
      await period(card, '2026-10-01'),
    ];
    // A ticket of each company for the first writes to work on.
    for (const company of companies) {
      const res = await api('POST', '/api/tickets', {
        description: 'Werk',
        status_id: openStatus,
        company_id: company,
      });
      tickets.push(res.json().id);
    }
  });
  afterAll(() => t?.close());

  it('start equal to the registrations the migration found', async () => {
    await expectExact();
  });

  it('stay equal to a recomputation after random writes through the API', async () => {
    const done = new Map<Write['kind'], number>();
    const index = fc.nat(30);
    const registration = {
      ticket: fc.option(index, { nil: null, freq: 4 }),
      operator: fc.nat(1),
      activity: fc.nat(2),
      period: fc.nat(3),
      minutes: fc.nat(200),
      at: fc.nat(4 * 24 * 60 - 1),
    };
    const write: fc.Arbitrary<Write> = fc.oneof(
      { arbitrary: fc.record({ kind: fc.constant('register' as const), ...registration }), weight: 4 },
      {
        arbitrary: fc.record({
          kind: fc.constant('edit' as const),
          registration: index,
          changes: fc.record(registration, { requiredKeys: [] }),
        }),
        weight: 3,
      },
      { arbitrary: fc.record({ kind: fc.constant('unregister' as const), registration: index }), weight: 2 },
      fc.record({ kind: fc.constant('ticket' as const), company: fc.nat(2) }),
      // Company 3: none.
      fc.record({ kind: fc.constant('company' as const), ticket: index, company: fc.nat(3) }),
      fc.record({ kind: fc.constant('merge' as const), ticket: index, other: index }),
      fc.record({ kind: fc.constant('delete ticket' as const), ticket: index }),
      fc.record({ kind: fc.constant('billable' as const), activity: fc.integer({ min: 1, max: 2 }) }),
      fc.record({ kind: fc.constant('share' as const), company: fc.nat(2) }),
    );
    const apply = async (w: Write): Promise<boolean> => {
      switch (w.kind) {
        case 'register': {
          const res = await api('POST', '/api/time-registrations', { description: 'Random', ...body(w) });
          expect(res.statusCode, res.body).toBe(201);
          registrations.push(res.json().id);
          return true;
        }
        case 'edit': {
          const id = pick(registrations, w.registration);
          if (id === undefined || Object.keys(w.changes).length === 0) return false;
          const res = await api('PUT', `/api/time-registrations/${id}`, body(w.changes));
          expect(res.statusCode, res.body).toBe(200);
          return true;
        }
        case 'unregister': {
          const id = pick(registrations, w.registration);
          if (id === undefined) return false;
          expect((await api('DELETE', `/api/time-registrations/${id}`)).statusCode).toBe(200);
          registrations.splice(registrations.indexOf(id), 1);
          return true;
        }
        case 'ticket': {
          const res = await api('POST', '/api/tickets', {
            description: 'Random',
            status_id: openStatus,
            company_id: companies[w.company],
          });
          expect(res.statusCode, res.body).toBe(201);
          tickets.push(res.json().id);
          return true;
        }
        case 'company': {
          const id = pick(tickets, w.ticket);
          if (id === undefined) return false;
          const res = await api('PUT', `/api/tickets/${id}`, { company_id: companies[w.company] ?? null });
          expect(res.statusCode, res.body).toBe(200);
          return true;
        }
        case 'merge': {
          const [id, other] = [pick(tickets, w.ticket), pick(tickets, w.other)];
          if (id === undefined || other === undefined || id === other) return false;
          // Refused across companies: what was done counts.
          return (await api('POST', '/api/tickets/merge', { ids: [id, other] })).statusCode < 300;
        }
        case 'delete ticket': {
          const id = pick(tickets, w.ticket);
          if (id === undefined) return false;
          expect((await api('DELETE', `/api/tickets/${id}`)).statusCode).toBe(200);
          tickets.splice(tickets.indexOf(id), 1);
          return true;
        }
        case 'billable': {
          // Read at query time: no trigger involved, the report follows.
          await t.db
            .updateTable('activities')
            .set((eb) => ({ is_billable: eb.not('is_billable') }))
            .where('id', '=', activities[w.activity]!)
            .execute();
          return true;
        }
        case 'share': {
          // The card gains or loses a company: with two, the time without a ticket on it has none.
          const link = { company_id: companies[w.company]!, contract_id: card };
          const removed = await t.db
            .deleteFrom('company_contract')
            .where('company_id', '=', link.company_id)
            .where('contract_id', '=', link.contract_id)
            .executeTakeFirst();
          if (Number(removed.numDeletedRows) === 0)
            await t.db.insertInto('company_contract').values(link).execute();
          return true;
        }
      }
    };
    await fc.assert(
      fc.asyncProperty(fc.array(write, { minLength: 10, maxLength: 30 }), async (writes) => {
        for (const w of writes) if (await apply(w)) done.set(w.kind, (done.get(w.kind) ?? 0) + 1);
        await expectExact();
      }),
      // First one that takes every path (on the tickets made before), then random ones.
      { numRuns: 5, examples: [[EVERY_PATH]] },
    );
    for (const kind of KINDS) expect(done.get(kind) ?? 0, kind).toBeGreaterThan(0);
  });

  it('go with a deleted tenant', async () => {
    // Without a ticket: a tenant's tickets cannot be deleted with it today, since 0035's trigger may
    // write ticket_report_days after the cascade emptied it (its foreign key then refuses).
    const other = b.otherTenantId;
    await t.db
      .insertInto('time_registrations')
      .values({ tenant_id: other, time_spent: 30, executed_at: new Date() })
      .execute();
    expect(await storedTimeDays(t.db, other)).toHaveLength(1);
    await t.db.deleteFrom('tenants').where('id', '=', other).execute();
    expect(await storedTimeDays(t.db, other)).toEqual([]);
    await expectExact();
  });
});
