/**
 * A ticket's history of changes (issue 18, item 5): every path that changes a tracked field (an edit,
 * close, restore, a merge of tickets or of companies) records who, when, field, from and to in the
 * change's transaction; the history reads through GET /api/ticket-changes, for operators of either
 * line only, with names in the reader's language. Edited messages carry edited_at; a client's message
 * is not deleted by an operator, another message's deletion is in the history.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, firstClientTicketId, targets, type TestApp } from './harness.ts';

interface Change {
  field: string;
  from_value: string | null;
  to_value: string | null;
  from_label: string | null;
  to_label: string | null;
  user_id: number | null;
}

describe.each(targets)('ticket history on $name', (target) => {
  let t: TestApp;
  let ticketId: number;
  let adminId: number;
  let operatorId: number;
  const status: Record<string, number> = {};
  const priority: Record<string, number> = {};

  const stored = async (id: number) =>
    (
      await sql<Change>`select field, from_value, to_value, from_label, to_label, user_id from ticket_changes
        where ticket_id = ${id} order by id`.execute(t.db)
    ).rows.map((r) => ({ ...r, user_id: r.user_id === null ? null : Number(r.user_id) }));

  const history = async (id: number, email: string, language = 'nl') =>
    t.app.inject({
      url:
        `/api/ticket-changes?builder[0][where][0]=ticket_id&builder[0][where][1]==&builder[0][where][2]=${id}` +
        `&builder[1][orderBy][0]=id&builder[1][orderBy][1]=asc&builder[2][paginate]=100&with[0]=user`,
      headers: { ...(await t.as(email)), 'accept-language': language },
    });

  const put = async (id: number, payload: object, email = 'admin@example.com') =>
    t.app.inject({ method: 'PUT', url: `/api/tickets/${id}`, headers: await t.as(email), payload });

  const post = async (url: string, payload?: object, email = 'admin@example.com') =>
    t.app.inject({ method: 'POST', url, headers: await t.as(email), ...(payload ? { payload } : {}) });

  /** A new ticket of the company, as an operator creates it (no history: creating is not a change). */
  const newTicket = async (companyId: number, description: string) => {
    const res = await post('/api/tickets', { description, company_id: companyId });
    expect(res.statusCode).toBe(201);
    return Number(res.json().id);
  };

  beforeAll(async () => {
    t = await buildTestApp(target);
    ticketId = await firstClientTicketId(t.db);
    for (const s of (
      await sql<{ id: number; name: string }>`select id, name from ticket_statuses`.execute(t.db)
    ).rows)
      status[s.name] = Number(s.id);
    for (const p of (await sql<{ id: number; label: string }>`select id, label from priorities`.execute(t.db))
      .rows)
      priority[p.label] = Number(p.id);
    const users = await sql<{ id: number; email: string }>`
      select id, email from users where email in ('admin@example.com', 'operator@example.com')`.execute(t.db);
    const byEmail = new Map(users.rows.map((u) => [u.email, Number(u.id)]));
    adminId = byEmail.get('admin@example.com')!;
    operatorId = byEmail.get('operator@example.com')!;
    // A known start: status Nieuw, priority Laag, no operator, no deadline, and no history yet.
    await sql`update tickets set status_id = ${status.Nieuw}, priority_id = ${priority.Laag}, operator_id = null,
      deadline = null where id = ${ticketId}`.execute(t.db);
    await sql`delete from ticket_changes where ticket_id = ${ticketId}`.execute(t.db);
  }, 120_000);
  afterAll(() => t?.close());

  it('records each changed tracked field of an edit, with who and the names, and nothing else', async () => {
    const res = await put(ticketId, {
      status_id: status['In behandeling'],
      priority_id: priority.Hoog,
      operator_id: operatorId,
      deadline: '2026-12-01T09:30:00.000Z',
      description: 'Printer op de tweede verdieping',
    });
    expect(res.statusCode).toBe(200);
    expect(await stored(ticketId)).toEqual([
      {
        field: 'status_id',
        from_value: String(status.Nieuw),
        to_value: String(status['In behandeling']),
        from_label: 'Nieuw',
        to_label: 'In behandeling',
        user_id: adminId,
      },
      {
        field: 'priority_id',
        from_value: String(priority.Laag),
        to_value: String(priority.Hoog),
        from_label: 'Laag',
        to_label: 'Hoog',
        user_id: adminId,
      },
      {
        field: 'operator_id',
        from_value: null,
        to_value: String(operatorId),
        from_label: null,
        to_label: 'Daan Visser',
        user_id: adminId,
      },
      {
        field: 'deadline',
        from_value: null,
        to_value: '2026-12-01T09:30:00.000Z',
        from_label: null,
        to_label: '01-12-2026 10:30',
        user_id: adminId,
      },
    ]);
    // The same values again, and a field that is not tracked: no new entries.
    expect(
      (await put(ticketId, { status_id: status['In behandeling'], description: 'Anders' })).statusCode,
    ).toBe(200);
    expect((await put(ticketId, { deadline: '2026-12-01T10:30:00+01:00' })).statusCode).toBe(200);
    expect(await stored(ticketId)).toHaveLength(4);
  });

  it('records nothing for an edit that is refused', async () => {
    const before = (await stored(ticketId)).length;
    const res = await put(ticketId, { status_id: status.Nieuw, sla_id: 999_999 });
    expect(res.statusCode).toBe(422);
    expect(await stored(ticketId)).toHaveLength(before);
  });

  it("records a first-line operator's edit as theirs", async () => {
    expect((await put(ticketId, { operator_id: null }, 'operator@example.com')).statusCode).toBe(200);
    const last = (await stored(ticketId)).at(-1)!;
    expect(last).toMatchObject({ field: 'operator_id', to_value: null, from_label: 'Daan Visser' });
    expect(last.user_id).toBe(operatorId);
  });

  it('records close and restore', async () => {
    const before = (await stored(ticketId)).length;
    expect((await post(`/api/tickets/${ticketId}/close`)).statusCode).toBe(200);
    expect((await post(`/api/tickets/${ticketId}/restore`)).statusCode).toBe(200);
    const added = (await stored(ticketId)).slice(before);
    expect(added.map((c) => [c.field, c.from_label, c.to_label])).toEqual([
      ['status_id', 'In behandeling', 'Opgelost'],
      ['status_id', 'Opgelost', 'Nieuw'],
    ]);
  });

  it('records a merge of tickets on every ticket in it, and the closing of the merged one', async () => {
    const company = await sql<{
      id: number;
    }>`select company_id as id from tickets where id = ${ticketId}`.execute(t.db);
    const companyId = Number(company.rows[0]!.id);
    const kept = await newTicket(companyId, 'Samen te voegen 1');
    const merged = await newTicket(companyId, 'Samen te voegen 2');
    const refs = await sql<{ id: number; reference: string }>`
      select id, reference from tickets where id in (${kept}, ${merged})`.execute(t.db);
    const ref = new Map(refs.rows.map((r) => [Number(r.id), r.reference]));
    expect((await post('/api/tickets/merge', { ids: [kept, merged] })).statusCode).toBe(200);
    expect((await stored(kept)).map((c) => [c.field, c.from_label, c.to_label])).toEqual([
      ['merged', ref.get(merged), ref.get(kept)],
    ]);
    expect((await stored(merged)).map((c) => [c.field, c.from_label, c.to_label])).toEqual([
      ['status_id', 'Nieuw', 'Opgelost'],
      ['merged', ref.get(merged), ref.get(kept)],
    ]);
  });

  it("records a merge of companies as a change of company on the merged company's tickets", async () => {
    const company = async (name: string) => {
      const res = await post('/api/companies', { name });
      expect(res.statusCode).toBe(201);
      return Number(res.json().id);
    };
    const keptCompany = await company('Historie Blijft BV');
    const mergedCompany = await company('Historie Gaat BV');
    const moved = await newTicket(mergedCompany, 'Verhuist mee');
    const stays = await newTicket(keptCompany, 'Blijft staan');
    expect((await post('/api/companies/merge', { ids: [keptCompany, mergedCompany] })).statusCode).toBe(200);
    expect(await stored(moved)).toEqual([
      {
        field: 'company_id',
        from_value: String(mergedCompany),
        to_value: String(keptCompany),
        // The merged company is gone: its name is the one stored with the change.
        from_label: 'Historie Gaat BV',
        to_label: 'Historie Blijft BV',
        user_id: adminId,
      },
    ]);
    expect(await stored(stays)).toEqual([]);
  });

  it('reads the history for operators of both lines, names in their language, with who', async () => {
    await sql`update ticket_statuses set name_en = 'In progress' where id = ${status['In behandeling']}`.execute(
      t.db,
    );
    for (const email of ['admin@example.com', 'operator@example.com']) {
      const res = await history(ticketId, email, 'en');
      expect(res.statusCode).toBe(200);
      const rows = res.json().data as (Change & { user: { full_name: string } })[];
      expect(rows[0]).toMatchObject({
        field: 'status_id',
        from_label: 'New',
        to_label: 'In progress',
        user: { full_name: 'Sanne Bakker' },
        user_label: 'Sanne Bakker',
      });
    }
    const dutch = (await history(ticketId, 'admin@example.com')).json().data as Change[];
    expect(dutch[0]!.to_label).toBe('In behandeling');
  });

  it('names who made a change, and keeps the name of an operator deleted since', async () => {
    const created = await post('/api/operators', {
      first_name: 'Tess',
      last_name: 'Tijdelijk',
      email: 'tess.tijdelijk@example.com',
      password: 'Correct-Horse-42',
      is_operator: 2,
      role_id: (await sql<{ role_id: number }>`select role_id from users where id = ${adminId}`.execute(t.db))
        .rows[0]!.role_id,
    });
    expect(created.statusCode, created.body).toBe(201);
    await t.login('tess.tijdelijk@example.com', 'Correct-Horse-42');
    const company = await sql<{
      id: number;
    }>`select company_id as id from tickets where id = ${ticketId}`.execute(t.db);
    const id = await newTicket(Number(company.rows[0]!.id), 'Door Tess');
    expect((await put(id, { priority_id: priority.Hoog }, 'tess.tijdelijk@example.com')).statusCode).toBe(
      200,
    );
    const gone = await t.app.inject({
      method: 'DELETE',
      url: `/api/operators/${created.json().id}`,
      headers: await t.as('admin@example.com'),
    });
    expect(gone.statusCode, gone.body).toBe(200);
    const rows = (await history(id, 'admin@example.com')).json().data as (Change & { user_label: string })[];
    expect(rows.map((r) => [r.field, r.user_id, r.user_label])).toEqual([
      ['priority_id', null, 'Tess Tijdelijk'],
    ]);
  });

  it('is closed to clients and offers no writes', async () => {
    expect((await history(ticketId, 'client@example.com')).statusCode).toBe(403);
    const headers = await t.as('admin@example.com');
    const write = await t.app.inject({
      method: 'POST',
      url: '/api/ticket-changes',
      headers,
      payload: { ticket_id: ticketId, field: 'status_id' },
    });
    // No create, update or delete route exists: the history is written by the changes alone.
    expect(write.statusCode).toBe(404);
    const change = await sql<{
      id: number;
    }>`select id from ticket_changes where ticket_id = ${ticketId} limit 1`.execute(t.db);
    const removal = await t.app.inject({
      method: 'DELETE',
      url: `/api/ticket-changes/${change.rows[0]!.id}`,
      headers,
    });
    expect(removal.statusCode).toBe(404);
    expect(await stored(ticketId)).not.toHaveLength(0);
  });

  it("marks an edited message with the time, not one saved unchanged, and keeps a client's message", async () => {
    const headers = await t.as('admin@example.com');
    const created = await post('/api/messages', {
      message: '<p>Eerste versie</p>',
      morphable_type: 'ticket',
      morphable_id: ticketId,
    });
    expect(created.statusCode).toBe(201);
    const id = Number(created.json().id);
    expect(created.json().edited_at).toBeNull();
    const same = await t.app.inject({
      method: 'PUT',
      url: `/api/messages/${id}`,
      headers,
      payload: { message: '<p>Eerste versie</p>' },
    });
    expect(same.json().edited_at).toBeNull();
    const edited = await t.app.inject({
      method: 'PUT',
      url: `/api/messages/${id}`,
      headers,
      payload: { message: '<p>Tweede versie</p>' },
    });
    expect(edited.statusCode).toBe(200);
    expect(Date.parse(edited.json().edited_at)).not.toBeNaN();

    const fromClient = await sql<{ id: number }>`
      select id from messages where morphable_type = 'ticket' and is_from_client = true order by id limit 1`.execute(
      t.db,
    );
    const clientMessage = Number(fromClient.rows[0]!.id);
    const refused = await t.app.inject({ method: 'DELETE', url: `/api/messages/${clientMessage}`, headers });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().errors.is_from_client).toEqual([
      "A client's message cannot be deleted: edit it to remove what may not stay, the thread shows it was edited.",
    ]);
    const still = await sql`select 1 from messages where id = ${clientMessage}`.execute(t.db);
    expect(still.rows).toHaveLength(1);

    const deleted = await t.app.inject({ method: 'DELETE', url: `/api/messages/${id}`, headers });
    expect(deleted.statusCode).toBe(200);
    expect((await stored(ticketId)).at(-1)).toEqual({
      field: 'message_deleted',
      from_value: String(id),
      to_value: null,
      from_label: 'Sanne Bakker: Tweede versie',
      to_label: null,
      user_id: adminId,
    });
  });
});
