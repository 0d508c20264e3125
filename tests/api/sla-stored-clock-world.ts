/**
 * Set-up shared by the tests of the SLA clock kept on the ticket (issue 35, item 3;
 * tests/api/sla-stored-clock-writes.test.ts and sla-stored-clock-pass.test.ts): the demo tenant without its
 * own SLAs, an SLA of 60 and 480 minutes, tickets under it, their stored clock columns and the check that
 * they equal a full recompute, and the warnings a ticket's operators were sent.
 */
import { expect } from 'vitest';
import type { TestApp } from './harness.ts';
import { backOffice, type BackOffice } from './back-office.ts';
import { statusesByKind, withoutDemoSlas } from './sla-world.ts';
import { ticketClock } from '../../server/sla/ticket-clock.ts';
import { storedTicketClock, tenantToday } from '../../server/sla/stored-clock.ts';

export const MIN = 60_000;
const STORED = [
  'applied_sla_id',
  'applied_sla_source',
  'first_response_due',
  'first_response_state',
  'next_response_due',
  'next_response_state',
  'resolution_due',
  'resolution_state',
  'sla_state',
  'sla_due',
  'sla_recheck_at',
  'first_response_at',
  'first_response_minutes',
  'resolution_minutes',
  'reopened_at',
] as const;

export type StoredClockWorld = Awaited<ReturnType<typeof storedClockWorld>>;

export async function storedClockWorld(t: TestApp) {
  const b: BackOffice = await backOffice(t, []);

  const api = (method: 'POST' | 'PUT', url: string, payload: Record<string, unknown>) =>
    t.app.inject({ method, url, headers: b.admin, payload });

  const stored = (id: number) =>
    t.db
      .selectFrom('tickets')
      .select(['created_at', ...STORED])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();

  /** The stored columns equal a full recompute from the history at the moment they were read. */
  async function expectRecomputed(id: number) {
    const now = Date.now();
    const row = await stored(id);
    const measured = (await ticketClock(t.db, b.tenantId, id, now, tenantToday(now)))!;
    const { created_at: _, ...columns } = row;
    expect(columns).toEqual(storedTicketClock(measured));
  }

  async function ticket(fields: Record<string, unknown> = {}): Promise<number> {
    const res = await api('POST', '/api/tickets', {
      description: 'Stored clock',
      status_id: status.open,
      sla_id: slaId,
      operator_id: adminId,
      ...fields,
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().id;
  }

  /** Moves the ticket's start `minutes` back and marks it, as time passing and the pass's look would. */
  async function age(id: number, minutes: number) {
    const row = await stored(id);
    await t.db
      .updateTable('tickets')
      .set({ created_at: new Date(row.created_at.getTime() - minutes * MIN), sla_recheck_at: new Date(0) })
      .where('id', '=', id)
      .execute();
  }

  const alerts = (id: number) =>
    t.db
      .selectFrom('notifications')
      .select(['kind', 'user_id', 'dedupe_key'])
      .where('ticket_id', '=', id)
      .where('kind', 'in', ['sla_warning', 'sla_breached'])
      .orderBy('id')
      .execute();

  await withoutDemoSlas(t, b.tenantId);
  const adminId = (
    await t.db
      .selectFrom('users')
      .select('id')
      .where('email', '=', 'admin@example.com')
      .executeTakeFirstOrThrow()
  ).id;
  const slaId: number = (
    await api('POST', '/api/slas', { name: 'Stored', response_time: 60, resolution_time: 480 })
  ).json().id;
  const status: Record<'open' | 'waiting' | 'closed', number> = await statusesByKind(t, b.tenantId);
  return { b, slaId, adminId, status, api, stored, expectRecomputed, ticket, age, alerts };
}
