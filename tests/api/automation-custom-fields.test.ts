/**
 * A rule's or macro's `set` action on a custom field (issue 37: set fields, custom fields included) on
 * both engines: the value is stored as a form would store it, and the change is in the ticket's history
 * by the rule (or by the user who applied the macro), its labels naming the field; a rule naming a
 * custom field the tenant does not have is a 422 naming the action's field. A custom value changed by
 * hand in the ticket's form is in the history the same way.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildTestApp, targets, type TestApp } from './harness.ts';
import { backOffice, type BackOffice } from './back-office.ts';

describe.each(targets)('custom fields set by automation on $name', (target) => {
  let t: TestApp;
  let b: BackOffice;

  const post = async (url: string, payload: object) =>
    t.app.inject({ method: 'POST', url, headers: b.admin, payload });
  const value = async (ticketId: number) =>
    (
      await t.db
        .selectFrom('custom_values as v')
        .innerJoin('custom_fields as f', 'f.id', 'v.custom_field_id')
        .select('v.value')
        .where('f.name', '=', 'locatie')
        .where('v.morphable_type', '=', 'ticket')
        .where('v.morphable_id', '=', ticketId)
        .executeTakeFirst()
    )?.value;
  const history = async (ticketId: number) =>
    t.db
      .selectFrom('ticket_changes')
      .select(['field', 'from_value', 'to_value', 'from_label', 'to_label', 'rule_id', 'user_id'])
      .where('ticket_id', '=', ticketId)
      .where('field', '=', 'custom_field')
      .orderBy('id')
      .execute();
  const admin = async () =>
    Number(
      (
        await t.db
          .selectFrom('users')
          .select('id')
          .where('email', '=', 'admin@example.com')
          .executeTakeFirstOrThrow()
      ).id,
    );

  beforeAll(async () => {
    t = await buildTestApp(target);
    b = await backOffice(t, []);
    const field = await post('/api/custom-fields', {
      name: 'locatie',
      title: 'Locatie',
      type: 0,
      morphable_type: 'ticket',
    });
    expect(field.statusCode, field.body).toBe(201);
    const choice = await post('/api/custom-fields', {
      name: 'omgeving',
      title: 'Omgeving',
      type: 1,
      morphable_type: 'ticket',
      options: [
        { name: 'test', label: 'Test' },
        { name: 'productie', label: 'Productie' },
      ],
    });
    expect(choice.statusCode, choice.body).toBe(201);
  }, 120_000);
  afterAll(async () => {
    await t?.close();
  });
  beforeEach(async () => {
    if (t) await t.db.updateTable('automation_rules').set({ active: false }).execute();
  });

  it('stores the value a rule sets and records the change in the history by the rule', async () => {
    const rule = await post('/api/automation-rules', {
      kind: 'trigger',
      name: 'Locatie invullen',
      event: 'ticket_created',
      actions: [{ type: 'set', field: 'custom_fields.locatie', value: 'Utrecht' }],
    });
    expect(rule.statusCode, rule.body).toBe(201);
    const ruleId = Number(rule.json().id);
    const created = await post('/api/tickets', { description: 'Waar?', company_id: b.ownCompanyId });
    expect(created.statusCode, created.body).toBe(201);
    const id = Number(created.json().id);
    expect(await value(id)).toBe('Utrecht');
    expect(await history(id)).toEqual([
      {
        field: 'custom_field',
        from_value: null,
        to_value: 'Utrecht',
        from_label: null,
        to_label: 'Locatie: Utrecht',
        rule_id: ruleId,
        user_id: null,
      },
    ]);
    // The history as the back office reads it: the change and the rule that made it.
    const read = await t.app.inject({
      url: `/api/ticket-changes?builder[0][where][0]=ticket_id&builder[0][where][1]==&builder[0][where][2]=${id}&with[0]=rule`,
      headers: b.admin,
    });
    expect(read.statusCode, read.body).toBe(200);
    expect(
      read
        .json()
        .data.map((c: { field: string; to_label: string; rule?: { name: string } }) => [
          c.field,
          c.to_label,
          c.rule?.name,
        ]),
    ).toEqual([['custom_field', 'Locatie: Utrecht', 'Locatie invullen']]);
  });

  it("records a macro's change of a custom field by the operator who applied it, and no unchanged one", async () => {
    const macro = await post('/api/macros', {
      name: 'Naar Amersfoort',
      actions: [{ type: 'set', field: 'custom_fields.locatie', value: 'Amersfoort' }],
    });
    expect(macro.statusCode, macro.body).toBe(201);
    const created = await post('/api/tickets', { description: 'Verhuizing', company_id: b.ownCompanyId });
    const id = Number(created.json().id);
    for (let i = 0; i < 2; i++) {
      const applied = await post(`/api/macros/${macro.json().id}/apply`, { ids: [id] });
      expect(applied.statusCode, applied.body).toBe(200);
    }
    expect(await value(id)).toBe('Amersfoort');
    expect(await history(id)).toEqual([
      {
        field: 'custom_field',
        from_value: null,
        to_value: 'Amersfoort',
        from_label: null,
        to_label: 'Locatie: Amersfoort',
        rule_id: null,
        user_id: await admin(),
      },
    ]);
  });

  it('records a custom value changed by hand in the form, each changed field once, no unchanged one', async () => {
    const created = await post('/api/tickets', {
      description: 'Nieuwe werkplek',
      company_id: b.ownCompanyId,
      custom_fields: { locatie: 'Utrecht' },
    });
    expect(created.statusCode, created.body).toBe(201);
    const id = Number(created.json().id);
    const put = (custom_fields: object) =>
      t.app.inject({
        method: 'PUT',
        url: `/api/tickets/${id}`,
        headers: b.admin,
        payload: { custom_fields },
      });
    // Creating is no change; then a change of one field, the same value again, two fields, one emptied.
    for (const values of [{ locatie: 'Zwolle' }, { locatie: 'Zwolle' }, { locatie: '', omgeving: 'test' }]) {
      const res = await put(values);
      expect(res.statusCode, res.body).toBe(200);
    }
    const rows = await t.db
      .selectFrom('ticket_changes')
      .select(['from_label', 'to_label', 'user_id', 'user_label'])
      .where('ticket_id', '=', id)
      .where('field', '=', 'custom_field')
      .orderBy('id')
      .execute();
    const by = { user_id: await admin(), user_label: 'Sanne Bakker' };
    expect(rows).toEqual([
      { from_label: 'Locatie: Utrecht', to_label: 'Locatie: Zwolle', ...by },
      { from_label: 'Locatie: Zwolle', to_label: null, ...by },
      { from_label: null, to_label: 'Omgeving: test', ...by },
    ]);
    // A refused value changes nothing and records nothing.
    const refused = await put({ omgeving: 'acceptatie' });
    expect(refused.statusCode).toBe(422);
    expect(
      await t.db
        .selectFrom('ticket_changes')
        .select('id')
        .where('ticket_id', '=', id)
        .where('field', '=', 'custom_field')
        .execute(),
    ).toHaveLength(3);
  });

  it('refuses a rule that sets a custom field the tenant does not have, naming the action', async () => {
    const res = await post('/api/automation-rules', {
      kind: 'trigger',
      name: 'Onbekend veld',
      event: 'ticket_created',
      actions: [
        { type: 'note', body: '<p>x</p>' },
        { type: 'set', field: 'custom_fields.bestaat_niet', value: 'x' },
      ],
    });
    expect(res.statusCode, res.body).toBe(422);
    expect(Object.keys(res.json().errors)).toEqual(['actions.1.field']);
    expect(res.json().errors['actions.1.field'][0]).toContain('bestaat_niet');
  });

  it('refuses a value the custom field does not take (no option of its list), naming the value', async () => {
    const body = (value: string) => ({
      kind: 'trigger',
      name: 'Omgeving',
      event: 'ticket_created',
      actions: [{ type: 'set', field: 'custom_fields.omgeving', value }],
    });
    const res = await post('/api/automation-rules', body('acceptatie'));
    expect(res.statusCode, res.body).toBe(422);
    expect(Object.keys(res.json().errors)).toEqual(['actions.0.value']);
    expect((await post('/api/automation-rules', body('productie'))).statusCode).toBe(201);
  });
});
