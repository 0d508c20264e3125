/**
 * Ticket close, restore and clone, and ticket group archive and restore (SPEC 4 and 7, issue 6): each
 * call's effect read back from the database, and the permission of every ticket action. Merge:
 * tests/api/ticket-actions-merge.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, targets, type TestApp } from './harness.ts';
import type { BackOffice } from './back-office.ts';
import { ticketActionsWorld, type TicketActionsWorld } from './ticket-actions-world.ts';

describe.each(targets)('ticket actions on $name', (target) => {
  let t: TestApp;
  let b: BackOffice;
  let status: TicketActionsWorld['status'];
  let defaultStatus: number;
  let fieldA: number;
  let post: TicketActionsWorld['post'];
  let makeTicket: TicketActionsWorld['makeTicket'];
  let fill: TicketActionsWorld['fill'];
  let setValue: TicketActionsWorld['setValue'];
  let owned: TicketActionsWorld['owned'];
  let ticket: TicketActionsWorld['ticket'];

  beforeAll(async () => {
    t = await buildTestApp(target);
    ({ b, status, defaultStatus, fieldA, post, makeTicket, fill, setValue, owned, ticket } =
      await ticketActionsWorld(t));
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
