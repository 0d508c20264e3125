/**
 * Scheduled reports (issue 36, item 4), the routes: an operator's subscriptions to a report by mail, each
 * their own (another operator 404, a client 403), paused, resumed and deleted by their owner, their
 * settings checked with the page's names (422). The pass that mails them:
 * tests/api/report-subscriptions-delivery.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { targets, type TestApp } from './harness.ts';
import type { BackOffice } from './back-office.ts';
import { subscriptionWorld, type SubscriptionWorld } from './report-subscriptions-world.ts';

describe.each(targets)('report subscriptions on $name', (target) => {
  let w: SubscriptionWorld | undefined;
  let t: TestApp;
  let b: BackOffice;
  let company: number;
  let api: SubscriptionWorld['api'];
  let subscribe: SubscriptionWorld['subscribe'];

  beforeAll(async () => {
    w = await subscriptionWorld(target);
    ({ t, b, company, api, subscribe } = w);
  });
  afterAll(() => w?.close());

  it('keeps an operator’s subscription theirs: the others 404, a client 403', async () => {
    const { id } = await subscribe({
      report: 'tickets',
      frequency: 'weekly',
      delivery: 'xlsx',
      group: 'day',
      line: 2,
      by: 'company_id',
      filters: { company_id: [company, 'none'], priority_id: [1] },
    });
    const mine = await api('GET', `/${id}`);
    expect(mine.statusCode).toBe(200);
    expect(mine.json()).toMatchObject({
      id,
      report: 'tickets',
      frequency: 'weekly',
      delivery: 'xlsx',
      group: 'day',
      line: 2,
      by: 'company_id',
      filters: { company_id: [company, 'none'], priority_id: [1] },
      paused: false,
    });
    expect((await api('GET', '')).json().data.map((s: { id: number }) => s.id)).toContain(id);

    // Another operator who may read reports: not in their list, and 404 for every call on it.
    expect((await api('GET', '', b.limited)).json().data).toEqual([]);
    expect((await api('GET', `/${id}`, b.limited)).statusCode).toBe(404);
    expect((await api('PUT', `/${id}`, b.limited, { paused: true })).statusCode).toBe(404);
    expect((await api('DELETE', `/${id}`, b.limited)).statusCode).toBe(404);
    expect((await api('GET', `/${id}`)).json().paused).toBe(false);

    // A client, and an operator without the reports' permission: 403.
    expect((await api('GET', '', b.client)).statusCode).toBe(403);
    expect((await api('GET', `/${id}`, b.client)).statusCode).toBe(403);
    expect((await api('POST', '', b.client, { report: 'tickets' })).statusCode).toBe(403);
    const firstLine = await t.as('operator@example.com');
    expect((await api('GET', '', firstLine)).statusCode).toBe(403);

    // Paused and resumed by its owner, then deleted.
    expect((await api('PUT', `/${id}`, b.admin, { paused: true })).json().paused).toBe(true);
    expect((await api('PUT', `/${id}`, b.admin, { paused: false })).json().paused).toBe(false);
    const gone = await api('DELETE', `/${id}`);
    expect(gone.statusCode).toBe(200);
    expect((await api('GET', `/${id}`)).statusCode).toBe(404);
  });

  it('refuses settings the page does not know, naming the field (422)', async () => {
    const good = {
      report: 'tickets',
      frequency: 'monthly',
      delivery: 'link',
      group: 'week',
      by: 'operator_id',
      filters: {},
    };
    const cases: [object, string][] = [
      [{ ...good, filters: { 'company_id; drop table': [1] } }, 'filters'],
      [{ ...good, filters: { company_id: ['some'] } }, 'filters'],
      [{ ...good, by: 'contract_id' }, 'by'],
      [{ ...good, group: 'year' }, 'group'],
      [{ ...good, frequency: 'daily' }, 'frequency'],
      [{ ...good, delivery: 'pdf' }, 'delivery'],
      [{ ...good, report: 'sales' }, 'report'],
      [{ ...good, from: '2026-11-01' }, 'from'],
      // The time report keeps the company and operator filters only, and breaks down by its own keys.
      [{ ...good, report: 'time', filters: { ticket_group_id: [1] } }, 'filters'],
      [{ ...good, report: 'time', by: 'priority_id' }, 'by'],
    ];
    for (const [payload, field] of cases) {
      const res = await api('POST', '', b.admin, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(422);
      expect(Object.keys(res.json().errors).join(' '), JSON.stringify(payload)).toContain(field);
    }
    const time = await api('POST', '', b.admin, { ...good, report: 'time', by: 'contract_id' });
    expect(time.statusCode, time.body).toBe(201);
    await api('DELETE', `/${time.json().id}`);
    // A change of nothing is a 422 on one's own subscription; an unknown one is a 404 before its body.
    const own = (await api('GET', '')).json().data[0].id as number;
    expect((await api('PUT', `/${own}`, b.admin, {})).statusCode).toBe(422);
    expect((await api('PUT', `/${own}`, b.admin, { paused: 'yes' })).statusCode).toBe(422);
    expect((await api('PUT', '/999999', b.admin, {})).statusCode).toBe(404);
  });
});
