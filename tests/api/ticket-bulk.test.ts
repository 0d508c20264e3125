/**
 * Bulk actions on tickets (issue 18, item 3): POST /api/tickets/bulk sets an x-bulk field, closes or
 * merges the selected tickets or every ticket of a filter, in one transaction, each change in the
 * history and a new status in the thread; the action's permission is needed, another tenant's tickets
 * are not changed and not counted, and more than the cap is a 422 that changes nothing.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, targets, type TestApp } from './harness.ts';
import { backOffice, type BackOffice } from './back-office.ts';

const MARK = 'Bulkproef';

describe.each(targets)('ticket bulk actions on $name', (target) => {
  let t: TestApp;
  let b: BackOffice;
  let foreignId: number;
  const status: Record<string, number> = {};
  const priority: Record<string, number> = {};
  let operatorId: number;

  const bulk = (payload: object, headers: Record<string, string>) =>
    t.app.inject({ method: 'POST', url: '/api/tickets/bulk', headers, payload });

  /** Tickets of the demo client's company, in status Nieuw with priority Laag and no operator. */
  const newTickets = async (count: number, label: string) => {
    const rows = await t.db
      .insertInto('tickets')
      .values(
        Array.from({ length: count }, (_, i) => ({
          tenant_id: b.tenantId,
          company_id: b.ownCompanyId,
          status_id: status.Nieuw!,
          priority_id: priority.Laag!,
          description: `${MARK} ${label} ${i + 1}`,
        })),
      )
      .returning('id')
      .execute();
    return rows.map((r) => Number(r.id)).sort((x, y) => x - y);
  };

  const changes = async (ids: number[]) =>
    (
      await sql<{ ticket_id: number; field: string; to_value: string | null }>`
        select ticket_id, field, to_value from ticket_changes where ticket_id in (${sql.join(ids)})
        order by ticket_id, id`.execute(t.db)
    ).rows.map((r) => ({ ...r, ticket_id: Number(r.ticket_id) }));

  const statusMessages = async (ids: number[]) =>
    Number(
      (
        await sql<{ n: number }>`select count(*)::int as n from messages where type = 'status-changed'
          and morphable_type = 'ticket' and morphable_id in (${sql.join(ids)})`.execute(t.db)
      ).rows[0]!.n,
    );

  const ticketRows = async (ids: number[]) =>
    (
      await sql<{ id: number; status_id: number; operator_id: number | null; priority_id: number | null }>`
        select id, status_id, operator_id, priority_id from tickets where id in (${sql.join(ids)})
        order by id`.execute(t.db)
    ).rows.map((r) => ({
      id: Number(r.id),
      status_id: Number(r.status_id),
      operator_id: r.operator_id === null ? null : Number(r.operator_id),
      priority_id: r.priority_id === null ? null : Number(r.priority_id),
    }));

  beforeAll(async () => {
    t = await buildTestApp(target);
    b = await backOffice(t, ['tenant.tickets.update', 'tenant.tickets.close']);
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
    operatorId = Number(
      (
        await t.db
          .selectFrom('users')
          .select('id')
          .where('email', '=', 'operator@example.com')
          .executeTakeFirstOrThrow()
      ).id,
    );
    const otherStatus = await t.db
      .insertInto('ticket_statuses')
      .values({ tenant_id: b.otherTenantId, name: 'Open', name_client: 'Open', internal_type: 1 })
      .returning('id')
      .executeTakeFirstOrThrow();
    const foreign = await t.db
      .insertInto('tickets')
      .values({ tenant_id: b.otherTenantId, status_id: otherStatus.id, description: `${MARK} elders` })
      .returning('id')
      .executeTakeFirstOrThrow();
    foreignId = Number(foreign.id);
  }, 120_000);
  afterAll(() => t?.close());

  it('assigns the selected tickets to an operator, each change in the history; another tenant is left out', async () => {
    const ids = await newTickets(3, 'toewijzen');
    const res = await bulk(
      { action: 'update', ids: [...ids, foreignId], changes: { operator_id: operatorId } },
      b.admin,
    );
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ count: 3, ids });
    expect((await ticketRows(ids)).map((r) => r.operator_id)).toEqual([operatorId, operatorId, operatorId]);
    expect(await changes(ids)).toEqual(
      ids.map((id) => ({ ticket_id: id, field: 'operator_id', to_value: String(operatorId) })),
    );
    const foreign = await sql<{
      operator_id: number | null;
    }>`select operator_id from tickets where id = ${foreignId}`.execute(t.db);
    expect(foreign.rows[0]!.operator_id).toBeNull();
    expect(await changes([foreignId])).toEqual([]);
    // Again: nothing changes, nothing is counted, nothing more in the history.
    const again = await bulk({ action: 'update', ids, changes: { operator_id: operatorId } }, b.admin);
    expect(again.json()).toEqual({ count: 0, ids: [] });
    expect(await changes(ids)).toHaveLength(3);
  });

  it('changes status and priority together: the history has both, the thread the new status', async () => {
    const ids = await newTickets(2, 'status');
    const res = await bulk(
      { action: 'update', ids, changes: { status_id: status['In behandeling'], priority_id: priority.Hoog } },
      b.admin,
    );
    expect(res.json()).toEqual({ count: 2, ids });
    expect(await ticketRows(ids)).toEqual(
      ids.map((id) => ({
        id,
        status_id: status['In behandeling'],
        operator_id: null,
        priority_id: priority.Hoog,
      })),
    );
    expect(await changes(ids)).toEqual(
      ids.flatMap((id) => [
        { ticket_id: id, field: 'status_id', to_value: String(status['In behandeling']) },
        { ticket_id: id, field: 'priority_id', to_value: String(priority.Hoog) },
      ]),
    );
    expect(await statusMessages(ids)).toBe(2);
  });

  it('sets the ticket group of every ticket of a filter', async () => {
    const ids = await newTickets(2, 'groepfilter');
    const group = await t.db
      .insertInto('ticket_groups')
      .values({ tenant_id: b.tenantId, company_id: b.ownCompanyId, name: `${MARK} groep` })
      .returning('id')
      .executeTakeFirstOrThrow();
    const builder = [{ where: ['description', 'like', `${MARK} groepfilter`] }];
    const res = await bulk({ action: 'update', builder, changes: { ticket_group_id: group.id } }, b.admin);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ count: 2, ids });
    expect(await changes(ids)).toEqual(
      ids.map((id) => ({ ticket_id: id, field: 'ticket_group_id', to_value: String(group.id) })),
    );
  });

  it('closes the open tickets of the selection and counts only those', async () => {
    const ids = await newTickets(3, 'sluiten');
    await sql`update tickets set status_id = ${status.Opgelost} where id = ${ids[2]}`.execute(t.db);
    const res = await bulk({ action: 'close', ids }, b.admin);
    expect(res.json()).toEqual({ count: 2, ids: ids.slice(0, 2) });
    expect((await ticketRows(ids)).map((r) => r.status_id)).toEqual([
      status.Opgelost,
      status.Opgelost,
      status.Opgelost,
    ]);
    expect(await changes(ids)).toEqual(
      ids.slice(0, 2).map((id) => ({ ticket_id: id, field: 'status_id', to_value: String(status.Opgelost) })),
    );
    expect(await statusMessages(ids)).toBe(2);
  });

  it('merges the selection into its first ticket, with the merge in the history', async () => {
    const ids = await newTickets(3, 'samenvoegen');
    const [kept, ...merged] = [ids[1]!, ids[0]!, ids[2]!];
    const res = await bulk({ action: 'merge', ids: [kept, ...merged, foreignId] }, b.admin);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ count: 3, ids: [kept, ...merged] });
    expect((await ticketRows(merged)).map((r) => r.status_id)).toEqual([status.Opgelost, status.Opgelost]);
    const keptHistory = (await changes([kept])).map((c) => c.field);
    expect(keptHistory).toEqual(['merged', 'merged']);
  });

  it('refuses an action without its permission (403) and changes nothing', async () => {
    const ids = await newTickets(2, 'geweigerd');
    const operator = await t.as('operator@example.com');
    expect((await bulk({ action: 'merge', ids }, operator)).statusCode).toBe(403);
    expect((await bulk({ action: 'close', ids }, b.limited)).statusCode).toBe(403);
    expect(
      (await bulk({ action: 'update', ids, changes: { priority_id: priority.Hoog } }, b.limited)).statusCode,
    ).toBe(403);
    expect(
      (await bulk({ action: 'update', ids, changes: { priority_id: priority.Hoog } }, b.client)).statusCode,
    ).toBe(403);
    expect(await ticketRows(ids)).toEqual(
      ids.map((id) => ({ id, status_id: status.Nieuw, operator_id: null, priority_id: priority.Laag })),
    );
    expect(await changes(ids)).toEqual([]);
  });

  it('answers 422 naming what is wrong: a field not offered in bulk, no selection, an unknown action', async () => {
    const ids = await newTickets(1, 'fout');
    const field = await bulk({ action: 'update', ids, changes: { description: 'x' } }, b.admin);
    expect(field.statusCode).toBe(422);
    expect(Object.keys(field.json().errors)).toEqual(['changes.description']);
    const none = await bulk({ action: 'close' }, b.admin);
    expect(none.statusCode).toBe(422);
    expect(Object.keys(none.json().errors)).toEqual(['ids']);
    const unknown = await bulk({ action: 'archive', ids }, b.admin);
    expect(unknown.statusCode).toBe(422);
    expect(Object.keys(unknown.json().errors)).toEqual(['action']);
  });

  const ACTION = { action: ['The action must be one of: update, close, merge.'] };
  const EITHER = { ids: ['Send either the selected ids or the filter (builder), one of the two.'] };
  const NO_CHANGES = { changes: ['Send the fields to change (changes) with the update action only.'] };
  const SELECT = { ids: ['Select at least one record.'] };
  it.each<[string, object, Record<string, string[]>]>([
    ['no action', { ids: [1] }, ACTION],
    ['an unknown action', { action: 'archive', ids: [1] }, ACTION],
    ['neither ids nor builder', { action: 'close' }, EITHER],
    ['both ids and builder', { action: 'close', ids: [1], builder: [] }, EITHER],
    ['an empty selection', { action: 'close', ids: [] }, SELECT],
    ['ids that are no list', { action: 'close', ids: 5 }, SELECT],
    ['an update without changes', { action: 'update', ids: [1] }, NO_CHANGES],
    ['an update with changes that are no object', { action: 'update', ids: [1], changes: 'x' }, NO_CHANGES],
    ['a close with changes', { action: 'close', ids: [1], changes: { status_id: 1 } }, NO_CHANGES],
    [
      'a field not offered in bulk',
      { action: 'update', ids: [1], changes: { description: 'x' } },
      { 'changes.description': ['The description cannot be changed for many records at once.'] },
    ],
    ['an unknown action and no selection', { action: 'archive' }, { ...ACTION, ...EITHER }],
    // Named by its place since the schema says it, as in the other id lists (was `ids`, "Select at least…").
    [
      'an id that is no id',
      { action: 'close', ids: [1, '2'] },
      { 'ids.1': ['The id must be a positive whole number.'] },
    ],
  ])('%s: the exact 422', async (_label, payload, errors) => {
    const res = await bulk(payload, b.admin);
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json()).toEqual({ message: Object.values(errors)[0]![0], errors });
  });

  it('caps a call at 1,000 tickets: more is a 422 and nothing changes', async () => {
    const ids = Array.from({ length: 1_001 }, (_, i) => i + 1);
    const tooMany = await bulk({ action: 'close', ids }, b.admin);
    expect(tooMany.statusCode).toBe(422);
    expect(tooMany.json().errors.ids).toEqual(['At most 1000 records can be changed at once.']);
    const many = await newTickets(1_001, 'cap');
    const builder = [{ where: ['description', 'like', `${MARK} cap`] }];
    const filtered = await bulk({ action: 'close', builder }, b.admin);
    expect(filtered.statusCode).toBe(422);
    expect(filtered.json().errors.builder).toEqual(['At most 1000 records can be changed at once.']);
    expect(new Set((await ticketRows(many)).map((r) => r.status_id))).toEqual(new Set([status.Nieuw]));
  });
});
