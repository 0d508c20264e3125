/**
 * The builder query's relations and counts (with, withCount, a record's show, the preset counts), and what
 * a client never reaches through them: internal notes, another company, concept quotes, draft invoices.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { buildTestApp, targets, type TestApp } from './harness.ts';
import { ADMIN, CLIENT, queryWorld, type QueryWorld } from './query-world.ts';

describe.each(targets)('builder query on $name', (target) => {
  let t: TestApp;
  let jansen: number;
  let devries: number;
  let get: QueryWorld['get'];
  let rawCount: QueryWorld['rawCount'];

  beforeAll(async () => {
    t = await buildTestApp(target);
    ({ jansen, devries, get, rawCount } = await queryWorld(t));
  });
  afterAll(() => t?.close());

  it('with loads relations in one query each; withCount counts', async () => {
    const { body } = await get('tickets', CLIENT, { with: ['company', 'status'], withCount: ['messages'] });
    const row = body.data[0];
    expect(row.company).toMatchObject({ id: jansen, name: 'Jansen BV' });
    expect(row.status).toMatchObject({ id: row.status_id });
    expect(typeof row.messages_count).toBe('number');
  });

  it('a client never receives internal notes: not in with, not in counts, not through whereHas', async () => {
    const internal = await rawCount(
      sql`select count(*) as n from messages m join tickets t on t.id = m.morphable_id and m.morphable_type = 'ticket' where t.company_id = ${jansen} and m.visible_to_client = false`,
    );
    expect(internal).toBeGreaterThan(0);
    const { body } = await get('tickets', CLIENT, {
      with: ['messages'],
      withCount: ['messages'],
      builder: [{ paginate: 100 }],
    });
    const messages = body.data.flatMap((r: any) => r.messages);
    expect(messages.length).toBeGreaterThan(0);
    expect(messages.every((m: any) => m.visible_to_client === true)).toBe(true);
    expect(body.data.every((r: any) => r.messages_count === r.messages.length)).toBe(true);
    const hidden = await get('tickets', CLIENT, {
      builder: [{ whereHas: ['messages', [{ where: ['visible_to_client', '=', 'false'] }]] }],
    });
    expect(hidden.body.total).toBe(0);
    const listed = await get('messages', CLIENT, {
      builder: [{ where: ['visible_to_client', '=', 'false'] }],
    });
    expect(listed.status).toBe(200);
    expect(listed.body.total).toBe(0);
  });

  it('a client cannot reach another company through with or whereHas', async () => {
    const probe = await get('tickets', CLIENT, {
      builder: [{ whereHas: ['company', [{ where: ['name', '=', 'De Vries Installaties'] }]] }],
    });
    expect(probe.body.total).toBe(0);
    const other = await t.db
      .selectFrom('tickets')
      .select('id')
      .where('company_id', '=', devries)
      .where('is_template', '=', false)
      .executeTakeFirstOrThrow();
    const show = await get(`tickets/${other.id}`, CLIENT);
    expect(show.status).toBe(404);
    const viaWith = await get('companies', CLIENT, { with: ['tickets'] });
    const tickets = viaWith.body.data.flatMap((c: any) => c.tickets);
    expect(tickets.every((tk: any) => tk.company_id === jansen)).toBe(true);
  });

  it('a client sees no concept quotes and no draft invoices', async () => {
    const concept = await t.db
      .selectFrom('quotes')
      .select('id')
      .where('company_id', '=', jansen)
      .where('status_id', '=', 1)
      .executeTakeFirst();
    const draft = await t.db
      .selectFrom('invoices')
      .select('id')
      .where('company_id', '=', jansen)
      .where('external_id', 'is', null)
      .executeTakeFirst();
    expect(concept, 'the demo data has a concept quote').toBeDefined();
    expect(draft, 'the demo data has a draft invoice').toBeDefined();
    const quotes = await get('quotes', CLIENT, { builder: [{ paginate: 100 }] });
    expect(quotes.body.total).toBeGreaterThan(0);
    expect(quotes.body.data.some((q: any) => q.status_id === 1)).toBe(false);
    expect((await get(`quotes/${concept!.id}`, CLIENT)).status).toBe(404);
    expect((await get(`quotes/${concept!.id}`, ADMIN)).status).toBe(200);
    const invoices = await get('invoices', CLIENT, { builder: [{ paginate: 100 }] });
    expect(invoices.body.total).toBeGreaterThan(0);
    expect(invoices.body.data.every((i: any) => i.external_id !== null)).toBe(true);
    expect((await get(`invoices/${draft!.id}`, CLIENT)).status).toBe(404);
  });

  it('show loads relations and counts', async () => {
    const first = (await get('tickets', CLIENT)).body.data[0];
    const { status, body } = await get(`tickets/${first.id}`, CLIENT, {
      with: ['company', 'messages'],
      withCount: ['messages'],
    });
    expect(status).toBe(200);
    expect(body.id).toBe(first.id);
    expect(body.company.name).toBe('Jansen BV');
    expect(body.messages_count).toBe(body.messages.length);
  });

  it('preset counts answer one count per builder', async () => {
    const status = (await get('tickets', CLIENT)).body.data[0].status_id;
    const builders = [
      { id: 1, builder: [] },
      { id: 2, builder: [{ where: ['status_id', '=', status] }] },
      { id: 'mine', builder: [{ whereNotNull: 'resolved_at' }] },
      { id: 4, builder: [{ whereNull: 'resolved_at' }] },
      { id: 5, builder: [{ s: 'zzzz-no-such-ticket' }, { paginate: 5 }] },
    ];
    const { status: code, body } = await get('presets-result-count/tickets', CLIENT, { builders });
    expect(code, JSON.stringify(body)).toBe(200);
    const total = (await get('tickets', CLIENT)).body.total;
    const withStatus = (await get('tickets', CLIENT, { builder: [{ where: ['status_id', '=', status] }] }))
      .body.total;
    expect(body[0]).toEqual({ id: 1, count: total });
    expect(body[1]).toEqual({ id: 2, count: withStatus });
    expect(body[2].id).toBe('mine');
    expect(body[2].count + body[3].count).toBe(total);
    expect(body[4]).toEqual({ id: 5, count: 0 });
  });
});
