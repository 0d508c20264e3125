/**
 * A ticket's resolved_at (issue 18 loose end): every path that gives a ticket a status settles it the
 * same way (server/resources/tickets/resolved.ts). Entering a finished status (closed, archived) sets it
 * to now, moving between finished statuses keeps the first moment, any other status clears it; the
 * paths: an edit form's PUT (the whole form), a quick action's PUT (the status alone), a bulk change of
 * status, the bulk close, the close and restore calls and a new ticket.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, targets, type TestApp } from './harness.ts';
import { backOffice, type BackOffice } from './back-office.ts';

describe.each(targets)('ticket resolved_at on $name', (target) => {
  let t: TestApp;
  let b: BackOffice;
  /** A status of each internal type: open (1), closed (2), archived (3), and a second closed one. */
  let open: number;
  let closed: number;
  let closedToo: number;
  let archived: number;

  const statusOfType = async (type: number) =>
    Number(
      (
        await t.db
          .selectFrom('ticket_statuses')
          .select('id')
          .where('tenant_id', '=', b.tenantId)
          .where('internal_type', '=', type)
          .orderBy('order')
          .orderBy('id')
          .executeTakeFirstOrThrow()
      ).id,
    );

  const newTicket = async (label: string) =>
    Number(
      (
        await t.db
          .insertInto('tickets')
          .values({
            tenant_id: b.tenantId,
            company_id: b.ownCompanyId,
            status_id: open,
            description: `Opgelostproef ${label}`,
          })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id,
    );

  /** resolved_at as milliseconds (null when empty), read from the database. */
  const resolvedAt = async (id: number) => {
    const row = await t.db
      .selectFrom('tickets')
      .select('resolved_at')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    return row.resolved_at === null ? null : new Date(row.resolved_at as string | Date).getTime();
  };

  /** The database's clock now: a resolved_at set after this moment is at or after it. */
  const dbNow = async () =>
    new Date((await sql<{ now: Date }>`select now() as now`.execute(t.db)).rows[0]!.now).getTime();

  const put = (id: number, payload: object) =>
    t.app.inject({ method: 'PUT', url: `/api/tickets/${id}`, headers: b.admin, payload });
  const bulk = (payload: object) =>
    t.app.inject({ method: 'POST', url: '/api/tickets/bulk', headers: b.admin, payload });

  beforeAll(async () => {
    t = await buildTestApp(target);
    b = await backOffice(t, []);
    open = await statusOfType(1);
    closed = await statusOfType(2);
    archived = await statusOfType(3);
    closedToo = Number(
      (
        await t.db
          .insertInto('ticket_statuses')
          .values({
            tenant_id: b.tenantId,
            name: 'Afgehandeld',
            name_client: 'Afgehandeld',
            internal_type: 2,
            order: 99,
          })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id,
    );
  }, 120_000);
  afterAll(() => t?.close());

  it("a quick action's status change sets it, a second finished status keeps it, reopening clears it", async () => {
    const id = await newTicket('snelle actie');
    expect(await resolvedAt(id)).toBeNull();
    const before = await dbNow();
    const res = await put(id, { status_id: closed });
    expect(res.statusCode).toBe(200);
    const first = await resolvedAt(id);
    expect(first).not.toBeNull();
    expect(first!).toBeGreaterThanOrEqual(before);
    expect(new Date(res.json().resolved_at).getTime()).toBe(first);

    expect((await put(id, { status_id: closedToo })).statusCode).toBe(200);
    expect(await resolvedAt(id)).toBe(first);
    expect((await put(id, { status_id: archived })).statusCode).toBe(200);
    expect(await resolvedAt(id)).toBe(first);

    const reopened = await put(id, { status_id: open });
    expect(reopened.statusCode).toBe(200);
    expect(reopened.json().resolved_at).toBeNull();
    expect(await resolvedAt(id)).toBeNull();
  });

  it("an edit form's whole-record PUT sets it the same way; an edit without a status leaves it", async () => {
    const id = await newTicket('formulier');
    const form = (await t.app.inject({ method: 'GET', url: `/api/tickets/${id}`, headers: b.admin })).json();
    const before = await dbNow();
    const res = await put(id, {
      description: `${form.description} (afgerond)`,
      company_id: form.company_id,
      status_id: closed,
    });
    expect(res.statusCode).toBe(200);
    const first = await resolvedAt(id);
    expect(first!).toBeGreaterThanOrEqual(before);
    expect((await put(id, { description: 'Opgelostproef formulier, nagekeken' })).statusCode).toBe(200);
    expect(await resolvedAt(id)).toBe(first);
  });

  it('a bulk change of status sets it on each ticket and a bulk change back clears it', async () => {
    const ids = [await newTicket('bulk 1'), await newTicket('bulk 2')];
    const before = await dbNow();
    const res = await bulk({ action: 'update', ids, changes: { status_id: archived } });
    expect(res.json()).toEqual({ count: 2, ids });
    for (const id of ids) expect((await resolvedAt(id))!).toBeGreaterThanOrEqual(before);
    const back = await bulk({ action: 'update', ids, changes: { status_id: open } });
    expect(back.json()).toEqual({ count: 2, ids });
    for (const id of ids) expect(await resolvedAt(id)).toBeNull();
    // A bulk change of another field does not touch it.
    await bulk({ action: 'update', ids, changes: { status_id: closed } });
    const settled = await resolvedAt(ids[0]!);
    await bulk({ action: 'update', ids, changes: { priority_id: null } });
    expect(await resolvedAt(ids[0]!)).toBe(settled);
  });

  it('the bulk close and the close call set it, restore clears it', async () => {
    const [one, two] = [await newTicket('sluiten 1'), await newTicket('sluiten 2')];
    const before = await dbNow();
    expect((await bulk({ action: 'close', ids: [one] })).json()).toEqual({ count: 1, ids: [one] });
    expect((await resolvedAt(one))!).toBeGreaterThanOrEqual(before);
    const closeCall = await t.app.inject({
      method: 'POST',
      url: `/api/tickets/${two}/close`,
      headers: b.admin,
    });
    expect(closeCall.statusCode).toBe(200);
    expect((await resolvedAt(two))!).toBeGreaterThanOrEqual(before);
    const restore = await t.app.inject({
      method: 'POST',
      url: `/api/tickets/${two}/restore`,
      headers: b.admin,
    });
    expect(restore.statusCode).toBe(200);
    expect(await resolvedAt(two)).toBeNull();
  });

  it('a new ticket made in a closed status is resolved from the start, one in an open status is not', async () => {
    const before = await dbNow();
    const create = (status_id: number, description: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/tickets',
        headers: b.admin,
        payload: { description, company_id: b.ownCompanyId, status_id },
      });
    const done = await create(closed, 'Opgelostproef achteraf vastgelegd');
    expect(done.statusCode).toBe(201);
    expect((await resolvedAt(Number(done.json().id)))!).toBeGreaterThanOrEqual(before);
    const fresh = await create(open, 'Opgelostproef nieuw');
    expect(fresh.statusCode).toBe(201);
    expect(await resolvedAt(Number(fresh.json().id))).toBeNull();
  });
});
