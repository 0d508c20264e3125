/**
 * A macro's `log_time` action (issue 37: the triage logs time with the macro) on both engines: applied,
 * it makes a time registration on each ticket by the operator who applies it (the minutes rounded by
 * the tenant's step, as a registration's form stores it); it needs the time registrations' store
 * permission to save and to apply (403 naming it, nothing changed); bad minutes are a 422 naming the
 * action's minutes; a rule may not log time (it acts for no one): a 422 naming the action's type.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, targets, type TestApp } from './harness.ts';
import { backOffice, type BackOffice } from './back-office.ts';
import { MAX_LOGGED_MINUTES } from '../../common/automation/actions.ts';

describe.each(targets)('macros that log time on $name', (target) => {
  let t: TestApp;
  let b: BackOffice;
  let firstLine: Record<string, string>;
  let priorities: number[];

  const call = (method: 'GET' | 'POST', url: string, headers: Record<string, string>, payload?: object) =>
    t.app.inject({ method, url: `/api${url}`, headers, payload });
  const newTicket = async () => {
    const res = await call('POST', '/tickets', b.admin, {
      description: `Tijd ${Math.random()}`,
      company_id: b.ownCompanyId,
      priority_id: priorities[0],
    });
    expect(res.statusCode, res.body).toBe(201);
    return Number(res.json().id);
  };
  const registrations = (ticketId: number) =>
    t.db
      .selectFrom('time_registrations')
      .select(['operator_id', 'time_spent', 'time_spent_rounded', 'description', 'contract_period_id'])
      .where('ticket_id', '=', ticketId)
      .execute();
  const userId = async (email: string) =>
    Number(
      (await t.db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirstOrThrow()).id,
    );

  beforeAll(async () => {
    t = await buildTestApp(target, { config: { deadlineCheckMs: 0 } });
    b = await backOffice(t, ['tenant.time-registrations.store']);
    firstLine = await t.as('operator@example.com');
    priorities = (
      await t.db
        .selectFrom('priorities')
        .select('id')
        .where('tenant_id', '=', b.tenantId)
        .orderBy('id')
        .execute()
    ).map((p) => Number(p.id));
  }, 120_000);
  afterAll(() => t?.close());

  it('logs the minutes on each ticket as a time registration by the operator who applies it', async () => {
    const ids = [await newTicket(), await newTicket()];
    const macro = await call('POST', '/macros', b.admin, {
      name: 'Telefonisch opgelost',
      actions: [
        { type: 'set', field: 'priority_id', value: priorities[1] },
        { type: 'log_time', minutes: 20, description: 'Telefonisch opgelost' },
      ],
    });
    expect(macro.statusCode, macro.body).toBe(201);
    const applied = await call('POST', `/macros/${macro.json().id}/apply`, firstLine, { ids });
    expect(applied.statusCode, applied.body).toBe(200);
    const operator = await userId('operator@example.com');
    for (const id of ids)
      // The demo rounds to 15 minutes: 20 is invoiced as 30, as a registration made by hand would be.
      expect(await registrations(id)).toEqual([
        {
          operator_id: operator,
          time_spent: 20,
          time_spent_rounded: 30,
          description: 'Telefonisch opgelost',
          contract_period_id: null,
        },
      ]);
    // Through the API as the ticket's time tab reads it.
    const read = await t.app.inject({
      url: `/api/time-registrations?builder[0][where][0]=ticket_id&builder[0][where][1]==&builder[0][where][2]=${ids[0]}`,
      headers: b.admin,
    });
    expect(read.statusCode, read.body).toBe(200);
    expect(read.json().data.map((r: { time_spent: number }) => r.time_spent)).toEqual([20]);
  });

  it('needs the time registrations’ store permission to save and to apply: 403 naming it, nothing changed', async () => {
    const refused = await call('POST', '/macros', b.limited, {
      name: 'Tijd zonder recht',
      personal: true,
      actions: [{ type: 'log_time', minutes: 10 }],
    });
    expect(refused.statusCode, refused.body).toBe(422);
    expect(Object.keys(refused.json().errors)).toEqual(['actions.0']);
    const macro = await call('POST', '/macros', b.admin, {
      name: 'Hoog en tijd',
      actions: [
        { type: 'set', field: 'priority_id', value: priorities[2] },
        { type: 'log_time', minutes: 10 },
      ],
    });
    expect(macro.statusCode, macro.body).toBe(201);
    const id = await newTicket();
    const applied = await call('POST', `/macros/${macro.json().id}/apply`, b.limited, { ids: [id] });
    expect(applied.statusCode, applied.body).toBe(403);
    expect(Object.keys(applied.json().errors ?? {})).toEqual(['actions.1']);
    expect(await registrations(id)).toEqual([]);
    const ticket = await t.db
      .selectFrom('tickets')
      .select('priority_id')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(ticket.priority_id).toBe(priorities[0]);
  });

  it.each([
    ['no minutes', { type: 'log_time' }, 'actions.0.minutes'],
    ['zero minutes', { type: 'log_time', minutes: 0 }, 'actions.0.minutes'],
    ['a fraction of a minute', { type: 'log_time', minutes: 1.5 }, 'actions.0.minutes'],
    ['minutes as text', { type: 'log_time', minutes: '15' }, 'actions.0.minutes'],
    ['too many minutes', { type: 'log_time', minutes: MAX_LOGGED_MINUTES + 1 }, 'actions.0.minutes'],
    [
      'a description that is no text',
      { type: 'log_time', minutes: 5, description: 5 },
      'actions.0.description',
    ],
  ])('refuses a macro that logs %s, naming the part', async (_, action, key) => {
    const res = await call('POST', '/macros', b.admin, { name: 'Fout', actions: [action] });
    expect(res.statusCode, res.body).toBe(422);
    expect(Object.keys(res.json().errors)).toEqual([key]);
  });

  it('refuses a rule that logs time, naming the action: a rule acts for no one', async () => {
    const res = await call('POST', '/automation-rules', b.admin, {
      kind: 'trigger',
      name: 'Tijd door regel',
      event: 'ticket_created',
      actions: [
        { type: 'note', body: '<p>x</p>' },
        { type: 'log_time', minutes: 5 },
      ],
    });
    expect(res.statusCode, res.body).toBe(422);
    expect(Object.keys(res.json().errors)).toEqual(['actions.1.type']);
  });
});
