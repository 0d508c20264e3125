/**
 * The `notify` action (issue 37's review, item 3): a rule tells operators in the app in its own words.
 * The notification is of the kind `automation` and carries the action's text, which the bell's list
 * answers and the mail (for an operator who chose mail for the kind) says; it goes to the ticket's
 * operator or to named operators of the tenant, once per run. Bad notify actions are 422s naming the part.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildTestApp, targets, type TestApp } from './harness.ts';
import { backOffice, type BackOffice } from './back-office.ts';

describe.each(targets)('the notify action on $name', (target) => {
  let t: TestApp;
  let b: BackOffice;
  let adminId: number;
  let otherOperatorId: number;
  let foreignOperatorId: number;

  const post = async (url: string, payload: object, headers = b.admin) =>
    t.app.inject({ method: 'POST', url, headers, payload });
  const rule = async (actions: object[], conditions: object[] = []) =>
    post('/api/automation-rules', {
      name: 'Melden',
      kind: 'trigger',
      event: 'ticket_created',
      conditions,
      actions,
    });
  const newTicket = async (description: string, extra: object = {}) => {
    const res = await post('/api/tickets', { description, company_id: b.ownCompanyId, ...extra });
    expect(res.statusCode, res.body).toBe(201);
    return Number(res.json().id);
  };
  const notificationsOf = async (userId: number, ticketId: number) =>
    t.db
      .selectFrom('notifications')
      .select(['kind', 'text', 'actor_id'])
      .where('user_id', '=', userId)
      .where('ticket_id', '=', ticketId)
      .execute();

  beforeAll(async () => {
    t = await buildTestApp(target);
    b = await backOffice(t, []);
    const operators = await sql<{ id: number; email: string; tenant_id: number }>`
      select id, email, tenant_id from users where is_operator > 0 and archived_at is null order by id`.execute(
      t.db,
    );
    adminId = Number(operators.rows.find((u) => u.email === 'admin@example.com')!.id);
    otherOperatorId = Number(
      operators.rows.find((u) => Number(u.tenant_id) === b.tenantId && Number(u.id) !== adminId)!.id,
    );
    const foreign = await t.db
      .insertInto('users')
      .values({
        tenant_id: b.otherTenantId,
        first_name: 'Eva',
        last_name: 'Elders',
        email: `elders${Date.now()}@example.com`,
        is_staff: true,
        is_operator: 1,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    foreignOperatorId = Number(foreign.id);
  }, 120_000);
  afterAll(() => t?.close());
  beforeEach(async () => {
    if (t) await t.db.updateTable('automation_rules').set({ active: false }).execute();
  });

  it("tells the ticket's operator in the rule's words: in the bell's list and, when chosen, by mail", async () => {
    const chosen = await t.app.inject({
      method: 'PUT',
      url: '/api/notification-preferences',
      headers: b.admin,
      payload: { data: [{ kind: 'automation', email: true }] },
    });
    expect(chosen.statusCode, chosen.body).toBe(200);
    const created = await rule(
      [{ type: 'notify', to: 'assigned', text: 'Let op: een VIP-klant meldt een storing' }],
      [{ where: ['description', 'like', 'vip-melding'] }],
    );
    expect(created.statusCode, created.body).toBe(201);
    const ticketId = await newTicket('Storing vip-melding', { operator_id: adminId });
    expect(await notificationsOf(adminId, ticketId)).toContainEqual({
      kind: 'automation',
      text: 'Let op: een VIP-klant meldt een storing',
      actor_id: null,
    });
    const bell = await t.app.inject({ url: '/api/notifications?perPage=100', headers: b.admin });
    expect(bell.statusCode, bell.body).toBe(200);
    const mine = bell.json().data.filter((n: any) => n.ticket_id === ticketId && n.kind === 'automation');
    expect(mine.map((n: any) => n.text)).toEqual(['Let op: een VIP-klant meldt een storing']);
    const mail = await t.db
      .selectFrom('mail_outbox')
      .select(['subject', 'mail'])
      .where('tenant_id', '=', b.tenantId)
      .where('source', '=', 'notifications')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(mail.subject).toContain('Melding van een automatiseringsregel');
    const body = typeof mail.mail === 'string' ? JSON.parse(mail.mail) : mail.mail;
    expect((body as { text: string }).text).toContain('Let op: een VIP-klant meldt een storing');
    // A ticket the conditions do not hold for tells nobody.
    const other = await newTicket('Gewone vraag', { operator_id: adminId });
    expect(await notificationsOf(adminId, other)).toEqual([]);
  });

  it('tells named operators of the tenant, and nobody when the ticket has no operator to tell', async () => {
    const created = await rule(
      [
        { type: 'notify', to: { operator_ids: [otherOperatorId] }, text: 'Nieuw ticket voor team B' },
        { type: 'notify', to: 'assigned', text: 'Voor de behandelaar' },
      ],
      [{ where: ['description', 'like', 'team-b-melding'] }],
    );
    expect(created.statusCode, created.body).toBe(201);
    const ticketId = await newTicket('Printer team-b-melding');
    expect(await notificationsOf(otherOperatorId, ticketId)).toEqual([
      { kind: 'automation', text: 'Nieuw ticket voor team B', actor_id: null },
    ]);
    const anyone = await t.db
      .selectFrom('notifications')
      .select('user_id')
      .where('ticket_id', '=', ticketId)
      .where('kind', '=', 'automation')
      .execute();
    expect(anyone.map((n) => Number(n.user_id))).toEqual([otherOperatorId]);
    const runs = await sql<{ outcome: string }>`select outcome from automation_runs
      where rule_id = ${Number(created.json().id)}`.execute(t.db);
    expect(runs.rows.map((r) => r.outcome)).toEqual(['applied']);
  });

  it.each<[string, object, string]>([
    ['no text', { type: 'notify', to: 'assigned' }, 'actions.0.text'],
    ['an empty text', { type: 'notify', to: 'assigned', text: '  ' }, 'actions.0.text'],
    [
      'a text over 1000 characters',
      { type: 'notify', to: 'assigned', text: 'x'.repeat(1001) },
      'actions.0.text',
    ],
    ['no recipients', { type: 'notify', text: 'Hallo' }, 'actions.0.to'],
    ['an unknown recipient kind', { type: 'notify', to: 'everyone', text: 'Hallo' }, 'actions.0.to'],
  ])('refuses a notify action with %s, naming the part', async (_name, action, key) => {
    const res = await rule([action]);
    expect(res.statusCode, res.body).toBe(422);
    expect(Object.keys(res.json().errors)).toEqual([key]);
  });

  it('refuses an operator of another tenant as a recipient, and takes 1000 characters of text', async () => {
    const foreign = await rule([
      { type: 'notify', to: { operator_ids: [otherOperatorId, foreignOperatorId] }, text: 'Hallo' },
    ]);
    expect(foreign.statusCode, foreign.body).toBe(422);
    expect(Object.keys(foreign.json().errors)).toEqual(['actions.0.to.operator_ids.1']);
    const long = await rule([{ type: 'notify', to: 'assigned', text: 'x'.repeat(1000) }]);
    expect(long.statusCode, long.body).toBe(201);
  });
});
