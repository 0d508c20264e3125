/**
 * Triggers (issue 37, item 1) on both engines: a rule runs in the transaction of its event (a ticket
 * created or changed, a client's message), when its conditions (a ticket list's builder) hold; its
 * changes are in the ticket's history by the rule, its runs in its log. Rules run in position order,
 * stop_after stops the rest, a chain never runs a rule twice on a ticket (logged as a loop), a rule that
 * fails is rolled back alone, and bad rules are 422s naming the part. Clients never see the rules.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildTestApp, targets, type TestApp } from './harness.ts';
import { backOffice, type BackOffice } from './back-office.ts';

describe.each(targets)('automation triggers on $name', (target) => {
  let t: TestApp;
  let b: BackOffice;
  const status: Record<string, number> = {};
  const priority: Record<string, number> = {};
  let groupId: number;
  let answerId: number;

  const post = async (url: string, payload: object, headers = b.admin) =>
    t.app.inject({ method: 'POST', url, headers, payload });
  const put = async (url: string, payload: object, headers = b.admin) =>
    t.app.inject({ method: 'PUT', url, headers, payload });

  const rule = async (body: object) => {
    const res = await post('/api/automation-rules', { kind: 'trigger', ...body });
    expect(res.statusCode, res.body).toBe(201);
    return Number(res.json().id);
  };
  const newTicket = async (extra: object = {}) => {
    const res = await post('/api/tickets', {
      description: 'Automatisering',
      company_id: b.ownCompanyId,
      priority_id: priority.Laag,
      ...extra,
    });
    expect(res.statusCode, res.body).toBe(201);
    return Number(res.json().id);
  };
  const ticket = async (id: number) =>
    t.db
      .selectFrom('tickets')
      .select(['status_id', 'priority_id', 'operator_id', 'ticket_group_id'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
  const runs = async (ruleId: number) =>
    (
      await sql<{ ticket_id: number; outcome: string; depth: number; event: string }>`
        select ticket_id, outcome, depth, event from automation_runs where rule_id = ${ruleId} order by id`.execute(
        t.db,
      )
    ).rows.map((r) => ({ ...r, ticket_id: Number(r.ticket_id), depth: Number(r.depth) }));
  const where = (field: string, op: string, value: unknown) => ({ where: [field, op, value] });

  beforeAll(async () => {
    t = await buildTestApp(target);
    b = await backOffice(t, ['tenant.messages.store']);
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
    groupId = Number(
      (
        await t.db
          .selectFrom('ticket_groups')
          .select('id')
          .where('tenant_id', '=', b.tenantId)
          .executeTakeFirstOrThrow()
      ).id,
    );
    answerId = Number(
      (
        await t.db
          .selectFrom('standard_answers')
          .select('id')
          .where('tenant_id', '=', b.tenantId)
          .executeTakeFirstOrThrow()
      ).id,
    );
  }, 120_000);
  afterAll(() => t?.close());
  // Each test's rules alone: the rules of the one before are switched off.
  beforeEach(async () => {
    if (t) await t.db.updateTable('automation_rules').set({ active: false }).execute();
  });

  it('runs a ticket_created rule whose conditions hold: its changes by the rule in the history, its note, its log', async () => {
    const ruleId = await rule({
      name: 'Hoog bij aanmaken',
      event: 'ticket_created',
      conditions: [where('description', 'like', 'dringend')],
      actions: [
        { type: 'set', field: 'priority_id', value: priority.Hoog },
        { type: 'note', body: '<p>Automatisch op hoog gezet</p>' },
      ],
    });
    const hit = await newTicket({ description: 'Iets dringends' });
    const miss = await newTicket({ description: 'Rustig aan' });
    expect((await ticket(hit)).priority_id).toBe(priority.Hoog);
    expect((await ticket(miss)).priority_id).toBe(priority.Laag);
    const history = await t.app.inject({
      url: `/api/ticket-changes?builder[0][where][0]=ticket_id&builder[0][where][1]==&builder[0][where][2]=${hit}&with[0]=rule`,
      headers: b.admin,
    });
    expect(history.statusCode).toBe(200);
    expect(
      history.json().data.map((c: any) => ({ field: c.field, user_id: c.user_id, rule: c.rule?.name })),
    ).toEqual([{ field: 'priority_id', user_id: null, rule: 'Hoog bij aanmaken' }]);
    const notes = await t.db
      .selectFrom('messages')
      .select(['message', 'visible_to_client', 'is_from_client'])
      .where('morphable_type', '=', 'ticket')
      .where('morphable_id', '=', hit)
      .where('type', '=', 'normal')
      .execute();
    expect(notes).toEqual([
      { message: '<p>Automatisch op hoog gezet</p>', visible_to_client: false, is_from_client: false },
    ]);
    expect(await runs(ruleId)).toEqual([
      { ticket_id: hit, outcome: 'applied', depth: 0, event: 'ticket_created' },
    ]);
    const log = await t.app.inject({
      url: `/api/automation-runs?builder[0][where][0]=rule_id&builder[0][where][1]==&builder[0][where][2]=${ruleId}`,
      headers: b.admin,
    });
    expect(log.statusCode).toBe(200);
    expect(log.json().data.map((r: any) => [r.ticket_id, r.outcome])).toEqual([[hit, 'applied']]);
  });

  it('runs a ticket_updated rule only on a change of a field it watches', async () => {
    const ruleId = await rule({
      name: 'Groep bij status',
      event: 'ticket_updated',
      event_fields: ['status_id'],
      actions: [{ type: 'set', field: 'ticket_group_id', value: groupId }],
    });
    const id = await newTicket();
    expect((await put(`/api/tickets/${id}`, { priority_id: priority.Hoog })).statusCode).toBe(200);
    expect((await ticket(id)).ticket_group_id).toBeNull();
    expect((await put(`/api/tickets/${id}`, { status_id: status['In behandeling'] })).statusCode).toBe(200);
    expect((await ticket(id)).ticket_group_id).toBe(groupId);
    expect((await runs(ruleId)).map((r) => r.event)).toEqual(['ticket_updated']);
  });

  it('runs a client_message rule when a client writes on the ticket', async () => {
    await rule({
      name: 'Klant antwoordt',
      event: 'client_message',
      actions: [{ type: 'set', field: 'status_id', value: status['In behandeling'] }],
    });
    const id = await newTicket({
      client_id: Number(
        (
          await t.db
            .selectFrom('users')
            .select('id')
            .where('email', '=', 'client@example.com')
            .executeTakeFirstOrThrow()
        ).id,
      ),
    });
    const res = await post(
      '/api/messages',
      { morphable_type: 'ticket', morphable_id: id, message: '<p>Nog steeds kapot</p>' },
      b.client,
    );
    expect(res.statusCode, res.body).toBe(201);
    expect((await ticket(id)).status_id).toBe(status['In behandeling']);
  });

  it('replies to the client from a standard answer, mailed as an operator reply is, and mails operators', async () => {
    const operatorId = Number(
      (
        await t.db
          .selectFrom('users')
          .select('id')
          .where('email', '=', 'operator@example.com')
          .executeTakeFirstOrThrow()
      ).id,
    );
    const ruleId = await rule({
      name: 'Ontvangstbevestiging',
      event: 'ticket_created',
      actions: [
        { type: 'reply', standard_answer_id: answerId },
        { type: 'mail_operators', standard_answer_id: answerId, to: { operator_ids: [operatorId] } },
      ],
    });
    const clientId = Number(
      (
        await t.db
          .selectFrom('users')
          .select('id')
          .where('email', '=', 'client@example.com')
          .executeTakeFirstOrThrow()
      ).id,
    );
    const id = await newTicket({ client_id: clientId });
    const reply = await t.db
      .selectFrom('messages')
      .select(['id', 'visible_to_client', 'send_to_client'])
      .where('morphable_type', '=', 'ticket')
      .where('morphable_id', '=', id)
      .where('type', '=', 'normal')
      .executeTakeFirstOrThrow();
    expect(reply).toMatchObject({ visible_to_client: true, send_to_client: true });
    const mails = await sql<{ source: string; recipients: string }>`select source, recipients from mail_outbox
      where (source = 'messages' and source_id = ${reply.id}) or (source = 'automation' and source_id = ${id})
      order by id`.execute(t.db);
    expect(mails.rows.map((m) => [m.source, m.recipients])).toEqual([
      ['messages', 'client@example.com'],
      ['automation', 'operator@example.com'],
    ]);
    expect((await runs(ruleId)).map((r) => r.outcome)).toEqual(['applied']);
  });

  it('runs rules in position order, and a rule with stop_after stops the ones after it', async () => {
    await rule({
      name: 'Tweede',
      position: 20,
      event: 'ticket_created',
      actions: [{ type: 'set', field: 'priority_id', value: priority.Normaal }],
    });
    const first = await rule({
      name: 'Eerste',
      position: 10,
      event: 'ticket_created',
      actions: [{ type: 'set', field: 'priority_id', value: priority.Hoog }],
    });
    // In order: the second's value is the last one set.
    expect((await ticket(await newTicket())).priority_id).toBe(priority.Normaal);
    expect((await put(`/api/automation-rules/${first}`, { stop_after: true })).statusCode).toBe(200);
    expect((await ticket(await newTicket())).priority_id).toBe(priority.Hoog);
  });

  it('stops a ping-pong of two rules: neither runs twice on a ticket in one chain, and the loop is logged', async () => {
    const ping = await rule({
      name: 'Ping',
      event: 'ticket_updated',
      event_fields: ['status_id'],
      conditions: [where('status_id', '=', status['In behandeling'])],
      actions: [{ type: 'set', field: 'status_id', value: status.Nieuw }],
    });
    const pong = await rule({
      name: 'Pong',
      event: 'ticket_updated',
      event_fields: ['status_id'],
      conditions: [where('status_id', '=', status.Nieuw)],
      actions: [{ type: 'set', field: 'status_id', value: status['In behandeling'] }],
    });
    const id = await newTicket();
    expect((await put(`/api/tickets/${id}`, { status_id: status['In behandeling'] })).statusCode).toBe(200);
    expect(await runs(ping)).toEqual([
      { ticket_id: id, outcome: 'applied', depth: 0, event: 'ticket_updated' },
      { ticket_id: id, outcome: 'skipped-loop', depth: 2, event: 'ticket_updated' },
    ]);
    expect(await runs(pong)).toEqual([
      { ticket_id: id, outcome: 'applied', depth: 1, event: 'ticket_updated' },
    ]);
    expect((await ticket(id)).status_id).toBe(status['In behandeling']);
  });

  it('rolls a failing rule back alone and logs it; the event itself still happens', async () => {
    const group = await t.db
      .insertInto('ticket_groups')
      .values({ tenant_id: b.tenantId, name: 'Verdwijnt' })
      .returning('id')
      .executeTakeFirstOrThrow();
    const failing = await rule({
      name: 'Faalt',
      event: 'ticket_created',
      actions: [
        { type: 'set', field: 'priority_id', value: priority.Hoog },
        { type: 'set', field: 'ticket_group_id', value: Number(group.id) },
      ],
    });
    await t.db.deleteFrom('ticket_groups').where('id', '=', group.id).execute();
    const id = await newTicket();
    expect(await ticket(id)).toMatchObject({ priority_id: priority.Laag, ticket_group_id: null });
    expect((await runs(failing)).map((r) => r.outcome)).toEqual(['failed']);
  });

  it.each<[string, object, string[]]>([
    ['a trigger without an event', { event: null }, ['event']],
    ['a condition on an unknown field', { conditions: [{ where: ['nonsense', '=', 1] }] }, ['conditions.0']],
    // `me` would stand for whoever saved the rule, or for no one when it runs.
    ['a condition on me', { conditions: [{ where: ['operator_id', 'me'] }] }, ['conditions.0']],
    ['me in a list of values', { conditions: [{ whereIn: ['operator_id', [1, 'me']] }] }, ['conditions.0']],
    [
      'a field an action cannot set',
      { actions: [{ type: 'set', field: 'description', value: 'x' }] },
      ['actions.0.field'],
    ],
    [
      'a value that is no record of the tenant',
      { actions: [{ type: 'set', field: 'status_id', value: 999999 }] },
      ['actions.0.value'],
    ],
    [
      'an unknown standard answer',
      { actions: [{ type: 'reply', standard_answer_id: 999999 }] },
      ['actions.0.standard_answer_id'],
    ],
    ['an unknown action type', { actions: [{ type: 'explode' }] }, ['actions.0.type']],
    [
      'too many actions',
      { actions: Array.from({ length: 21 }, () => ({ type: 'note', body: 'x' })) },
      ['actions'],
    ],
    [
      'an unknown field to watch',
      { event: 'ticket_updated', event_fields: ['nonsense'], actions: [{ type: 'note', body: 'x' }] },
      ['event_fields.0'],
    ],
    [
      'a rule that fires again on its own change',
      {
        event: 'ticket_updated',
        event_fields: ['priority_id'],
        actions: [{ type: 'set', field: 'priority_id', value: 1 }],
      },
      ['actions.0.field'],
    ],
  ])('refuses %s with a 422 naming the part', async (_, body, keys) => {
    const res = await post('/api/automation-rules', {
      kind: 'trigger',
      name: 'Fout',
      event: 'ticket_created',
      actions: [{ type: 'note', body: '<p>x</p>' }],
      ...body,
    });
    expect(res.statusCode, res.body).toBe(422);
    expect(Object.keys(res.json().errors)).toEqual(keys);
  });

  it('refuses an action the saving user may not take by hand', async () => {
    const res = await post(
      '/api/automation-rules',
      {
        kind: 'trigger',
        name: 'Notitie',
        event: 'ticket_created',
        actions: [{ type: 'note', body: '<p>x</p>' }],
      },
      b.limited,
    );
    expect(res.statusCode, res.body).toBe(422);
    expect(Object.keys(res.json().errors)).toEqual(['actions.0']);
  });

  it('refuses a mail to a ticket group, which has no members to mail', async () => {
    const res = await post('/api/automation-rules', {
      kind: 'trigger',
      name: 'Groep',
      event: 'ticket_created',
      actions: [{ type: 'mail_operators', standard_answer_id: answerId, to: 'group' }],
    });
    expect(res.statusCode, res.body).toBe(422);
    expect(Object.keys(res.json().errors)).toEqual(['actions.0.to']);
  });

  it('keeps the rules and their log from clients', async () => {
    const id = await rule({
      name: 'Geheim',
      event: 'ticket_created',
      actions: [{ type: 'note', body: '<p>x</p>' }],
    });
    expect((await t.app.inject({ url: '/api/automation-rules', headers: b.client })).statusCode).toBe(403);
    expect((await t.app.inject({ url: `/api/automation-rules/${id}`, headers: b.client })).statusCode).toBe(
      403,
    );
    expect((await t.app.inject({ url: '/api/automation-runs', headers: b.client })).statusCode).toBe(403);
    expect(
      (
        await post(
          '/api/automation-rules',
          { kind: 'trigger', name: 'x', event: 'ticket_created', actions: [] },
          b.client,
        )
      ).statusCode,
    ).toBe(403);
  });
});
