/**
 * The time-based rules the issue names (issue 37, item 2), run by the rules' loop (runTimeRules) on both
 * engines with two instances looking: no operator reply for 4 hours (`last_operator_reply`, counted
 * from the ticket's creation while nobody answered), resolved
 * for 7 days then archived (`resolved`), and waiting for the client for 3 business days, a reminder
 * mailed to the client, then closed after 5 (`status_changed` in business days of the ticket's SLA
 * calendar, a pair of rules). Time passes by writing the tickets' timestamps into the past, or by the
 * loop's own `now`; each rule acts once per ticket and anchor.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildSecondInstance, buildTestApp, targets, type TestApp } from './harness.ts';
import { backOffice, type BackOffice } from './back-office.ts';
import { withoutDemoSlas } from './sla-world.ts';
import { runTimeRules } from '../../server/automation/time-rules.ts';

describe.each(targets)('time-based rules by anchor on $name', (target) => {
  let t: TestApp;
  let second: TestApp | undefined;
  let b: BackOffice;
  let clientId: number;
  let answerId: number;
  const status: Record<string, number> = {};
  const priority: Record<string, number> = {};

  const post = async (url: string, payload: object) =>
    t.app.inject({ method: 'POST', url, headers: b.admin, payload });
  const put = async (url: string, payload: object) =>
    t.app.inject({ method: 'PUT', url, headers: b.admin, payload });
  const rule = async (body: object) => {
    const res = await post('/api/automation-rules', { kind: 'time', ...body });
    expect(res.statusCode, res.body).toBe(201);
    return Number(res.json().id);
  };
  const newTicket = async (marker: string, extra: object = {}) => {
    const res = await post('/api/tickets', {
      description: `Tijdregel ${marker}`,
      company_id: b.ownCompanyId,
      client_id: clientId,
      priority_id: priority.Laag,
      ...extra,
    });
    expect(res.statusCode, res.body).toBe(201);
    return Number(res.json().id);
  };
  const ticket = async (id: number) =>
    t.db
      .selectFrom('tickets')
      .select(['status_id', 'priority_id', 'applied_sla_id'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
  const runs = async (ruleId: number, id: number) =>
    (
      await sql<{ outcome: string }>`select outcome from automation_runs
        where rule_id = ${ruleId} and ticket_id = ${id} order by id`.execute(t.db)
    ).rows.map((r) => r.outcome);
  /** Every instance looks at the same moment, twice each. */
  const look = (now = Date.now()) =>
    Promise.all([t, second ?? t, t, second ?? t].map((i) => runTimeRules(i.db, now)));
  const only = (marker: string) => [{ where: ['description', 'like', marker] }];

  beforeAll(async () => {
    t = await buildTestApp(target, { config: { deadlineCheckMs: 0 } });
    if (target.url) second = await buildSecondInstance(t, { config: { deadlineCheckMs: 0 } });
    b = await backOffice(t, []);
    // The business-days rule counts in its SLA's calendar: the demo's SLAs must not govern the others.
    await withoutDemoSlas(t, b.tenantId);
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
    clientId = Number(
      (
        await t.db
          .selectFrom('users')
          .select('id')
          .where('email', '=', 'client@example.com')
          .executeTakeFirstOrThrow()
      ).id,
    );
    answerId = Number(
      (
        await t.db
          .selectFrom('standard_answers')
          .select('id')
          .where('tenant_id', '=', b.tenantId)
          .orderBy('id')
          .executeTakeFirstOrThrow()
      ).id,
    );
  }, 120_000);
  afterAll(async () => {
    await second?.close();
    await t?.close();
  });
  beforeEach(async () => {
    if (t) await t.db.updateTable('automation_rules').set({ active: false }).execute();
  });

  it('acts on a ticket whose last operator reply is 4 hours old, once, and again after a new reply', async () => {
    const marker = `geen-antwoord-${target.name}`;
    const ruleId = await rule({
      name: 'Geen antwoord in 4 uur',
      since: 'last_operator_reply',
      amount: 4,
      unit: 'hours',
      conditions: only(marker),
      actions: [{ type: 'set', field: 'priority_id', value: priority.Hoog }],
    });
    const id = await newTicket(marker);
    const reply = async () => {
      const res = await post('/api/messages', {
        morphable_type: 'ticket',
        morphable_id: id,
        message: '<p>We kijken ernaar.</p>',
        visible_to_client: true,
      });
      expect(res.statusCode, res.body).toBe(201);
    };
    const age = (hours: number) =>
      sql`update messages set created_at = created_at - make_interval(hours => ${hours})
        where morphable_type = 'ticket' and morphable_id = ${id}`.execute(t.db);
    await look();
    expect(await runs(ruleId, id)).toEqual([]); // no reply yet: no anchor
    await reply();
    await age(3);
    await look();
    expect(await runs(ruleId, id)).toEqual([]); // 3 of the 4 hours
    // An internal note is no reply to the client: it does not move the anchor.
    await post('/api/messages', {
      morphable_type: 'ticket',
      morphable_id: id,
      message: '<p>Intern</p>',
      visible_to_client: false,
    });
    await age(2);
    await look();
    await look();
    expect(await runs(ruleId, id)).toEqual(['applied']);
    expect((await ticket(id)).priority_id).toBe(priority.Hoog);
    // The operator replies again: a new anchor, due 4 hours after it.
    await put(`/api/tickets/${id}`, { priority_id: priority.Laag });
    await reply();
    await look();
    expect(await runs(ruleId, id)).toEqual(['applied']);
    await age(5);
    await look();
    expect(await runs(ruleId, id)).toEqual(['applied', 'applied']);
  });

  it('counts a ticket nobody answered from its creation: the new ticket left 4 hours', async () => {
    const marker = `onbeantwoord-${target.name}`;
    const ruleId = await rule({
      name: 'Nieuw en onbeantwoord',
      since: 'last_operator_reply',
      amount: 4,
      unit: 'hours',
      conditions: only(marker),
      actions: [{ type: 'set', field: 'priority_id', value: priority.Hoog }],
    });
    const id = await newTicket(marker);
    const age = (hours: number) =>
      sql`update tickets set created_at = created_at - make_interval(hours => ${hours})
        where id = ${id}`.execute(t.db);
    await age(3);
    await look();
    expect(await runs(ruleId, id)).toEqual([]); // 3 of the 4 hours since it came in
    await age(2);
    await look();
    await look();
    expect(await runs(ruleId, id)).toEqual(['applied']);
    expect((await ticket(id)).priority_id).toBe(priority.Hoog);
  });

  it('archives a ticket resolved 7 days ago, once, by the rule', async () => {
    const marker = `opgelost-${target.name}`;
    const ruleId = await rule({
      name: 'Na 7 dagen archiveren',
      since: 'resolved',
      amount: 7,
      unit: 'days',
      conditions: [...only(marker), { where: ['status_id', '=', status.Opgelost] }],
      actions: [{ type: 'set', field: 'status_id', value: status.Gearchiveerd }],
    });
    const id = await newTicket(marker);
    expect((await put(`/api/tickets/${id}`, { status_id: status.Opgelost })).statusCode).toBe(200);
    const age = (days: number) =>
      sql`update tickets set resolved_at = resolved_at - make_interval(days => ${days})
        where id = ${id}`.execute(t.db);
    await age(6);
    await look();
    expect((await ticket(id)).status_id).toBe(status.Opgelost);
    await age(2);
    await look();
    await look();
    expect((await ticket(id)).status_id).toBe(status.Gearchiveerd);
    expect(await runs(ruleId, id)).toEqual(['applied']);
    const history = await t.db
      .selectFrom('ticket_changes')
      .select(['field', 'to_value', 'user_id'])
      .where('ticket_id', '=', id)
      .where('rule_id', '=', ruleId)
      .execute();
    expect(history).toEqual([{ field: 'status_id', to_value: String(status.Gearchiveerd), user_id: null }]);
  });

  it('reminds a client waiting 3 business days by mail, then closes after 5, each once', async () => {
    const marker = `wacht-${target.name}`;
    const weekdays = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday'];
    const calendar = await post('/api/business-hour-contracts', {
      name: `Kantoor ${target.name}`,
      timezone: 'Europe/Amsterdam',
      schedule: Object.fromEntries(weekdays.map((d) => [d, [{ from: '08:00', to: '17:00' }]])),
    });
    expect(calendar.statusCode, calendar.body).toBe(201);
    const sla = await post('/api/slas', {
      name: `Kantoor-SLA ${target.name}`,
      response_time: 60,
      resolution_time: 4800,
      business_hour_contract_id: calendar.json().id,
    });
    expect(sla.statusCode, sla.body).toBe(201);
    const waiting = [...only(marker), { where: ['status_id', '=', status['Wacht op klant']] }];
    const remind = await rule({
      name: 'Herinnering na 3 werkdagen',
      position: 0,
      since: 'status_changed',
      amount: 3,
      unit: 'business_days',
      conditions: waiting,
      actions: [{ type: 'reply', standard_answer_id: answerId }],
    });
    const close = await rule({
      name: 'Sluiten na 5 werkdagen',
      position: 1,
      since: 'status_changed',
      amount: 5,
      unit: 'business_days',
      conditions: waiting,
      actions: [{ type: 'set', field: 'status_id', value: status.Opgelost }],
    });
    const id = await newTicket(marker, { sla_id: sla.json().id });
    expect((await put(`/api/tickets/${id}`, { status_id: status['Wacht op klant'] })).statusCode).toBe(200);
    expect((await ticket(id)).applied_sla_id).toBe(Number(sla.json().id));
    // Waiting since Friday 6 November 2026, 15:00 in Amsterdam (14:00 UTC).
    const friday = Date.parse('2026-11-06T14:00:00Z');
    await sql`update ticket_changes set created_at = ${new Date(friday)}
      where ticket_id = ${id} and field = 'status_id'`.execute(t.db);
    const reminders = async () =>
      (
        await sql<{ recipients: string }>`select o.recipients from mail_outbox o
          join messages m on o.source = 'messages' and o.source_id = m.id
          where m.morphable_type = 'ticket' and m.morphable_id = ${id} and m.visible_to_client`.execute(t.db)
      ).rows.map((r) => r.recipients);
    const at = (iso: string) => look(Date.parse(iso));

    // Tuesday: four days of the wall clock, two business days (Monday, Tuesday): not yet.
    await at('2026-11-10T14:30:00Z');
    expect(await reminders()).toEqual([]);
    // Wednesday after 15:00: the third business day.
    await at('2026-11-11T14:01:00Z');
    await at('2026-11-11T16:00:00Z');
    expect(await reminders()).toEqual(['client@example.com']);
    expect(await runs(remind, id)).toEqual(['applied']);
    expect(await runs(close, id)).toEqual([]);
    expect((await ticket(id)).status_id).toBe(status['Wacht op klant']);
    // Friday 13 November after 15:00: the fifth business day. Closed; no second reminder.
    await at('2026-11-13T13:59:00Z');
    expect((await ticket(id)).status_id).toBe(status['Wacht op klant']);
    await at('2026-11-13T14:01:00Z');
    await at('2026-11-16T09:00:00Z');
    expect((await ticket(id)).status_id).toBe(status.Opgelost);
    expect(await runs(close, id)).toEqual(['applied']);
    expect(await runs(remind, id)).toEqual(['applied']);
    expect(await reminders()).toEqual(['client@example.com']);
  });
});
