/**
 * Recurring tickets (issue 37, item 4): a schedule makes a ticket from a template for a company, with
 * its checklist, when due, in the desk's zone (Europe/Amsterdam): "first Monday 09:00" is 09:00 local
 * before and after the change to summer time; one ticket per occurrence however many passes and
 * instances look (PostgreSQL: two instances); after downtime one missed occurrence is caught up, no
 * more; bad schedules are a 422 naming the field.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSecondInstance, buildTestApp, targets, type TestApp } from './harness.ts';
import { makeDueTickets } from '../../server/resources/recurring-tickets/run.ts';
import { registry } from '../../server/schema/registry.ts';
import type { Db } from '../../server/db/database.ts';

const URL = '/api/recurring-tickets';
const ADMIN = 'admin@example.com';
const CLIENT = 'client@example.com';

describe.each(targets)('recurring tickets on $name', (target) => {
  let t: TestApp;
  let jansen: number;
  let template: number;

  const call = async (
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: string,
    email = ADMIN,
    payload?: object,
  ) => t.app.inject({ method, url, headers: await t.as(email), ...(payload && { payload }) });

  const schedule = (extra: Record<string, unknown> = {}) => ({
    name: 'Patchdag',
    company_id: jansen,
    ticket_template_id: template,
    frequency: 'monthly',
    nth: 1,
    weekday: 1,
    time_of_day: '09:00',
    starts_on: '2026-01-01',
    checklist: [
      { text: 'Updates geïnstalleerd', required: true, visible_to_client: true },
      { text: 'Herstart gecontroleerd' },
    ],
    ...extra,
  });

  const create = async (extra: Record<string, unknown> = {}) => {
    const res = await call('POST', URL, ADMIN, schedule(extra));
    expect(res.statusCode, res.body).toBe(201);
    return res.json() as { id: number; next_run_at: string | null };
  };

  /**
   * Sets when the schedules `ids` are next due, as if they had been waiting since then; the other
   * schedules of the earlier tests are paused, so a pass's count is about these alone.
   */
  const dueAt = async (ids: number | number[], iso: string) => {
    const list = Array.isArray(ids) ? ids : [ids];
    await t.db.updateTable('recurring_tickets').set({ active: false }).where('id', 'not in', list).execute();
    await t.db
      .updateTable('recurring_tickets')
      .set({ next_run_at: new Date(iso) })
      .where('id', 'in', list)
      .execute();
  };

  const pass = (db: Db, iso: string) => makeDueTickets({ db, registry: registry() }, new Date(iso));

  const ticketsOf = (id: number) =>
    t.db
      .selectFrom('tickets')
      .select(['id', 'description', 'company_id', 'is_template'])
      .where('recurring_ticket_id', '=', id)
      .orderBy('id')
      .execute();

  const nextRun = async (id: number) =>
    (
      await t.db
        .selectFrom('recurring_tickets')
        .select('next_run_at')
        .where('id', '=', id)
        .executeTakeFirstOrThrow()
    ).next_run_at?.toISOString();

  beforeAll(async () => {
    t = await buildTestApp(target, { config: { deadlineCheckMs: 0 } });
    jansen = Number(
      (
        await t.db
          .selectFrom('companies')
          .select('id')
          .where('name', '=', 'Jansen BV')
          .executeTakeFirstOrThrow()
      ).id,
    );
    template = Number(
      (
        await t.db
          .selectFrom('tickets')
          .select('id')
          .where('is_template', '=', true)
          .where('description', '=', 'Maandelijkse controle back-ups')
          .executeTakeFirstOrThrow()
      ).id,
    );
  });
  afterAll(() => t?.close());

  it('holds the demo schedule, paused, and computes the next run of a new one', async () => {
    const list = await call('GET', URL);
    expect(list.statusCode, list.body).toBe(200);
    const demo = (list.json().data as { name: string; active: boolean; next_run_at: string | null }[]).find(
      (r) => r.name === 'Maandelijkse controle back-ups Jansen BV',
    );
    expect(demo).toMatchObject({ active: false, next_run_at: null });

    const made = await create();
    const next = new Date(made.next_run_at!);
    expect(next.getTime()).toBeGreaterThan(Date.now());
    // A first Monday, 09:00 in Amsterdam.
    const local = new Intl.DateTimeFormat('en-GB', {
      timeZone: 'Europe/Amsterdam',
      weekday: 'long',
      day: 'numeric',
      hour: '2-digit',
      minute: '2-digit',
    }).format(next);
    expect(local).toMatch(/^Monday [1-7], 09:00$/);
    const paused = await call('PUT', `${URL}/${made.id}`, ADMIN, { active: false });
    expect(paused.json().next_run_at).toBeNull();
    const resumed = await call('PUT', `${URL}/${made.id}`, ADMIN, { active: true });
    expect(resumed.json().next_run_at).toBe(made.next_run_at);
  });

  it('refuses bad schedules with a 422 naming the field', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ frequency: 'daily' }, 'frequency'],
      [{ interval: 0 }, 'interval'],
      [{ time_of_day: '25:00' }, 'time_of_day'],
      [{ nth: 5 }, 'nth'],
      [{ weekday: 8 }, 'weekday'],
      [{ day_of_month: 32, nth: null, weekday: null }, 'day_of_month'],
      [{ frequency: 'weekly', weekday: null, nth: null }, 'weekday'],
      [{ frequency: 'weekly', weekday: 2, nth: 1 }, 'nth'],
      [{ day_of_month: 3 }, 'nth'],
      [{ nth: null }, 'nth'],
      [{ starts_on: 'morgen' }, 'starts_on'],
      // A checklist line is named by its own field, as the validator names a nested one.
      [{ checklist: [{ required: true }] }, 'text'],
      [{ ticket_template_id: 999_999_999 }, 'ticket_template_id'],
    ];
    for (const [extra, field] of cases) {
      const res = await call('POST', URL, ADMIN, schedule(extra));
      expect(res.statusCode, `${JSON.stringify(extra)}: ${res.body}`).toBe(422);
      expect(
        Object.keys(res.json().errors).some((k) => k === field || k.startsWith(`${field}.`)),
        res.body,
      ).toBe(true);
    }
    const made = await create();
    const res = await call('PUT', `${URL}/${made.id}`, ADMIN, { frequency: 'weekly' });
    expect(res.statusCode).toBe(422);
    expect(Object.keys(res.json().errors).sort()).toEqual(['nth']);
  });

  it('is not for clients', async () => {
    expect((await call('GET', URL, CLIENT)).statusCode).toBe(403);
  });

  it('makes the ticket on schedule, 09:00 local before and after the change to summer time', async () => {
    const { id } = await create({ starts_on: '2026-03-01' });
    // The first Monday of March 2026, 09:00 CET (+01:00).
    await dueAt(id, '2026-03-02T08:00:00Z');
    expect(await pass(t.db, '2026-03-02T07:59:00Z')).toBe(0);
    expect(await ticketsOf(id)).toEqual([]);
    expect(await pass(t.db, '2026-03-02T08:00:30Z')).toBe(1);
    // Summer time from 29 March: the first Monday of April at 09:00 CEST (+02:00) is 07:00 UTC.
    expect(await nextRun(id)).toBe('2026-04-06T07:00:00.000Z');
    expect(await pass(t.db, '2026-04-06T06:59:00Z')).toBe(0);
    expect(await pass(t.db, '2026-04-06T07:00:10Z')).toBe(1);
    expect(await nextRun(id)).toBe('2026-05-04T07:00:00.000Z');

    const made = await ticketsOf(id);
    expect(made).toHaveLength(2);
    for (const ticket of made)
      expect(ticket).toMatchObject({
        description: 'Maandelijkse controle back-ups',
        company_id: jansen,
        is_template: false,
      });
    const items = await t.db
      .selectFrom('checklist_items')
      .select(['text', 'required', 'visible_to_client', 'done', 'position'])
      .where('ticket_id', '=', made[0]!.id)
      .orderBy('position')
      .execute();
    expect(items).toEqual([
      { text: 'Updates geïnstalleerd', required: true, visible_to_client: true, done: false, position: 1 },
      { text: 'Herstart gecontroleerd', required: false, visible_to_client: false, done: false, position: 2 },
    ]);
    // The ticket is a ticket like any other: a reference, and its schedule named.
    const shown = await call('GET', `/api/tickets/${made[0]!.id}`);
    expect(shown.json()).toMatchObject({ recurring_ticket_id: id });
    expect(shown.json().reference).toMatch(/^T-\d{4}-\d{5}$/);
  });

  it('keeps 09:00 local on the change back to winter time, weekly on Sunday', async () => {
    const { id } = await create({ frequency: 'weekly', weekday: 7, nth: null, starts_on: '2026-10-01' });
    // Sunday 18 October, 09:00 CEST; the next Sunday is the change itself (25 October, 09:00 CET).
    await dueAt(id, '2026-10-18T07:00:00Z');
    expect(await pass(t.db, '2026-10-18T07:00:05Z')).toBe(1);
    expect(await nextRun(id)).toBe('2026-10-25T08:00:00.000Z');
    expect(await pass(t.db, '2026-10-25T08:00:05Z')).toBe(1);
    expect(await nextRun(id)).toBe('2026-11-01T08:00:00.000Z');
    expect(await ticketsOf(id)).toHaveLength(2);
  });

  it('catches up one missed occurrence after downtime, no more, and makes it once', async () => {
    const { id } = await create();
    // Down from before the first Monday of January until 10 May: four occurrences missed.
    await dueAt(id, '2026-01-05T08:00:00Z');
    expect(await pass(t.db, '2026-05-10T12:00:00Z')).toBe(1);
    expect(await nextRun(id)).toBe('2026-06-01T07:00:00.000Z');
    expect(await pass(t.db, '2026-05-10T12:00:00Z')).toBe(0);
    expect(await ticketsOf(id)).toHaveLength(1);
    const runs = await t.db
      .selectFrom('recurring_ticket_runs')
      .select('occurrence')
      .where('recurring_ticket_id', '=', id)
      .execute();
    expect(runs.map((r) => r.occurrence.toISOString())).toEqual(['2026-01-05T08:00:00.000Z']);
  });

  it('makes one ticket per occurrence however many passes look at once', async () => {
    const ids = [(await create()).id, (await create()).id, (await create()).id];
    await dueAt(ids, '2026-03-02T08:00:00Z');
    const second = t.connection
      ? await buildSecondInstance(t, { config: { deadlineCheckMs: 0 } })
      : undefined;
    try {
      const made = await Promise.all([
        pass(t.db, '2026-03-02T08:01:00Z'),
        pass(second?.db ?? t.db, '2026-03-02T08:01:00Z'),
        pass(t.db, '2026-03-02T08:01:00Z'),
      ]);
      expect(made.reduce((a, n) => a + n, 0)).toBe(ids.length);
      for (const id of ids) expect(await ticketsOf(id), `schedule ${id}`).toHaveLength(1);
    } finally {
      await second?.close();
    }
  });
});
