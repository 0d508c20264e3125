/**
 * The service report's fixture (issue 36, item 1), shared by tests/api/reports-figures.test.ts and
 * tests/api/reports-breakdown.test.ts: tickets of one company with their moments and minutes set as the
 * clock would have stored them, over October and November 2026, all but the last asked by one client.
 * Every figure the tests expect is computed by hand from here.
 */
import type { LightMyRequestResponse } from 'fastify';
import qs from 'qs';
import { expect } from 'vitest';
import type { TestApp } from './harness.ts';
import { backOffice, type BackOffice } from './back-office.ts';
import { statusesByKind } from './sla-world.ts';

/** A moment on Amsterdam's wall clock in October or November 2026 (UTC+1). */
export const at = (local: string) => new Date(`${local}:00+01:00`);

export interface Fixture {
  created: string;
  answered?: [at: string, minutes: number, state: 'met' | 'breached'];
  /** Solved: when, minutes open, and the first response's state if it was never answered. */
  solved?: [at: string, minutes: number, state: 'met' | 'breached', unanswered?: 'met' | 'breached'];
  /** When it was opened again after an earlier solving. */
  reopened?: string[];
}

export const FIXTURES: Fixture[] = [
  {
    created: '2026-11-02T10:00',
    answered: ['2026-11-02T10:30', 30, 'met'],
    solved: ['2026-11-03T12:00', 300, 'met'],
  },
  {
    created: '2026-11-02T12:00',
    answered: ['2026-11-04T09:00', 600, 'breached'],
    solved: ['2026-11-10T16:00', 2000, 'breached'],
    reopened: ['2026-11-06T10:00', '2026-11-09T10:00'],
  },
  { created: '2026-11-10T09:00', answered: ['2026-11-10T09:10', 10, 'met'] },
  { created: '2026-11-20T09:00', solved: ['2026-11-21T09:00', 60, 'met', 'met'] },
  {
    created: '2026-10-30T09:00',
    answered: ['2026-10-30T09:45', 45, 'met'],
    solved: ['2026-11-05T09:00', 120, 'met'],
    reopened: ['2026-10-31T12:00'],
  },
  { created: '2026-11-25T09:00' },
];

export interface ReportWorld {
  b: BackOffice;
  companyId: number;
  clientId: number;
  /** The fixtures' tickets, in the order of FIXTURES. */
  ids: number[];
  /** GET /api/reports/tickets with this query, as the admin unless told. */
  report(query: Record<string, unknown>, headers?: Record<string, string>): Promise<LightMyRequestResponse>;
  /** The moments and minutes the clock would have stored (the trigger keeps the figures). */
  setTimes(id: number, f: Fixture): Promise<void>;
}

export async function reportWorld(t: TestApp): Promise<ReportWorld> {
  const b = await backOffice(t, []);
  const status = await statusesByKind(t, b.tenantId);
  const report = (query: Record<string, unknown>, headers = b.admin) =>
    t.app.inject({ method: 'GET', url: `/api/reports/tickets?${qs.stringify(query)}`, headers });
  async function setTimes(id: number, f: Fixture) {
    await t.db
      .updateTable('tickets')
      .set({
        created_at: at(f.created),
        first_response_at: f.answered ? at(f.answered[0]) : null,
        first_response_minutes: f.answered?.[1] ?? null,
        first_response_state: f.answered?.[2] ?? f.solved?.[3] ?? 'running',
        resolved_at: f.solved ? at(f.solved[0]) : null,
        resolution_minutes: f.solved?.[1] ?? null,
        resolution_state: f.solved?.[2] ?? 'running',
        reopened_at: (f.reopened ?? []).map(at),
      })
      .where('id', '=', id)
      .execute();
  }
  const company = await t.app.inject({
    method: 'POST',
    url: '/api/companies',
    headers: b.admin,
    payload: { name: 'Report BV' },
  });
  const companyId = company.json().id;
  const client = await t.app.inject({
    method: 'POST',
    url: '/api/clients',
    headers: b.admin,
    payload: { first_name: 'Rita', last_name: 'Reported' },
  });
  expect(client.statusCode, client.body).toBe(201);
  const clientId = client.json().id;
  const ids = [];
  for (const f of FIXTURES) {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/tickets',
      headers: b.admin,
      // All but the last asked by the client: the client filter reads the tickets, not the daily figures.
      payload: {
        description: 'Reported',
        status_id: status.open,
        company_id: companyId,
        client_id: f === FIXTURES.at(-1) ? null : clientId,
      },
    });
    expect(res.statusCode, res.body).toBe(201);
    const id = res.json().id as number;
    ids.push(id);
    await setTimes(id, f);
  }
  return { b, companyId, clientId, ids, report, setTimes };
}
