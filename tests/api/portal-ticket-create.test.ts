/**
 * A client creates a ticket in the portal (SPEC 5): the fields the tenant marks required for the portal
 * (config portal_ticket_fields) and the required custom fields must be filled; the ticket is the client's
 * own and starts in the default status whatever the client sends; custom values are stored with it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, targets, type TestApp } from './harness.ts';

const CLIENT = 'client@example.com';
const ADMIN = 'admin@example.com';

describe.each(targets)('portal ticket create on $name', (target) => {
  let t: TestApp;
  let jansen: number;
  let priority: number;
  let defaultStatus: number;
  let closedStatus: number;

  const post = async (email: string, payload: object) =>
    t.app.inject({ method: 'POST', url: '/api/tickets', headers: await t.as(email), payload });

  beforeAll(async () => {
    t = await buildTestApp(target);
    jansen = (
      await t.db
        .selectFrom('companies')
        .select('id')
        .where('name', '=', 'Jansen BV')
        .executeTakeFirstOrThrow()
    ).id;
    priority = (await t.db.selectFrom('priorities').select('id').executeTakeFirstOrThrow()).id;
    defaultStatus = Number(
      (
        await t.db
          .selectFrom('tenant_configs')
          .select('value')
          .where('name', '=', 'default_ticket_status_id')
          .executeTakeFirstOrThrow()
      ).value,
    );
    closedStatus = (
      await t.db
        .selectFrom('ticket_statuses')
        .select('id')
        .where('internal_type', '=', 2)
        .executeTakeFirstOrThrow()
    ).id;
  });
  afterAll(() => t?.close());

  it('the portal reads its ticket form settings, and no other setting', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/config', headers: await t.as(CLIENT) });
    expect(res.statusCode).toBe(200);
    const rows = res.json().data;
    expect(rows.map((r: { name: string }) => r.name)).toEqual(['portal_ticket_fields']);
    expect(JSON.parse(rows[0].value)).toEqual([
      { field: 'description', required: true },
      { field: 'priority_id', required: true },
      { field: 'asset_id', required: false },
    ]);
    const me = await t.app.inject({ method: 'GET', url: '/api/auth/me', headers: await t.as(CLIENT) });
    expect(me.json().lists.configs.map((r: { name: string }) => r.name)).toEqual(['portal_ticket_fields']);
    expect(Object.keys(me.json().lists.custom_fields)).toContain('impact');
  });

  it('refuses a ticket without the fields the portal requires, naming each', async () => {
    const res = await post(CLIENT, { description: 'Printer kapot', company_id: jansen });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toEqual({ priority_id: ['The priority_id field is required.'] });
  });

  it('refuses a ticket without a required custom field, and a value outside its options', async () => {
    const missing = await post(CLIENT, {
      description: 'Printer kapot',
      company_id: jansen,
      priority_id: priority,
    });
    expect(missing.statusCode).toBe(422);
    expect(missing.json().errors).toEqual({ 'custom_fields.impact': ['The Impact field is required.'] });

    const wrong = await post(CLIENT, {
      description: 'Printer kapot',
      company_id: jansen,
      priority_id: priority,
      custom_fields: { impact: 'planet', nonsense: 'x' },
    });
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json().errors).toEqual({
      'custom_fields.impact': ['The selected Impact is invalid.'],
      'custom_fields.nonsense': ['There is no custom field nonsense.'],
    });
    const bad = await post(CLIENT, { description: 'x', company_id: jansen, custom_fields: 'impact' });
    expect(bad.statusCode).toBe(422);
  });

  it('creates the client’s own ticket in the default status, with its custom values', async () => {
    const res = await post(CLIENT, {
      description: 'Printer kapot',
      company_id: jansen,
      priority_id: priority,
      status_id: closedStatus,
      custom_fields: { impact: 'department', kostenplaats: 'KP-7' },
    });
    expect(res.statusCode, res.body).toBe(201);
    const ticket = res.json();
    expect(ticket.status_id).toBe(defaultStatus);
    const client = await t.db
      .selectFrom('users')
      .select('id')
      .where('email', '=', CLIENT)
      .executeTakeFirstOrThrow();
    expect(ticket.client_id).toBe(client.id);
    const values = await t.db
      .selectFrom('custom_values as v')
      .innerJoin('custom_fields as f', 'f.id', 'v.custom_field_id')
      .select(['f.name', 'v.value'])
      .where('v.morphable_type', '=', 'ticket')
      .where('v.morphable_id', '=', ticket.id)
      .orderBy('f.name')
      .execute();
    expect(values).toEqual([
      { name: 'impact', value: 'department' },
      { name: 'kostenplaats', value: 'KP-7' },
    ]);
    // The client reads them back through the ticket.
    const shown = await t.app.inject({
      method: 'GET',
      url: `/api/tickets/${ticket.id}?with[0]=customValues`,
      headers: await t.as(CLIENT),
    });
    expect(shown.statusCode, shown.body).toBe(200);
    expect(
      shown
        .json()
        .customValues.map((v: { value: string }) => v.value)
        .sort(),
    ).toEqual(['KP-7', 'department']);
  });

  it('an operator may leave custom fields and the status out, and change a value later', async () => {
    const res = await post(ADMIN, { description: 'Telefoon gemeld', company_id: jansen });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().status_id).toBe(defaultStatus);
    const id = res.json().id;
    const update = await t.app.inject({
      method: 'PUT',
      url: `/api/tickets/${id}`,
      headers: await t.as(ADMIN),
      payload: { custom_fields: { impact: 'organisation' } },
    });
    expect(update.statusCode, update.body).toBe(200);
    const again = await t.app.inject({
      method: 'PUT',
      url: `/api/tickets/${id}`,
      headers: await t.as(ADMIN),
      payload: { custom_fields: { impact: null } },
    });
    expect(again.statusCode).toBe(200);
    const left = await t.db
      .selectFrom('custom_values')
      .select('value')
      .where('morphable_type', '=', 'ticket')
      .where('morphable_id', '=', id)
      .execute();
    expect(left).toEqual([]);
  });
});
