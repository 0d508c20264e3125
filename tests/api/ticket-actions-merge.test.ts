/**
 * Ticket merge (SPEC 4, issue 6): everything of the other tickets moves to the first, which keeps its own
 * custom values, the others closed; nothing changes for a bad id, another tenant's ticket, a template,
 * tickets of different companies or a bad body; and merge's one transaction loses no row when two race.
 * Close, restore, clone, ticket groups and the permissions: tests/api/ticket-actions-single.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, targets, type TestApp } from './harness.ts';
import type { BackOffice } from './back-office.ts';
import { ticketActionsWorld, type TicketActionsWorld } from './ticket-actions-world.ts';

describe.each(targets)('ticket actions on $name', (target) => {
  let t: TestApp;
  let b: BackOffice;
  let fieldA: number;
  let fieldB: number;
  let post: TicketActionsWorld['post'];
  let makeTicket: TicketActionsWorld['makeTicket'];
  let fill: TicketActionsWorld['fill'];
  let setValue: TicketActionsWorld['setValue'];
  let owned: TicketActionsWorld['owned'];
  let ticket: TicketActionsWorld['ticket'];

  const sum = (counts: Record<string, number>, kind: string) =>
    Object.entries(counts)
      .filter(([key]) => key.startsWith(`${kind} `))
      .reduce((total, [, n]) => total + n, 0);

  beforeAll(async () => {
    t = await buildTestApp(target);
    ({ b, fieldA, fieldB, post, makeTicket, fill, setValue, owned, ticket } = await ticketActionsWorld(t));
  });
  afterAll(() => t?.close());

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
});
