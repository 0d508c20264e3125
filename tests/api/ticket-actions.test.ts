/**
 * Ticket close, restore, clone and merge, and ticket group archive and restore (SPEC 4 and 7, issue 6):
 * each call's effect read back from the database, its permission, and merge's one transaction.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, targets, type TestApp } from './harness.ts';
import { backOffice, type BackOffice } from './back-office.ts';

const WITHHELD = [
  'tenant.tickets.close',
  'tenant.tickets.restore',
  'tenant.tickets.clone',
  'tenant.tickets.merge',
  'tenant.ticket-groups.archive',
];

describe.each(targets)('ticket actions on $name', (target) => {
  let t: TestApp;
  let b: BackOffice;
  const status: Record<number, number> = {};
  let defaultStatus: number;
  let fieldA: number;
  let fieldB: number;
  let serial = 0;

  const post = (url: string, headers: Record<string, string>, payload?: object) =>
    t.app.inject({ method: 'POST', url, headers, ...(payload && { payload }) });

  async function makeTicket(options: { type?: number; companyId?: number | null; tenantId?: number } = {}) {
    serial += 1;
    const row = await t.db
      .insertInto('tickets')
      .values({
        tenant_id: options.tenantId ?? b.tenantId,
        reference: `TEST-${serial}`,
        description: `Testticket ${serial}`,
        stage: 'intake',
        status_id: status[options.type ?? 1]!,
        company_id: options.companyId === undefined ? b.ownCompanyId : options.companyId,
        deadline: new Date('2026-12-01T10:00:00Z'),
        resolved_at: options.type === 2 || options.type === 3 ? new Date() : null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return Number(row.id);
  }

  /** A message with one attachment, a time registration and a used product on the ticket. */
  async function fill(ticketId: number) {
    const message = await t.db
      .insertInto('messages')
      .values({
        tenant_id: b.tenantId,
        message: '<p>x</p>',
        morphable_type: 'ticket',
        morphable_id: ticketId,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await t.db
      .insertInto('attachments')
      .values({ tenant_id: b.tenantId, message_id: message.id, name: 'a.txt', path: `test/${ticketId}` })
      .execute();
    await t.db
      .insertInto('time_registrations')
      .values({ tenant_id: b.tenantId, ticket_id: ticketId, time_spent: 30, executed_at: new Date() })
      .execute();
    await t.db
      .insertInto('used_products')
      .values({
        tenant_id: b.tenantId,
        ticket_id: ticketId,
        description: 'Kabel',
        quantity: 1,
        price: 5,
        invoice_moment: 1,
        type: 1,
      })
      .execute();
  }

  const setValue = (ticketId: number, fieldId: number, value: string) =>
    t.db
      .insertInto('custom_values')
      .values({
        tenant_id: b.tenantId,
        custom_field_id: fieldId,
        morphable_type: 'ticket',
        morphable_id: ticketId,
        value,
      })
      .execute();

  /** Rows per table owned by each ticket. */
  async function owned(ids: number[]) {
    const count = async (query: any) => Number((await query.executeTakeFirstOrThrow()).n);
    const result: Record<string, number> = {};
    for (const id of ids) {
      result[`messages ${id}`] = await count(
        t.db
          .selectFrom('messages')
          .select((eb) => eb.fn.countAll().as('n'))
          .where('morphable_type', '=', 'ticket')
          .where('morphable_id', '=', id),
      );
      result[`attachments ${id}`] = await count(
        t.db
          .selectFrom('attachments as a')
          .innerJoin('messages as m', 'm.id', 'a.message_id')
          .select((eb) => eb.fn.countAll().as('n'))
          .where('m.morphable_type', '=', 'ticket')
          .where('m.morphable_id', '=', id),
      );
      for (const table of ['time_registrations', 'used_products'] as const) {
        result[`${table} ${id}`] = await count(
          t.db
            .selectFrom(table)
            .select((eb) => eb.fn.countAll().as('n'))
            .where('ticket_id', '=', id),
        );
      }
    }
    return result;
  }

  const sum = (counts: Record<string, number>, kind: string) =>
    Object.entries(counts)
      .filter(([key]) => key.startsWith(`${kind} `))
      .reduce((total, [, n]) => total + n, 0);

  const ticket = (id: number) =>
    t.db
      .selectFrom('tickets as t')
      .innerJoin('ticket_statuses as s', 's.id', 't.status_id')
      .select(['t.status_id', 't.resolved_at', 's.internal_type', 't.reference', 't.updated_at'])
      .where('t.id', '=', id)
      .executeTakeFirstOrThrow();

  beforeAll(async () => {
    t = await buildTestApp(target);
    b = await backOffice(t, WITHHELD);
    const statuses = await t.db
      .selectFrom('ticket_statuses')
      .select(['id', 'internal_type'])
      .where('tenant_id', '=', b.tenantId)
      .orderBy('order')
      .orderBy('id')
      .execute();
    for (const s of statuses) status[Number(s.internal_type)] ??= Number(s.id);
    const configured = await t.db
      .selectFrom('tenant_configs')
      .select('value')
      .where('tenant_id', '=', b.tenantId)
      .where('name', '=', 'default_ticket_status_id')
      .executeTakeFirst();
    defaultStatus = configured?.value ? Number(configured.value) : status[1]!;
    const fields = await t.db
      .insertInto('custom_fields')
      .values([
        { tenant_id: b.tenantId, name: 'merk', title: 'Merk', type: 0, morphable_type: 'ticket' },
        { tenant_id: b.tenantId, name: 'kleur', title: 'Kleur', type: 0, morphable_type: 'ticket' },
      ])
      .returning('id')
      .execute();
    [fieldA, fieldB] = fields.map((f) => Number(f.id)) as [number, number];
  });
  afterAll(() => t?.close());

  describe('POST /api/tickets/{id}/close', () => {
    it('sets the closed status and resolved_at', async () => {
      const id = await makeTicket();
      const res = await post(`/api/tickets/${id}/close`, b.admin);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().status_id).toBe(status[2]);
      const row = await ticket(id);
      expect(row.internal_type).toBe(2);
      expect(row.resolved_at).not.toBeNull();
    });

    it('refuses a ticket that is closed already, and an archived one, with 422', async () => {
      for (const type of [2, 3]) {
        const id = await makeTicket({ type });
        const before = await ticket(id);
        const res = await post(`/api/tickets/${id}/close`, b.admin);
        expect(res.statusCode).toBe(422);
        expect(res.json()).toMatchObject({
          message: expect.any(String),
          errors: { status_id: expect.any(Array) },
        });
        expect(await ticket(id)).toEqual(before);
      }
    });
  });

  describe('POST /api/tickets/{id}/restore', () => {
    it('puts a closed or archived ticket back in the default status and clears resolved_at', async () => {
      for (const type of [2, 3]) {
        const id = await makeTicket({ type });
        const res = await post(`/api/tickets/${id}/restore`, b.admin);
        expect(res.statusCode, res.body).toBe(200);
        const row = await ticket(id);
        expect(row.status_id).toBe(defaultStatus);
        expect(row.resolved_at).toBeNull();
      }
    });

    it('refuses a ticket that is not closed or archived with 422', async () => {
      const id = await makeTicket({ type: 1 });
      const res = await post(`/api/tickets/${id}/restore`, b.admin);
      expect(res.statusCode).toBe(422);
      expect(res.json().message).toBe('Only a closed or archived ticket can be restored.');
    });
  });

  describe('POST /api/tickets/{id}/clone', () => {
    it('answers a new ticket with the same fields and custom values, a new reference and no messages', async () => {
      const id = await makeTicket({ type: 2 });
      await fill(id);
      await setValue(id, fieldA, 'Dell');
      const res = await post(`/api/tickets/${id}/clone`, b.admin);
      expect(res.statusCode, res.body).toBe(201);
      const clone = res.json();
      expect(clone.id).not.toBe(id);
      const read = (i: number) =>
        t.db.selectFrom('tickets').selectAll().where('id', '=', i).executeTakeFirstOrThrow();
      const [original, copy] = [await read(id), await read(clone.id)];
      for (const field of ['description', 'stage', 'company_id', 'tenant_id', 'is_template'] as const)
        expect(copy[field], field).toEqual(original[field]);
      expect(copy.deadline).toEqual(original.deadline);
      expect(copy.reference).toMatch(/^T-\d{4}-\d{5}$/);
      expect(copy.reference).not.toBe(original.reference);
      expect(copy.status_id).toBe(defaultStatus);
      expect(copy.resolved_at).toBeNull();
      const counts = await owned([clone.id]);
      expect(Object.values(counts)).toEqual([0, 0, 0, 0]);
      const values = await t.db
        .selectFrom('custom_values')
        .select(['custom_field_id', 'value'])
        .where('morphable_type', '=', 'ticket')
        .where('morphable_id', '=', clone.id)
        .execute();
      expect(values).toEqual([{ custom_field_id: fieldA, value: 'Dell' }]);
    });
  });

  describe('POST /api/tickets/merge', () => {
    it('moves everything of the other tickets to the first one and closes them', async () => {
      const [kept, one, two] = [await makeTicket(), await makeTicket(), await makeTicket({ type: 4 })];
      for (const id of [kept, one, one, two]) await fill(id);
      await setValue(kept, fieldA, 'kept');
      await setValue(one, fieldA, 'merged');
      await setValue(one, fieldB, 'blauw');
      const before = await owned([kept, one, two]);
      const res = await post('/api/tickets/merge', b.admin, { ids: [kept, one, two] });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().id).toBe(kept);
      const after = await owned([kept, one, two]);
      for (const kind of ['messages', 'attachments', 'time_registrations', 'used_products']) {
        expect(after[`${kind} ${kept}`], kind).toBe(sum(before, kind));
        expect(after[`${kind} ${one}`]! + after[`${kind} ${two}`]!, kind).toBe(0);
      }
      const values = await t.db
        .selectFrom('custom_values')
        .select(['custom_field_id', 'value', 'morphable_id'])
        .where('morphable_type', '=', 'ticket')
        .where('morphable_id', 'in', [kept, one, two])
        .orderBy('custom_field_id')
        .execute();
      expect(values).toEqual([
        { custom_field_id: fieldA, value: 'kept', morphable_id: kept },
        { custom_field_id: fieldB, value: 'blauw', morphable_id: kept },
      ]);
      for (const id of [one, two]) {
        const row = await ticket(id);
        expect(row.internal_type).toBe(2);
        expect(row.resolved_at).not.toBeNull();
      }
      expect((await ticket(kept)).internal_type).toBe(1);
    });

    it('changes nothing when one id does not exist, is of another tenant or is a template', async () => {
      const [kept, one] = [await makeTicket(), await makeTicket()];
      await fill(one);
      const foreign = await makeTicket({ tenantId: b.otherTenantId, companyId: null });
      const template = await makeTicket();
      await t.db.updateTable('tickets').set({ is_template: true }).where('id', '=', template).execute();
      for (const bad of [2_000_000_000, foreign, template]) {
        const before = await owned([kept, one]);
        const states = [await ticket(kept), await ticket(one)];
        const res = await post('/api/tickets/merge', b.admin, { ids: [kept, one, bad] });
        expect(res.statusCode).toBe(422);
        expect(Object.keys(res.json().errors)).toEqual(['ids.2']);
        expect(await owned([kept, one])).toEqual(before);
        expect([await ticket(kept), await ticket(one)]).toEqual(states);
      }
    });

    it('refuses tickets of different companies, which would show one client the messages of another', async () => {
      const [a, c] = [await makeTicket(), await makeTicket({ companyId: b.otherCompanyId })];
      await fill(c);
      const before = await owned([a, c]);
      const res = await post('/api/tickets/merge', b.admin, { ids: [a, c] });
      expect(res.statusCode).toBe(422);
      expect(await owned([a, c])).toEqual(before);
    });

    it('answers 422 for a body that is not two or more different ids', async () => {
      const id = await makeTicket();
      for (const payload of [
        {},
        { ids: [id] },
        { ids: [id, id] },
        { ids: 'x' },
        { ids: [id, -1] },
        { ids: [id, 'a'] },
        { ids: [id, id + 1], x: 1 },
      ]) {
        const res = await post('/api/tickets/merge', b.admin, payload);
        expect(res.statusCode, JSON.stringify(payload)).toBe(422);
        expect(res.json()).toMatchObject({ message: expect.any(String), errors: expect.any(Object) });
      }
    });

    it('loses no row when two merges race on overlapping tickets', async () => {
      const [a, shared, c] = [await makeTicket(), await makeTicket(), await makeTicket()];
      for (const id of [a, shared, shared, c]) await fill(id);
      const before = await owned([a, shared, c]);
      const results = await Promise.all([
        post('/api/tickets/merge', b.admin, { ids: [a, shared] }),
        post('/api/tickets/merge', b.admin, { ids: [c, shared] }),
      ]);
      expect(results.map((r) => r.statusCode)).toEqual([200, 200]);
      const after = await owned([a, shared, c]);
      for (const kind of ['messages', 'attachments', 'time_registrations', 'used_products']) {
        expect(sum(after, kind), kind).toBe(sum(before, kind));
        expect(after[`${kind} ${shared}`], kind).toBe(0);
      }
    });
  });

  describe('permissions', () => {
    const calls = (id: number, other: number): [string, object | undefined][] => [
      [`/api/tickets/${id}/close`, undefined],
      [`/api/tickets/${id}/restore`, undefined],
      [`/api/tickets/${id}/clone`, undefined],
      ['/api/tickets/merge', { ids: [id, other] }],
      [`/api/ticket-groups/${id}/archive`, undefined],
    ];

    it('refuses a client and an operator whose role lacks the action with 403, changing nothing', async () => {
      const [id, other] = [await makeTicket({ type: 2 }), await makeTicket()];
      const before = [await ticket(id), await ticket(other)];
      const count = async () =>
        Number(
          (
            await t.db
              .selectFrom('tickets')
              .select((eb) => eb.fn.countAll().as('n'))
              .executeTakeFirstOrThrow()
          ).n,
        );
      const tickets = await count();
      for (const headers of [b.client, b.limited]) {
        for (const [url, payload] of calls(id, other)) {
          const res = await post(url, headers, payload);
          expect(res.statusCode, url).toBe(403);
        }
      }
      expect([await ticket(id), await ticket(other)]).toEqual(before);
      expect(await count()).toBe(tickets);
    });

    it('answers 404 for a ticket of another tenant and 422 for a malformed id', async () => {
      const foreign = await makeTicket({ tenantId: b.otherTenantId, companyId: null, type: 2 });
      for (const action of ['close', 'restore', 'clone']) {
        expect((await post(`/api/tickets/${foreign}/${action}`, b.admin)).statusCode, action).toBe(404);
        expect((await post(`/api/tickets/abc/${action}`, b.admin)).statusCode, action).toBe(422);
      }
      expect((await ticket(foreign)).internal_type).toBe(2);
    });
  });

  describe('ticket groups', () => {
    const makeGroup = async (tenantId = b.tenantId) =>
      Number(
        (
          await t.db
            .insertInto('ticket_groups')
            .values({ tenant_id: tenantId, name: 'Migratie' })
            .returning('id')
            .executeTakeFirstOrThrow()
        ).id,
      );
    const archivedAt = async (id: number) =>
      (
        await t.db
          .selectFrom('ticket_groups')
          .select('archived_at')
          .where('id', '=', id)
          .executeTakeFirstOrThrow()
      ).archived_at;

    it('archives with POST …/archive and restores with PUT {archived_at: null}', async () => {
      const id = await makeGroup();
      const res = await post(`/api/ticket-groups/${id}/archive`, b.admin);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().archived_at).not.toBeNull();
      const first = await archivedAt(id);
      expect(first).not.toBeNull();
      // Archiving again keeps the first date.
      expect((await post(`/api/ticket-groups/${id}/archive`, b.admin)).statusCode).toBe(200);
      expect(await archivedAt(id)).toEqual(first);
      const restore = await t.app.inject({
        method: 'PUT',
        url: `/api/ticket-groups/${id}`,
        headers: b.admin,
        payload: { archived_at: null },
      });
      expect(restore.statusCode, restore.body).toBe(200);
      expect(await archivedAt(id)).toBeNull();
    });

    it('answers 404 for a group of another tenant', async () => {
      const id = await makeGroup(b.otherTenantId);
      expect((await post(`/api/ticket-groups/${id}/archive`, b.admin)).statusCode).toBe(404);
      expect(await archivedAt(id)).toBeNull();
    });
  });
});
