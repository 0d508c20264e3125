/**
 * Checklists on tickets (issue 37, item 4): items are made, ticked and unticked with who and when; a
 * client sees and ticks only the items shown to clients on their own company's tickets; a ticket with
 * open required items does not close on any path (edit, close, bulk close and status, merge) unless an
 * operator with `tenant.checklist-items.override` says so, which the history records.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, targets, type TestApp } from './harness.ts';

const ITEMS = '/api/checklist-items';
const ADMIN = 'admin@example.com'; // second line: may override
const FIRST_LINE = 'operator@example.com';
const CLIENT = 'client@example.com'; // Jansen BV
const OPEN_REQUIRED = (count: number) =>
  `Required checklist items are still open: ${count}. Tick them off before the ticket is closed.`;

describe.each(targets)('checklists on $name', (target) => {
  let t: TestApp;
  let jansen: number;
  let deVries: number;
  let closedStatus: number;
  let openStatus: number;
  let adminId: number;
  let clientId: number;

  const call = async (
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: string,
    email = ADMIN,
    payload?: object,
  ) => t.app.inject({ method, url, headers: await t.as(email), ...(payload && { payload }) });

  const idOf = async (table: 'companies' | 'users', column: 'name' | 'email', value: string) =>
    Number(
      (await t.db.selectFrom(table).select('id').where(column, '=', value).executeTakeFirstOrThrow()).id,
    );

  const newTicket = async (company = jansen) => {
    const res = await call('POST', '/api/tickets', ADMIN, {
      description: 'Maandelijkse controle',
      company_id: company,
    });
    expect(res.statusCode, res.body).toBe(201);
    return Number(res.json().id);
  };

  const newItem = async (ticket: number, fields: Record<string, unknown>, email = ADMIN) => {
    const res = await call('POST', ITEMS, email, { ticket_id: ticket, ...fields });
    expect(res.statusCode, res.body).toBe(201);
    return res.json() as Record<string, unknown> & { id: number };
  };

  const statusOf = async (ticket: number) =>
    Number(
      (
        await t.db
          .selectFrom('tickets')
          .select('status_id')
          .where('id', '=', ticket)
          .executeTakeFirstOrThrow()
      ).status_id,
    );

  const historyOf = async (ticket: number) =>
    t.db
      .selectFrom('ticket_changes')
      .select(['field', 'to_value', 'user_id'])
      .where('ticket_id', '=', ticket)
      .orderBy('id')
      .execute();

  beforeAll(async () => {
    t = await buildTestApp(target);
    jansen = await idOf('companies', 'name', 'Jansen BV');
    deVries = await idOf('companies', 'name', 'De Vries Installaties');
    adminId = await idOf('users', 'email', ADMIN);
    clientId = await idOf('users', 'email', CLIENT);
    const status = (type: number) =>
      t.db
        .selectFrom('ticket_statuses as s')
        .innerJoin('tenants', 'tenants.id', 's.tenant_id')
        .select('s.id')
        .where('tenants.slug', '=', 'acme')
        .where('s.internal_type', '=', type)
        .orderBy('s.order')
        .orderBy('s.id')
        .executeTakeFirstOrThrow();
    closedStatus = Number((await status(2)).id);
    openStatus = Number((await status(1)).id);
  });
  afterAll(() => t?.close());

  it('holds the demo checklist of a new employee, in its order', async () => {
    // The default order is by position.
    const res = await call('GET', `${ITEMS}?builder[0][paginate]=100`);
    expect(res.statusCode, res.body).toBe(200);
    const rows = res.json().data as { text: string; required: boolean; visible_to_client: boolean }[];
    expect(rows.map((r) => [r.text, r.required, r.visible_to_client])).toEqual([
      ['Account aanmaken in Microsoft 365', true, false],
      ['Laptop installeren en updaten', true, true],
      ['Inloggegevens overhandigd aan de medewerker', false, true],
    ]);
  });

  it('makes, ticks and unticks items with who and when, and lists them by position', async () => {
    const ticket = await newTicket();
    const second = await newItem(ticket, { text: 'Back-up controleren', position: 2, required: true });
    const first = await newItem(ticket, { text: 'Updates installeren', position: 1 }, FIRST_LINE);
    expect(second).toMatchObject({ done: false, done_at: null, done_by: null, done_by_name: null });

    const before = Date.now();
    const ticked = await call('PUT', `${ITEMS}/${second.id}`, ADMIN, { done: true });
    expect(ticked.statusCode, ticked.body).toBe(200);
    const row = ticked.json();
    expect(row).toMatchObject({ done: true, done_by: adminId });
    expect(typeof row.done_by_name).toBe('string');
    expect(row.done_by_name.length).toBeGreaterThan(0);
    expect(Date.parse(row.done_at)).toBeGreaterThanOrEqual(before - 5_000);

    // Ticking what is ticked already keeps who and when.
    const again = await call('PUT', `${ITEMS}/${second.id}`, FIRST_LINE, { done: true });
    expect(again.json()).toMatchObject({ done_by: adminId, done_at: row.done_at });

    const list = await call('GET', `${ITEMS}?builder[0][where][0]=ticket_id&builder[0][where][1]=${ticket}`);
    expect(list.statusCode, list.body).toBe(200);
    expect((list.json().data as { id: number }[]).map((r) => r.id)).toEqual([first.id, second.id]);

    const unticked = await call('PUT', `${ITEMS}/${second.id}`, FIRST_LINE, { done: false });
    expect(unticked.json()).toMatchObject({ done: false, done_at: null, done_by: null, done_by_name: null });

    const moved = await call('PUT', `${ITEMS}/${first.id}`, ADMIN, {
      position: 3,
      text: 'Updates en drivers',
    });
    expect(moved.json()).toMatchObject({ position: 3, text: 'Updates en drivers' });
    expect((await call('DELETE', `${ITEMS}/${first.id}`)).statusCode).toBe(200);
    expect((await call('GET', `${ITEMS}/${first.id}`)).statusCode).toBe(404);
  });

  it('refuses an item without text or on a ticket the caller cannot see, naming the field', async () => {
    const ticket = await newTicket();
    const empty = await call('POST', ITEMS, ADMIN, { ticket_id: ticket, text: '' });
    expect(empty.statusCode).toBe(422);
    expect(Object.keys(empty.json().errors)).toEqual(['text']);
    const missing = await call('POST', ITEMS, ADMIN, { ticket_id: 999_999_999, text: 'x' });
    expect(missing.statusCode).toBe(422);
    expect(Object.keys(missing.json().errors)).toEqual(['ticket_id']);
  });

  it('shows a client the visible items of their own tickets only, and lets them tick those alone', async () => {
    const own = await newTicket(jansen);
    const foreign = await newTicket(deVries);
    const shown = await newItem(own, {
      text: 'Wachtwoord wijzigen',
      visible_to_client: true,
      required: true,
    });
    const hidden = await newItem(own, { text: 'Licentie toewijzen', visible_to_client: false });
    const elsewhere = await newItem(foreign, { text: 'Andermans punt', visible_to_client: true });

    const list = await call(
      'GET',
      `${ITEMS}?builder[0][where][0]=ticket_id&builder[0][where][1]=${own}`,
      CLIENT,
    );
    expect(list.statusCode, list.body).toBe(200);
    const rows = list.json().data as Record<string, unknown>[];
    expect(rows.map((r) => r.id)).toEqual([shown.id]);
    expect(Object.keys(rows[0]!)).not.toContain('visible_to_client');

    const all = await call('GET', `${ITEMS}?builder[0][paginate]=100`, CLIENT);
    const ids = (all.json().data as { id: number }[]).map((r) => r.id);
    expect(ids).toContain(shown.id);
    expect(ids).not.toContain(hidden.id);
    expect(ids).not.toContain(elsewhere.id);
    expect((await call('GET', `${ITEMS}/${elsewhere.id}`, CLIENT)).statusCode).toBe(404);
    expect((await call('GET', `${ITEMS}/${hidden.id}`, CLIENT)).statusCode).toBe(404);

    const ticked = await call('PUT', `${ITEMS}/${shown.id}`, CLIENT, { done: true });
    expect(ticked.statusCode, ticked.body).toBe(200);
    expect(ticked.json()).toMatchObject({ done: true, done_by: clientId });
    expect(ticked.json().done_by_name).toBeTruthy();

    expect((await call('PUT', `${ITEMS}/${hidden.id}`, CLIENT, { done: true })).statusCode).toBe(404);
    expect((await call('PUT', `${ITEMS}/${elsewhere.id}`, CLIENT, { done: true })).statusCode).toBe(404);
    const reworded = await call('PUT', `${ITEMS}/${shown.id}`, CLIENT, { text: 'Anders' });
    expect(reworded.statusCode).toBe(422);
    expect(reworded.json().errors).toEqual({
      text: ['In the portal a checklist item can only be ticked off or on.'],
    });
    expect((await call('POST', ITEMS, CLIENT, { ticket_id: own, text: 'Eigen punt' })).statusCode).toBe(403);
    expect((await call('DELETE', `${ITEMS}/${shown.id}`, CLIENT)).statusCode).toBe(403);
    const untouched = await t.db
      .selectFrom('checklist_items')
      .select(['done', 'text'])
      .where('id', 'in', [hidden.id, shown.id])
      .orderBy('id')
      .execute();
    expect(untouched).toEqual([
      { done: true, text: 'Wachtwoord wijzigen' },
      { done: false, text: 'Licentie toewijzen' },
    ]);
  });

  describe('closing a ticket with open required items', () => {
    /** A ticket with two open required items and one open optional one. */
    const blockedTicket = async (company = jansen) => {
      const ticket = await newTicket(company);
      await newItem(ticket, { text: 'Eén', required: true });
      await newItem(ticket, { text: 'Twee', required: true });
      await newItem(ticket, { text: 'Optioneel', required: false });
      return ticket;
    };
    const refused = (res: { statusCode: number; json(): any; body: string }) => {
      expect(res.statusCode, res.body).toBe(422);
      expect(res.json().errors).toEqual({ status_id: [OPEN_REQUIRED(2)] });
    };

    it('is refused on an edit, the close action and the bulk calls, and nothing changes', async () => {
      const ticket = await blockedTicket();
      const start = await statusOf(ticket);
      refused(await call('PUT', `/api/tickets/${ticket}`, ADMIN, { status_id: closedStatus }));
      refused(await call('POST', `/api/tickets/${ticket}/close`, ADMIN));
      refused(await call('POST', '/api/tickets/bulk', ADMIN, { action: 'close', ids: [ticket] }));
      refused(
        await call('POST', '/api/tickets/bulk', ADMIN, {
          action: 'update',
          ids: [ticket],
          changes: { status_id: closedStatus },
        }),
      );
      expect(await statusOf(ticket)).toBe(start);
      expect((await historyOf(ticket)).filter((h) => h.field === 'status_id')).toEqual([]);
      // Another status than a finished one is no closing.
      const moved = await call('PUT', `/api/tickets/${ticket}`, ADMIN, { status_id: openStatus });
      expect(moved.statusCode, moved.body).toBe(200);
    });

    it('counts the open required items of every ticket of a bulk close', async () => {
      const one = await blockedTicket();
      const two = await blockedTicket();
      const res = await call('POST', '/api/tickets/bulk', ADMIN, { action: 'close', ids: [one, two] });
      expect(res.statusCode).toBe(422);
      expect(res.json().errors).toEqual({ status_id: [OPEN_REQUIRED(4)] });
    });

    it('closes once the required items are ticked, the optional one open', async () => {
      const ticket = await blockedTicket();
      const items = await t.db
        .selectFrom('checklist_items')
        .select('id')
        .where('ticket_id', '=', ticket)
        .where('required', '=', true)
        .execute();
      for (const item of items) await call('PUT', `${ITEMS}/${item.id}`, FIRST_LINE, { done: true });
      const res = await call('POST', `/api/tickets/${ticket}/close`, FIRST_LINE);
      expect(res.statusCode, res.body).toBe(200);
      expect(await statusOf(ticket)).toBe(closedStatus);
      expect((await historyOf(ticket)).map((h) => h.field)).not.toContain('checklist_override');
    });

    it('is overridden on every path by a role with the permission only, and the history says so', async () => {
      const paths: [
        string,
        (ticket: number, email: string) => Promise<{ statusCode: number; body: string }>,
      ][] = [
        [
          'edit',
          (ticket, email) =>
            call('PUT', `/api/tickets/${ticket}`, email, {
              status_id: closedStatus,
              override_checklist: true,
            }),
        ],
        [
          'close',
          (ticket, email) =>
            call('POST', `/api/tickets/${ticket}/close`, email, { override_checklist: true }),
        ],
        [
          'bulk close',
          (ticket, email) =>
            call('POST', '/api/tickets/bulk', email, {
              action: 'close',
              ids: [ticket],
              override_checklist: true,
            }),
        ],
        [
          'bulk status',
          (ticket, email) =>
            call('POST', '/api/tickets/bulk', email, {
              action: 'update',
              ids: [ticket],
              changes: { status_id: closedStatus },
              override_checklist: true,
            }),
        ],
      ];
      for (const [path, close] of paths) {
        const ticket = await blockedTicket();
        // First line closes tickets but may not override a checklist.
        const denied = await close(ticket, FIRST_LINE);
        expect(denied.statusCode, `${path}: ${denied.body}`).toBe(403);
        expect(await statusOf(ticket), path).not.toBe(closedStatus);
        const done = await close(ticket, ADMIN);
        expect(done.statusCode, `${path}: ${done.body}`).toBe(200);
        expect(await statusOf(ticket), path).toBe(closedStatus);
        const overrides = (await historyOf(ticket)).filter((h) => h.field === 'checklist_override');
        expect(overrides, path).toEqual([{ field: 'checklist_override', to_value: '2', user_id: adminId }]);
      }
    });

    it('takes the override flag as true or false only, naming it', async () => {
      const ticket = await blockedTicket();
      const edit = await call('PUT', `/api/tickets/${ticket}`, ADMIN, {
        status_id: closedStatus,
        override_checklist: 'yes',
      });
      expect(edit.statusCode).toBe(422);
      expect(Object.keys(edit.json().errors)).toEqual(['override_checklist']);
      const close = await call('POST', `/api/tickets/${ticket}/close`, ADMIN, { override_checklist: 1 });
      expect(close.statusCode).toBe(422);
      expect(Object.keys(close.json().errors)).toEqual(['override_checklist']);
      // Saying false is not overriding.
      refused(
        await call('PUT', `/api/tickets/${ticket}`, ADMIN, {
          status_id: closedStatus,
          override_checklist: false,
        }),
      );
    });

    it('merges: the merged tickets close and their items go to the kept one, which stays blocked', async () => {
      const kept = await newTicket();
      const merged = await blockedTicket();
      const res = await call('POST', '/api/tickets/merge', ADMIN, { ids: [kept, merged] });
      expect(res.statusCode, res.body).toBe(200);
      expect(await statusOf(merged)).toBe(closedStatus);
      const items = await t.db
        .selectFrom('checklist_items')
        .select('ticket_id')
        .where('text', 'in', ['Eén', 'Twee', 'Optioneel'])
        .where('ticket_id', 'in', [kept, merged])
        .execute();
      expect(items.map((i) => Number(i.ticket_id))).toEqual([kept, kept, kept]);
      refused(await call('POST', `/api/tickets/${kept}/close`, ADMIN));
    });
  });
});
