/**
 * Time-based rules (issue 37, item 2) on both engines, and a rule's preview: a due rule acts once per
 * ticket and anchor however many instances look at once (two apps on one PostgreSQL database), and
 * again only after its condition became false and true again (a new anchor); GET
 * /automation-rules/{id}/matches counts the open tickets the conditions hold for, as the ticket list
 * with its builder lists them.
 */
import qs from 'qs';
import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildSecondInstance, buildTestApp, targets, type TestApp } from './harness.ts';
import { backOffice, type BackOffice } from './back-office.ts';
import { runTimeRules } from '../../server/automation/time-rules.ts';

describe.each(targets)('time-based rules on $name', (target) => {
  let t: TestApp;
  let second: TestApp | undefined;
  let b: BackOffice;
  const status: Record<string, number> = {};
  const priority: Record<string, number> = {};

  const post = async (url: string, payload: object, headers = b.admin) =>
    t.app.inject({ method: 'POST', url, headers, payload });
  const put = async (url: string, payload: object) =>
    t.app.inject({ method: 'PUT', url, headers: b.admin, payload });

  const newTicket = async () => {
    const res = await post('/api/tickets', {
      description: 'Wacht op de klant',
      company_id: b.ownCompanyId,
      priority_id: priority.Laag,
    });
    expect(res.statusCode, res.body).toBe(201);
    return Number(res.json().id);
  };
  /** Moves the ticket's status changes `hours` into the past, as time passing would. */
  const age = async (id: number, hours: number) => {
    await sql`update ticket_changes set created_at = created_at - make_interval(hours => ${hours})
      where ticket_id = ${id}`.execute(t.db);
    await sql`update tickets set created_at = created_at - make_interval(hours => ${hours})
      where id = ${id}`.execute(t.db);
  };
  const notes = async (id: number) =>
    (
      await t.db
        .selectFrom('messages')
        .select('id')
        .where('morphable_type', '=', 'ticket')
        .where('morphable_id', '=', id)
        .where('type', '=', 'normal')
        .where('visible_to_client', '=', false)
        .execute()
    ).length;
  /** Every instance looks at the same moment, twice each. */
  const look = () => Promise.all([t, second ?? t, t, second ?? t].map((i) => runTimeRules(i.db)));

  beforeAll(async () => {
    t = await buildTestApp(target, { config: { deadlineCheckMs: 0 } });
    if (target.url) second = await buildSecondInstance(t, { config: { deadlineCheckMs: 0 } });
    b = await backOffice(t, []);
    for (const s of (
      await sql<{ id: number; name: string }>`select id, name from ticket_statuses
      where tenant_id = ${b.tenantId}`.execute(t.db)
    ).rows)
      status[s.name] = Number(s.id);
    for (const p of (
      await sql<{ id: number; label: string }>`select id, label from priorities
      where tenant_id = ${b.tenantId}`.execute(t.db)
    ).rows)
      priority[p.label] = Number(p.id);
  }, 120_000);
  afterAll(async () => {
    await second?.close();
    await t?.close();
  });
  beforeEach(async () => {
    if (t) await t.db.updateTable('automation_rules').set({ active: false }).execute();
  });

  it('acts once per ticket and anchor with every instance looking, and again after the condition came back', async () => {
    const res = await post('/api/automation-rules', {
      name: 'Herinnering na 2 uur in behandeling',
      kind: 'time',
      since: 'status_changed',
      amount: 2,
      unit: 'hours',
      conditions: [{ where: ['status_id', '=', status['In behandeling']] }],
      actions: [
        { type: 'note', body: '<p>Al twee uur in behandeling</p>' },
        { type: 'set', field: 'priority_id', value: priority.Hoog },
      ],
    });
    expect(res.statusCode, res.body).toBe(201);
    const ruleId = Number(res.json().id);
    const id = await newTicket();
    expect((await put(`/api/tickets/${id}`, { status_id: status['In behandeling'] })).statusCode).toBe(200);
    await look();
    expect(await notes(id)).toBe(0); // not due yet
    await age(id, 3);
    await look();
    await look();
    expect(await notes(id)).toBe(1);
    const history = await t.db
      .selectFrom('ticket_changes')
      .select(['field', 'rule_id', 'user_id'])
      .where('ticket_id', '=', id)
      .where('rule_id', 'is not', null)
      .execute();
    expect(history).toEqual([{ field: 'priority_id', rule_id: ruleId, user_id: null }]);
    const runs = await sql<{ outcome: string; event: string }>`select outcome, event from automation_runs
      where rule_id = ${ruleId} and ticket_id = ${id}`.execute(t.db);
    expect(runs.rows).toEqual([{ outcome: 'applied', event: 'time' }]);
    // The condition goes false (another status) and true again: a new anchor, due two hours later.
    expect((await put(`/api/tickets/${id}`, { status_id: status.Nieuw })).statusCode).toBe(200);
    expect((await put(`/api/tickets/${id}`, { status_id: status['In behandeling'] })).statusCode).toBe(200);
    await look();
    expect(await notes(id)).toBe(1);
    await age(id, 3);
    await look();
    expect(await notes(id)).toBe(2);
  });

  it('refuses a time rule without its since, amount and unit, naming each', async () => {
    const res = await post('/api/automation-rules', {
      name: 'Onvolledig',
      kind: 'time',
      actions: [{ type: 'note', body: '<p>x</p>' }],
    });
    expect(res.statusCode).toBe(422);
    expect(Object.keys(res.json().errors)).toEqual(['since', 'amount', 'unit']);
  });

  it('previews the open tickets a rule matches now, as the ticket list lists them with its builder', async () => {
    const id = await newTicket();
    expect((await put(`/api/tickets/${id}`, { priority_id: priority.Hoog })).statusCode).toBe(200);
    const res = await post('/api/automation-rules', {
      name: 'Hoge prioriteit',
      kind: 'trigger',
      event: 'ticket_created',
      active: false,
      conditions: [{ where: ['priority_id', '=', priority.Hoog] }],
      actions: [{ type: 'note', body: '<p>x</p>' }],
    });
    expect(res.statusCode, res.body).toBe(201);
    const ruleId = Number(res.json().id);
    const preview = await t.app.inject({ url: `/api/automation-rules/${ruleId}/matches`, headers: b.admin });
    expect(preview.statusCode, preview.body).toBe(200);
    const { count, builder } = preview.json();
    const list = await t.app.inject({
      url: `/api/tickets?${qs.stringify({ builder }, { encodeValuesOnly: true })}`,
      headers: b.admin,
    });
    expect(list.statusCode, list.body).toBe(200);
    expect(count).toBeGreaterThan(0);
    expect(list.json().total).toBe(count);
    const open = await sql<{
      n: number;
    }>`select count(*)::int as n from tickets t join ticket_statuses s on s.id = t.status_id
      where t.tenant_id = ${b.tenantId} and t.priority_id = ${priority.Hoog} and not t.is_template
        and s.internal_type not in (2, 3)`.execute(t.db);
    expect(count).toBe(Number(open.rows[0]!.n));
    expect(
      (await t.app.inject({ url: `/api/automation-rules/${ruleId}/matches`, headers: b.client })).statusCode,
    ).toBe(403);
  });
});
