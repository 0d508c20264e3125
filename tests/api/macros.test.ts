/**
 * Macros (issue 37, item 3): bundles of actions an operator applies in one click. Written through the
 * generic routes with their actions checked (an unknown field, a value that is no record of the tenant,
 * an action the writer may not take by hand: 422 naming the part); a team macro is the sharers'
 * (tenant.macros.share), a personal one its owner's alone (x-personal: anyone else 404); offered to the
 * caller by role (GET /api/macros/offered); applied to one ticket or many in one transaction
 * (POST /api/macros/{id}/apply), as the caller, each action checked against the caller's permissions.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, targets, type TestApp } from './harness.ts';
import { backOffice, type BackOffice } from './back-office.ts';
import { statusesByKind } from './sla-world.ts';

describe.each(targets)('macros on $name', (target) => {
  let t: TestApp;
  let b: BackOffice;
  let firstLine: Record<string, string>;
  let status: { open: number; closed: number; waiting: number };
  let priorities: number[];
  let answer: number;
  let company: number;
  let secondLineRole: number;

  const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, headers: object, payload?: object) =>
    t.app.inject({ method, url: `/api${url}`, headers: headers as Record<string, string>, payload });

  const newTicket = async () => {
    const res = await call('POST', '/tickets', b.admin, {
      description: `Macro ${Math.random()}`,
      status_id: status.open,
      company_id: company,
      priority_id: priorities[0],
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().id as number;
  };

  const makeMacro = async (payload: object, headers = b.admin) => {
    const res = await call('POST', '/macros', headers, payload);
    expect(res.statusCode, res.body).toBe(201);
    return res.json() as { id: number; owner_id: number };
  };

  const ticket = (id: number) =>
    t.db
      .selectFrom('tickets')
      .select(['status_id', 'priority_id', 'operator_id'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();

  beforeAll(async () => {
    t = await buildTestApp(target, { config: { deadlineCheckMs: 0 } });
    b = await backOffice(t, ['tenant.macros.share', 'tenant.messages.store']);
    firstLine = await t.as('operator@example.com');
    status = await statusesByKind(t, b.tenantId);
    priorities = (
      await t.db
        .selectFrom('priorities')
        .select('id')
        .where('tenant_id', '=', b.tenantId)
        .orderBy('id')
        .execute()
    ).map((p) => p.id);
    answer = Number(
      (
        await t.db
          .selectFrom('standard_answers')
          .select('id')
          .where('tenant_id', '=', b.tenantId)
          .orderBy('id')
          .executeTakeFirstOrThrow()
      ).id,
    );
    company = b.ownCompanyId;
    secondLineRole = Number(
      (
        await t.db
          .selectFrom('users')
          .select('role_id')
          .where('email', '=', 'admin@example.com')
          .executeTakeFirstOrThrow()
      ).role_id,
    );
  });
  afterAll(() => t.close());

  it('applies its actions in order to a ticket as the caller: fields, a reply from a standard answer, a note', async () => {
    const id = await newTicket();
    const macro = await makeMacro({
      name: 'Beantwoorden en wachten',
      actions: [
        { type: 'set', field: 'priority_id', value: priorities[2] },
        { type: 'reply', standard_answer_id: answer },
        { type: 'note', body: 'Wacht op de klant.' },
        { type: 'set', field: 'status_id', value: status.waiting },
      ],
    });
    const res = await call('POST', `/macros/${macro.id}/apply`, firstLine, { ids: [id] });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ data: { ids: [id] } });
    expect(await ticket(id)).toMatchObject({ status_id: status.waiting, priority_id: priorities[2] });
    // The history names the operator who applied it, not a rule.
    const operator = await t.db
      .selectFrom('users')
      .select('id')
      .where('email', '=', 'operator@example.com')
      .executeTakeFirstOrThrow();
    const changes = await t.db
      .selectFrom('ticket_changes')
      .select(['field', 'user_id'])
      .where('ticket_id', '=', id)
      .orderBy('id')
      .execute();
    expect(changes.map((c) => c.field)).toEqual(['priority_id', 'status_id']);
    expect(changes.every((c) => c.user_id === operator.id)).toBe(true);
    // The reply and the note are in the thread, in order, the note internal.
    const messages = await t.db
      .selectFrom('messages')
      .select(['message', 'visible_to_client', 'actor_id', 'type'])
      .where('morphable_type', '=', 'ticket')
      .where('morphable_id', '=', id)
      .orderBy('id')
      .execute();
    const own = messages.filter((m) => m.actor_id === operator.id && m.type === 'normal');
    expect(own.map((m) => m.visible_to_client)).toEqual([true, false]);
    // The answer's placeholders are filled as the editor fills them: the reference, the operator.
    const { reference } = await t.db
      .selectFrom('tickets')
      .select('reference')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(own[0]!.message).toContain(String(reference));
    expect(own[0]!.message).toContain('Daan Visser');
    expect(own[0]!.message).not.toContain('{{ticket.reference}}');
    expect(own[1]!.message).toContain('Wacht op de klant.');
  });

  it('applies to many tickets at once, in one transaction: a ticket the caller may not see changes none', async () => {
    const ids = [await newTicket(), await newTicket(), await newTicket()];
    const macro = await makeMacro({
      name: 'Hoog',
      actions: [{ type: 'set', field: 'priority_id', value: priorities[3] }],
    });
    const refused = await call('POST', `/macros/${macro.id}/apply`, b.admin, { ids: [...ids, 999_999] });
    expect(refused.statusCode).toBe(404);
    for (const id of ids) expect((await ticket(id)).priority_id).toBe(priorities[0]);
    const res = await call('POST', `/macros/${macro.id}/apply`, b.admin, { ids });
    expect(res.statusCode, res.body).toBe(200);
    for (const id of ids) expect((await ticket(id)).priority_id).toBe(priorities[3]);
  });

  it('checks each action against the caller’s permissions when applied: 403 naming it, nothing changed', async () => {
    const id = await newTicket();
    const macro = await makeMacro({
      name: 'Notitie en hoog',
      actions: [
        { type: 'set', field: 'priority_id', value: priorities[1] },
        { type: 'note', body: 'Gezien.' },
      ],
    });
    // The limited role may not write messages.
    const res = await call('POST', `/macros/${macro.id}/apply`, b.limited, { ids: [id] });
    expect(res.statusCode, res.body).toBe(403);
    expect(Object.keys(res.json().errors ?? {})).toEqual(['actions.1']);
    expect((await ticket(id)).priority_id).toBe(priorities[0]);
  });

  it('refuses a macro with a bad action, naming the part', async () => {
    const cases: [object, string][] = [
      [{ type: 'set', field: 'description', value: 'x' }, 'actions.0.field'],
      [{ type: 'set', field: 'priority_id', value: 999_999 }, 'actions.0.value'],
      [{ type: 'reply', standard_answer_id: 999_999 }, 'actions.0.standard_answer_id'],
      [{ type: 'launch' }, 'actions.0.type'],
    ];
    for (const [action, key] of cases) {
      const res = await call('POST', '/macros', b.admin, { name: 'Fout', actions: [action] });
      expect(res.statusCode, JSON.stringify(action)).toBe(422);
      expect(Object.keys(res.json().errors)).toContain(key);
    }
    // An action the writer may not take by hand (the limited role writes no messages).
    const res = await call('POST', '/macros', b.limited, {
      name: 'Niet van mij',
      personal: true,
      actions: [{ type: 'note', body: 'x' }],
    });
    expect(res.statusCode, res.body).toBe(422);
    expect(Object.keys(res.json().errors)).toEqual(['actions.0']);
  });

  it('keeps a personal macro its owner’s alone, and the team’s macros the sharers’', async () => {
    const actions = [{ type: 'set', field: 'priority_id', value: priorities[1] }];
    // First line may not share.
    const shared = await call('POST', '/macros', firstLine, { name: 'Voor iedereen', actions });
    expect(shared.statusCode).toBe(422);
    expect(Object.keys(shared.json().errors)).toEqual(['personal']);
    const own = await makeMacro({ name: 'Mijn eigen', personal: true, actions }, firstLine);
    // The admin does not see it: not listed, not read, not applied, not changed.
    const list = await call('GET', '/macros', b.admin);
    expect(list.json().data.map((m: { id: number }) => m.id)).not.toContain(own.id);
    expect((await call('GET', `/macros/${own.id}`, b.admin)).statusCode).toBe(404);
    expect((await call('PUT', `/macros/${own.id}`, b.admin, { name: 'Van mij' })).statusCode).toBe(404);
    const id = await newTicket();
    expect((await call('POST', `/macros/${own.id}/apply`, b.admin, { ids: [id] })).statusCode).toBe(404);
    // Its owner does, and may not give it a role, nor turn it into a team macro.
    expect((await call('GET', `/macros/${own.id}`, firstLine)).statusCode).toBe(200);
    const role = await call('PUT', `/macros/${own.id}`, firstLine, { role_id: secondLineRole });
    expect(Object.keys(role.json().errors ?? {})).toEqual(['role_id']);
    const share = await call('PUT', `/macros/${own.id}`, firstLine, { personal: false });
    expect(Object.keys(share.json().errors ?? {})).toEqual(['personal']);
    // A team macro is not first line's to change either.
    const team = await makeMacro({ name: 'Team', actions });
    expect((await call('PUT', `/macros/${team.id}`, firstLine, { name: 'Anders' })).statusCode).toBe(422);
  });

  it('offers the caller the team’s macros for all or for their role and their own personal ones', async () => {
    const actions = [{ type: 'set', field: 'priority_id', value: priorities[1] }];
    const all = await makeMacro({ name: 'Aa voor iedereen', actions, shortcut: 9 });
    const second = await makeMacro({ name: 'Aa tweede lijn', actions, role_id: secondLineRole });
    const mine = await makeMacro({ name: 'Aa persoonlijk', actions, personal: true }, firstLine);
    const offered = async (headers: object) =>
      ((await call('GET', '/macros/offered', headers)).json().data as { id: number }[]).map((m) => m.id);
    const toAdmin = await offered(b.admin);
    expect(toAdmin).toEqual(expect.arrayContaining([all.id, second.id]));
    expect(toAdmin).not.toContain(mine.id);
    const toFirstLine = await offered(firstLine);
    expect(toFirstLine).toEqual(expect.arrayContaining([all.id, mine.id]));
    expect(toFirstLine).not.toContain(second.id);
    // A macro for another role is not applied either.
    const id = await newTicket();
    expect((await call('POST', `/macros/${second.id}/apply`, firstLine, { ids: [id] })).statusCode).toBe(404);
    // A digit names one macro of the team.
    const taken = await call('POST', '/macros', b.admin, { name: 'Ook 9', actions, shortcut: 9 });
    expect(taken.statusCode).toBe(422);
    expect(Object.keys(taken.json().errors)).toEqual(['shortcut']);
  });

  it('is not the portal’s: a client gets 403', async () => {
    expect((await call('GET', '/macros', b.client)).statusCode).toBe(403);
    expect((await call('GET', '/macros/offered', b.client)).statusCode).toBe(403);
  });

  it('says what is wrong with the ids', async () => {
    const macro = await makeMacro({
      name: 'Ids',
      actions: [{ type: 'set', field: 'priority_id', value: priorities[1] }],
    });
    for (const [payload, key] of [
      [{ ids: [] }, 'ids'],
      [{ ids: ['x'] }, 'ids.0'],
      [{}, 'ids'],
    ] as const) {
      const res = await call('POST', `/macros/${macro.id}/apply`, b.admin, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(422);
      expect(Object.keys(res.json().errors)).toEqual([key]);
    }
  });
});
