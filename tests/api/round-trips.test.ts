/**
 * Issue 17 target 3: the database round trips of one API call, counted on the app's own handle
 * (harness `statementsOf`). A list's to-one `with` relations (nested ones too) and its exact total come
 * in the page's own statement; a related row reads as it does on its own, and one the caller may not
 * see stays null.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import qs from 'qs';
import { buildTestApp, statementsOf, targets, type TestApp } from './harness.ts';

const ADMIN = 'admin@example.com';
const CLIENT = 'client@example.com';

describe.each(targets)('round trips per call on $name', (target) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await buildTestApp(target, { countStatements: true });
    // The summary tables are looked up once per handle (query/counts.ts), and on PostgreSQL the auth
    // cache is bypassed until the logout channel listens (auth/context-cache.ts): wait until a call
    // reads its caller from the cache, the state every later call is counted in.
    for (let i = 0; i < 200 && (await get('tickets', ADMIN)).statements !== 1; i++) {
      await new Promise((resolve) => setImmediate(resolve));
    }
  });
  afterAll(() => t?.close());

  /** The call's statements, the caller's auth context read from the cache (a call just before loads it). */
  async function get(path: string, email: string, query: object = {}) {
    const headers = await t.as(email);
    const q = qs.stringify(query, { encodeValuesOnly: true });
    await t.app.inject({ method: 'GET', url: `/api/${path}${q ? `?${q}` : ''}`, headers });
    const { response, statements } = await statementsOf(t, {
      method: 'GET',
      url: `/api/${path}${q ? `?${q}` : ''}`,
      headers,
    });
    return { status: response.statusCode, body: response.json(), statements };
  }

  it('an operator list with four to-one relations and its exact total is one statement', async () => {
    const list = await get('tickets', ADMIN, { with: ['company', 'status', 'priority', 'operator'] });
    expect(list.status).toBe(200);
    expect(list.statements).toBe(1);
    const total = await t.db
      .selectFrom('tickets')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('is_template', '=', false)
      .executeTakeFirstOrThrow();
    expect(list.body.total).toBe(Number(total.n));
    const row = list.body.data.find((r: any) => r.operator_id !== null);
    expect(row.company.id).toBe(row.company_id);
    expect(row.status.id).toBe(row.status_id);
    expect(row.operator.id).toBe(row.operator_id);
  });

  it('a related row reads as its own show does: the same fields, timestamps included', async () => {
    const list = await get('tickets', ADMIN, { with: ['company'] });
    const row = list.body.data[0];
    const company = await get(`companies/${row.company_id}`, ADMIN);
    expect(typeof company.body.created_at).toBe('string');
    expect(row.company).toEqual(company.body);
  });

  it('nested to-one relations come in the same statement', async () => {
    const list = await get('tickets', ADMIN, { with: ['company.country'] });
    expect(list.statements).toBe(1);
    const row = list.body.data.find((r: any) => r.company?.country_id);
    expect(row.company.country.id).toBe(row.company.country_id);
  });

  it("a client's list with two to-one relations is one statement too", async () => {
    const list = await get('tickets', CLIENT, { with: ['company', 'status'] });
    expect(list.status).toBe(200);
    expect(list.statements).toBe(1);
    expect(list.body.total).toBeGreaterThan(0);
    expect(new Set(list.body.data.map((r: any) => r.company.name))).toEqual(new Set(['Jansen BV']));
  });

  it("a related row the resource's conditions exclude is null in the relation column", async () => {
    // clientActor reads clients (users that are no staff): an operator's message has none.
    const list = await get('messages', ADMIN, { with: ['clientActor'], builder: [{ paginate: 100 }] });
    const byOperator = list.body.data.filter((m: any) => !m.is_from_client && m.actor_id !== null);
    const byClient = list.body.data.filter((m: any) => m.is_from_client && m.actor_id !== null);
    expect(byOperator.length).toBeGreaterThan(0);
    expect(byClient.length).toBeGreaterThan(0);
    expect(byOperator.every((m: any) => m.clientActor === null)).toBe(true);
    expect(byClient.every((m: any) => m.clientActor?.id === m.actor_id)).toBe(true);
  });

  it('a page past the last row still has its total, from a second statement', async () => {
    const first = await get('tickets', ADMIN, { builder: [{ paginate: 10 }] });
    const past = await get('tickets', ADMIN, { builder: [{ paginate: 10 }], page: first.body.last_page + 1 });
    expect(past.body.data).toEqual([]);
    expect(past.body.total).toBe(first.body.total);
    expect(past.statements).toBe(2);
    const none = await get('tickets', ADMIN, { builder: [{ where: ['company_id', '=', 999_999] }] });
    expect(none.body.total).toBe(0);
    expect(none.statements).toBe(1);
  });

  it('a detail with its to-one relations is one statement', async () => {
    const list = await get('tickets', ADMIN, { builder: [{ paginate: 1 }] });
    const id = list.body.data[0].id;
    const detail = await get(`tickets/${id}`, ADMIN, { with: ['company', 'status'] });
    expect(detail.statements).toBe(1);
    expect(detail.body.company.id).toBe(detail.body.company_id);
  });
  it("a ticket with its thread is two statements: the messages' authors and status names come with them", async () => {
    const changes = await get('messages', ADMIN, {
      builder: [{ where: ['type', '=', 'status-changed'] }, { where: ['morphable_type', '=', 'ticket'] }],
    });
    const ticketId = changes.body.data[0].morphable_id;
    const detail = await get(`tickets/${ticketId}`, ADMIN, { with: ['messages', 'company'] });
    expect(detail.status).toBe(200);
    expect(detail.statements).toBe(2);
    const thread = detail.body.messages as any[];
    const statuses = new Map(
      (await get('ticket-statuses', ADMIN, { builder: [{ paginate: 100 }] })).body.data.map((s: any) => [
        s.id,
        s,
      ]),
    );
    const changed = thread.filter((m) => m.type === 'status-changed');
    expect(changed.length).toBeGreaterThan(0);
    for (const m of changed) expect(m.data.status.name).toBe((statuses.get(m.data.status.id) as any).name);
    const authored = thread.filter((m) => m.actor_id !== null);
    expect(authored.length).toBeGreaterThan(0);
    for (const m of authored) {
      expect(m.actor.id).toBe(m.actor_id);
      expect(typeof m.actor.full_name).toBe('string');
      expect(m.actor.gravatar).toMatch(/^https:/);
      expect('__actor_facts' in m || '__status_facts' in m).toBe(false);
    }
  });

  it("a client's thread names each status by its client name, in the same two statements", async () => {
    const list = await get('tickets', CLIENT, { builder: [{ paginate: 50 }] });
    const statuses = new Map(
      (await get('ticket-statuses', CLIENT, { builder: [{ paginate: 100 }] })).body.data.map((s: any) => [
        s.id,
        s,
      ]),
    );
    let seen = 0;
    for (const ticket of list.body.data) {
      const detail = await get(`tickets/${ticket.id}`, CLIENT, { with: ['messages'] });
      expect(detail.statements).toBe(2);
      for (const m of detail.body.messages.filter((x: any) => x.type === 'status-changed')) {
        const status = statuses.get(m.data.status.id) as any;
        expect(m.data.status.name).toBe(status.name_client ?? null);
        seen++;
      }
    }
    expect(seen).toBeGreaterThan(0);
  });

  it('a message reached through a to-one relation reads as its own show does (its presenter reads on its own)', async () => {
    const attachments = await get('attachments', ADMIN, {
      with: ['message'],
      builder: [{ whereNotNull: 'message_id' }, { paginate: 5 }],
    });
    const withMessage = attachments.body.data.filter((a: any) => a.message);
    expect(withMessage.length).toBeGreaterThan(0);
    for (const a of withMessage) {
      const own = await get(`messages/${a.message.id}`, ADMIN);
      expect(a.message.actor).toEqual(own.body.actor);
      expect(a.message.data).toEqual(own.body.data);
    }
  });
});
