/**
 * A ticket's status changes in its thread (SPEC 3 and 4): an edit of the status, close and restore each
 * write one status-changed message with the new status and its actor, in the change's transaction;
 * operators read the status's name, clients its client name (name_client).
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, targets, type TestApp } from './harness.ts';

describe.each(targets)('status-changed messages on $name', (target) => {
  let t: TestApp;
  let ticketId: number;
  let status: { nieuw: number; wacht: number };

  const statusMessages = async () =>
    (
      await sql<{ data: any; actor_id: number | null }>`
        select data, actor_id from messages
        where morphable_type = 'ticket' and morphable_id = ${ticketId} and type = 'status-changed'
        order by id`.execute(t.db)
    ).rows;

  const thread = async (email: string) => {
    const res = await t.app.inject({
      url:
        `/api/messages?builder[0][where][0]=morphable_type&builder[0][where][1]==&builder[0][where][2]=ticket` +
        `&builder[1][where][0]=morphable_id&builder[1][where][1]==&builder[1][where][2]=${ticketId}` +
        `&builder[2][where][0]=type&builder[2][where][1]==&builder[2][where][2]=status-changed&builder[3][paginate]=100`,
      headers: await t.as(email),
    });
    expect(res.statusCode).toBe(200);
    return res.json().data as { data: { status: { name: string | null } }; actor: { full_name: string } }[];
  };

  beforeAll(async () => {
    t = await buildTestApp(target);
    const statuses = await sql<{ id: number; name: string }>`
      select s.id, s.name from ticket_statuses s where s.name in ('Nieuw', 'Wacht op klant')`.execute(t.db);
    const byName = new Map(statuses.rows.map((s) => [s.name, Number(s.id)]));
    status = { nieuw: byName.get('Nieuw')!, wacht: byName.get('Wacht op klant')! };
    // A Jansen BV ticket in status Nieuw, so the client may read its thread.
    const row = await sql<{ id: number }>`
      select t.id from tickets t join companies c on c.id = t.company_id
      where c.name = 'Jansen BV' and t.is_template = false and t.status_id = ${status.nieuw}
      order by t.id limit 1`.execute(t.db);
    ticketId = Number(row.rows[0]!.id);
    await sql`delete from messages where morphable_type = 'ticket' and morphable_id = ${ticketId} and type = 'status-changed'`.execute(
      t.db,
    );
  }, 120_000);
  afterAll(() => t?.close());

  it('writes one message per status edit, none for an edit that keeps the status', async () => {
    const headers = await t.as('admin@example.com');
    const put = (payload: object) =>
      t.app.inject({ method: 'PUT', url: `/api/tickets/${ticketId}`, headers, payload });
    expect((await put({ status_id: status.wacht })).statusCode).toBe(200);
    expect((await put({ status_id: status.wacht, description: 'Zelfde status' })).statusCode).toBe(200);
    expect((await put({ description: 'Geen status' })).statusCode).toBe(200);
    const logged = await statusMessages();
    expect(logged).toHaveLength(1);
    expect(logged[0]!.data.status).toEqual({ id: status.wacht, name: 'Wacht op klant' });
    const admin = await sql<{ id: number }>`select id from users where email = 'admin@example.com'`.execute(
      t.db,
    );
    expect(Number(logged[0]!.actor_id)).toBe(Number(admin.rows[0]!.id));
  });

  it("shows operators the status's name and clients its client name", async () => {
    const operatorView = await thread('admin@example.com');
    expect(operatorView.map((m) => m.data.status.name)).toEqual(['Wacht op klant']);
    expect(operatorView[0]!.actor.full_name).toBe('Sanne Bakker');
    const clientView = await thread('client@example.com');
    expect(clientView.map((m) => m.data.status.name)).toEqual(['Wacht op uw reactie']);
  });

  it('writes one for close and one for restore', async () => {
    const headers = await t.as('admin@example.com');
    expect(
      (await t.app.inject({ method: 'POST', url: `/api/tickets/${ticketId}/close`, headers })).statusCode,
    ).toBe(200);
    expect(
      (await t.app.inject({ method: 'POST', url: `/api/tickets/${ticketId}/restore`, headers })).statusCode,
    ).toBe(200);
    const logged = await statusMessages();
    expect(logged).toHaveLength(3);
    const types = await sql<{ internal_type: number }>`
      select s.internal_type from ticket_statuses s
      where s.id in (${sql.join(logged.slice(1).map((m) => m.data.status.id))})
      order by array_position(array[${sql.join(logged.slice(1).map((m) => m.data.status.id))}]::int[], s.id)`.execute(
      t.db,
    );
    expect(types.rows.map((r) => Number(r.internal_type))).toEqual([2, 1]);
  });

  it('writes nothing when the change is refused', async () => {
    const headers = await t.as('admin@example.com');
    const before = (await statusMessages()).length;
    const res = await t.app.inject({
      method: 'PUT',
      url: `/api/tickets/${ticketId}`,
      headers,
      payload: { status_id: status.wacht, priority_id: 999_999 },
    });
    expect(res.statusCode).toBe(422);
    expect(await statusMessages()).toHaveLength(before);
  });
});
