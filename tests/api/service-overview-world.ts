/**
 * The service overview's fixture (issue 36, item 3), shared by its API and mail tests: on the demo
 * tenant, a client of two companies of their own (A and B) and an outsider company (O) that is not
 * theirs, tickets of October and November 2026 with their moments, minutes, SLA outcomes, SLA and
 * priority set as the clock would have stored them, two SLAs (one with a target row for the first
 * priority, one the outsider's), and contracts: A's monthly contract (this month's period and last
 * month's), B's prepaid card, O's contract. Every figure the tests expect is computed by hand from here.
 */
import { sql } from 'kysely';
import { DateTime } from 'luxon';
import { expect } from 'vitest';
import type { TestApp } from './harness.ts';
import { statusesByKind } from './sla-world.ts';

/** A moment on Amsterdam's wall clock in October or November 2026 (UTC+1). */
const at = (local: string) => new Date(`${local}:00+01:00`);

type State = 'met' | 'breached' | null;

interface Fixture {
  company: 'A' | 'B' | 'O';
  created: string;
  answered?: [at: string, minutes: number, state: State];
  solved?: [at: string, minutes: number, state: State];
  priority: 'P1' | 'P2' | null;
  sla: 'S' | 'S2' | null;
}

export const FIXTURES: Fixture[] = [
  {
    company: 'A',
    created: '2026-10-05T10:00',
    answered: ['2026-10-05T10:30', 30, 'met'],
    solved: ['2026-10-06T12:00', 300, 'met'],
    priority: 'P1',
    sla: 'S',
  },
  {
    company: 'A',
    created: '2026-11-02T09:00',
    answered: ['2026-11-03T09:00', 600, 'breached'],
    solved: ['2026-11-10T16:00', 2000, 'breached'],
    priority: 'P2',
    sla: 'S',
  },
  {
    company: 'B',
    created: '2026-11-10T09:00',
    answered: ['2026-11-10T09:10', 10, 'met'],
    priority: 'P1',
    sla: 'S',
  },
  // No SLA: counted and timed, but no outcome.
  {
    company: 'B',
    created: '2026-11-20T09:00',
    solved: ['2026-11-21T09:00', 60, null],
    priority: null,
    sla: null,
  },
  {
    company: 'O',
    created: '2026-11-05T09:00',
    answered: ['2026-11-05T09:05', 5, 'met'],
    solved: ['2026-11-05T10:00', 50, 'met'],
    priority: 'P1',
    sla: 'S2',
  },
];

export interface OverviewWorld {
  tenantId: number;
  admin: Record<string, string>;
  companies: Record<'A' | 'B' | 'O', number>;
  priorities: Record<'P1' | 'P2', { id: number; label: string }>;
  /** The client of A and B (the demo client role, which holds the permission). */
  clientId: number;
  clientEmail: string;
  /** This month's first and last day in the desk's zone, and last month's. */
  thisMonth: { from: string; to: string };
  lastMonth: { from: string; to: string };
}

/** A client like the demo's client@example.com (password 'demo'), of these companies. */
export async function newClient(
  t: TestApp,
  tenantId: number,
  email: string,
  companyIds: number[],
  roleId?: number,
): Promise<number> {
  const row = await t.db
    .insertInto('users')
    .columns([
      'tenant_id',
      'first_name',
      'last_name',
      'password_hash',
      'is_operator',
      'is_staff',
      'email',
      'role_id',
    ])
    .expression((eb) =>
      eb
        .selectFrom('users')
        .select([
          'tenant_id',
          'first_name',
          'last_name',
          'password_hash',
          'is_operator',
          'is_staff',
          sql<string>`${email}`.as('email'),
          roleId === undefined ? 'role_id' : sql<number>`${roleId}`.as('role_id'),
        ])
        .where('email', '=', 'client@example.com'),
    )
    .returning('id')
    .executeTakeFirstOrThrow();
  // A company admin (issue 39): the overview shows the figures of every ticket of the company.
  const admin = await t.db
    .selectFrom('company_roles')
    .select('id')
    .where('tenant_id', '=', tenantId)
    .where('grants_all', '=', true)
    .executeTakeFirstOrThrow();
  for (const company_id of companyIds)
    await t.db
      .insertInto('company_user')
      .values({ tenant_id: tenantId, user_id: row.id, company_id, company_role_id: admin.id })
      .execute();
  return Number(row.id);
}

export async function overviewWorld(t: TestApp): Promise<OverviewWorld> {
  const tenantId = Number(
    (await t.db.selectFrom('tenants').select('id').where('slug', '=', 'acme').executeTakeFirstOrThrow()).id,
  );
  const admin = await t.as('admin@example.com');
  const companies = {} as Record<'A' | 'B' | 'O', number>;
  for (const [key, name] of [
    ['A', 'Alfa Overzicht BV'],
    ['B', 'Beta Overzicht BV'],
    ['O', 'Omega Buitenstaander BV'],
  ] as const) {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/companies',
      headers: admin,
      payload: { name },
    });
    expect(res.statusCode, res.body).toBe(201);
    companies[key] = res.json().id;
  }
  const [p1, p2] = await t.db
    .selectFrom('priorities')
    .select(['id', 'label'])
    .where('tenant_id', '=', tenantId)
    .orderBy('order')
    .orderBy('id')
    .limit(2)
    .execute();
  const priorities = {
    P1: { id: Number(p1!.id), label: p1!.label },
    P2: { id: Number(p2!.id), label: p2!.label },
  };
  const sla = async (name: string, response: number, resolution: number) =>
    Number(
      (
        await t.db
          .insertInto('slas')
          .values({ tenant_id: tenantId, name, response_time: response, resolution_time: resolution })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id,
    );
  const slas = { S: await sla('Overzicht-SLA', 60, 480), S2: await sla('Buitenstaander-SLA', 5, 20) };
  // The first priority has a row of its own under S; the second has S's own times.
  await t.db
    .insertInto('sla_targets')
    .values({
      tenant_id: tenantId,
      sla_id: slas.S,
      priority_id: priorities.P1.id,
      response_time: 30,
      resolution_time: 240,
    })
    .execute();
  await t.db
    .insertInto('sla_targets')
    .values({
      tenant_id: tenantId,
      sla_id: slas.S2,
      priority_id: priorities.P1.id,
      response_time: 5,
      resolution_time: 20,
    })
    .execute();

  const status = await statusesByKind(t, tenantId);
  for (const f of FIXTURES) {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/tickets',
      headers: admin,
      payload: { description: 'Overzicht', status_id: status.open, company_id: companies[f.company] },
    });
    expect(res.statusCode, res.body).toBe(201);
    await t.db
      .updateTable('tickets')
      .set({
        created_at: at(f.created),
        first_response_at: f.answered ? at(f.answered[0]) : null,
        first_response_minutes: f.answered?.[1] ?? null,
        first_response_state: f.answered ? f.answered[2] : null,
        resolved_at: f.solved ? at(f.solved[0]) : null,
        resolution_minutes: f.solved?.[1] ?? null,
        resolution_state: f.solved ? f.solved[2] : null,
        reopened_at: [],
        priority_id: f.priority ? priorities[f.priority].id : null,
        applied_sla_id: f.sla ? slas[f.sla] : null,
      })
      .where('id', '=', res.json().id)
      .execute();
  }

  const month = DateTime.now().setZone('Europe/Amsterdam').startOf('month');
  const thisMonth = { from: month.toISODate()!, to: month.endOf('month').toISODate()! };
  const last = month.minus({ months: 1 });
  const lastMonth = { from: last.toISODate()!, to: last.endOf('month').toISODate()! };
  const contract = async (name: string, period: string, company: number) => {
    const row = await t.db
      .insertInto('contracts')
      .values({ tenant_id: tenantId, name, period, start_date: '2026-01-01' })
      .returning('id')
      .executeTakeFirstOrThrow();
    await t.db.insertInto('company_contract').values({ contract_id: row.id, company_id: company }).execute();
    return Number(row.id);
  };
  const periodOf = async (
    contract_id: number,
    period_start: string,
    period_end: string | null,
    [minutes_total, registered_time]: [number, number],
  ) =>
    t.db
      .insertInto('contract_periods')
      .values({
        tenant_id: tenantId,
        contract_id,
        period_start,
        period_end,
        minutes_total,
        registered_time,
        minutes_remaining: minutes_total - registered_time,
      })
      .execute();
  const beheer = await contract('Beheer Alfa', 'month', companies.A);
  await periodOf(beheer, lastMonth.from, lastMonth.to, [600, 540]);
  await periodOf(beheer, thisMonth.from, thisMonth.to, [600, 180]);
  await periodOf(await contract('Strippenkaart Beta', 'none', companies.B), '2026-01-01', null, [1200, 300]);
  const omega = await contract('Beheer Omega', 'month', companies.O);
  await periodOf(omega, thisMonth.from, thisMonth.to, [900, 60]);

  const clientEmail = 'overzicht@example.com';
  const clientId = await newClient(t, tenantId, clientEmail, [companies.A, companies.B]);
  return { tenantId, admin, companies, priorities, clientId, clientEmail, thisMonth, lastMonth };
}
