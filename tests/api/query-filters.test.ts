/**
 * The builder query on the lists (GET /api/{resource}): a client's tickets only their company's, with the
 * right total and page numbers, and where, whereIn, whereNull, whereNotNull, orderBy, whereBetween, s,
 * like, whereHas, doesntHave, customField and 'me' held against counts straight from the database.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { buildTestApp, targets, type TestApp } from './harness.ts';
import { ADMIN, CLIENT, OTHER, queryWorld, type QueryWorld } from './query-world.ts';

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

  it('client@example.com lists only Jansen BV tickets, with the right total and page numbers', async () => {
    const expected = await rawCount(
      sql`select count(*) as n from tickets where company_id = ${jansen} and is_template = false`,
    );
    expect(expected).toBeGreaterThanOrEqual(60);
    const { status, body } = await get('tickets', CLIENT);
    expect(status).toBe(200);
    expect(body.total).toBe(expected);
    expect(body.per_page).toBe(15);
    expect(body.current_page).toBe(1);
    expect(body.last_page).toBe(Math.ceil(expected / 15));
    expect(body.from).toBe(1);
    expect(body.to).toBe(15);
    expect(body.data).toHaveLength(15);
    expect(body.data.every((row: any) => row.company_id === jansen)).toBe(true);
    const times = body.data.map((row: any) => Date.parse(row.updated_at));
    expect(times).toEqual([...times].sort((a, b) => b - a));

    const page2 = await get('tickets', CLIENT, { page: 2 });
    expect(page2.body.from).toBe(16);
    expect(page2.body.to).toBe(30);
    const ids1 = new Set(body.data.map((r: any) => r.id));
    expect(page2.body.data.some((r: any) => ids1.has(r.id))).toBe(false);

    const last = await get('tickets', CLIENT, { page: body.last_page });
    expect(last.body.to).toBe(expected);
  });

  it('other@example.com sees none of Jansen BV', async () => {
    const { body } = await get('tickets', OTHER, { builder: [{ paginate: 100 }] });
    expect(body.total).toBeGreaterThan(0);
    expect(body.data.every((row: any) => row.company_id === devries)).toBe(true);
    const companies = await get('companies', OTHER);
    expect(companies.body.data.map((c: any) => c.name)).toEqual(['De Vries Installaties']);
  });

  it('where, whereIn, whereNull, whereNotNull and orderBy filter real rows', async () => {
    const status = (
      await t.db
        .selectFrom('tickets')
        .select('status_id')
        .where('company_id', '=', jansen)
        .limit(1)
        .executeTakeFirstOrThrow()
    ).status_id as number;
    const expected = await rawCount(
      sql`select count(*) as n from tickets where status_id = ${status} and is_template = false`,
    );
    const where = await get('tickets', ADMIN, {
      builder: [{ where: ['status_id', '=', status] }, { paginate: 100 }],
    });
    expect(where.body.total).toBe(expected);
    expect(where.body.data.every((r: any) => r.status_id === status)).toBe(true);

    const notEq = await get('tickets', ADMIN, { builder: [{ where: ['status_id', '!=', status] }] });
    const all = await get('tickets', ADMIN);
    expect(notEq.body.total + where.body.total).toBe(all.body.total);

    const two = await get('tickets', ADMIN, { builder: [{ whereIn: ['company_id', [jansen, devries]] }] });
    const both = await rawCount(
      sql`select count(*) as n from tickets where company_id in (${jansen}, ${devries}) and is_template = false`,
    );
    expect(two.body.total).toBe(both);

    const nullOp = await get('tickets', ADMIN, { builder: [{ whereNull: 'operator_id' }] });
    const notNull = await get('tickets', ADMIN, { builder: [{ whereNotNull: 'operator_id' }] });
    expect(nullOp.body.total + notNull.body.total).toBe(all.body.total);
    expect(nullOp.body.data.every((r: any) => r.operator_id === null)).toBe(true);

    const sorted = await get('tickets', ADMIN, { builder: [{ orderBy: ['id', 'asc'] }, { paginate: 50 }] });
    const ids = sorted.body.data.map((r: any) => r.id);
    expect(ids).toEqual([...ids].sort((a: number, b: number) => a - b));
  });

  it('whereBetween, s and like', async () => {
    const range = await get('tickets', ADMIN, {
      builder: [{ whereBetween: ['created_at', ['2000-01-01', '2100-01-01 00:00:00']] }],
    });
    const all = await get('tickets', ADMIN);
    expect(range.body.total).toBe(all.body.total);
    const none = await get('tickets', ADMIN, {
      builder: [{ whereBetween: ['created_at', ['1990-01-01', '1990-01-02']] }],
    });
    expect(none.body.total).toBe(0);

    const one = all.body.data[0];
    const found = await get('tickets', ADMIN, { builder: [{ s: one.reference }] });
    expect(found.body.data.map((r: any) => r.id)).toContain(one.id);
    const upper = await get('tickets', ADMIN, { builder: [{ s: one.reference.toLowerCase() }] });
    expect(upper.body.total).toBe(found.body.total);
    const wildcard = await get('tickets', ADMIN, { builder: [{ s: '%' }] });
    expect(wildcard.body.total).toBe(0);
    const like = await get('tickets', ADMIN, {
      builder: [{ where: ['reference', 'like', one.reference.slice(2)] }],
    });
    expect(like.body.data.map((r: any) => r.id)).toContain(one.id);
  });

  it('whereHas and doesntHave go through relations', async () => {
    const withMessages = await rawCount(
      sql`select count(*) as n from tickets t where t.is_template = false and exists (select 1 from messages m where m.morphable_type = 'ticket' and m.morphable_id = t.id)`,
    );
    const has = await get('tickets', ADMIN, { builder: [{ whereHas: ['messages', []] }] });
    const hasnt = await get('tickets', ADMIN, { builder: [{ doesntHave: 'messages' }] });
    const all = await get('tickets', ADMIN);
    expect(has.body.total).toBe(withMessages);
    expect(has.body.total + hasnt.body.total).toBe(all.body.total);

    const viaCompany = await get('tickets', ADMIN, {
      builder: [{ whereHas: ['company', [{ where: ['name', '=', 'Jansen BV'] }]] }],
    });
    const jansenTotal = await rawCount(
      sql`select count(*) as n from tickets where company_id = ${jansen} and is_template = false`,
    );
    expect(viaCompany.body.total).toBe(jansenTotal);
  });

  it('customField filters on a custom value', async () => {
    const tenant = (await t.db.selectFrom('tenants').select('id').executeTakeFirstOrThrow()).id;
    const field = await t.db
      .insertInto('custom_fields')
      .values({
        tenant_id: tenant,
        name: 'test_colour',
        title: 'Colour',
        type: 0,
        order: 99,
        morphable_type: 'ticket',
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const ticket = (await get('tickets', ADMIN)).body.data[0];
    await t.db
      .insertInto('custom_values')
      .values({
        tenant_id: tenant,
        custom_field_id: field.id,
        morphable_type: 'ticket',
        morphable_id: ticket.id,
        value: 'red',
      })
      .execute();
    const red = await get('tickets', ADMIN, { builder: [{ customField: ['test_colour', '=', 'red'] }] });
    expect(red.body.data.map((r: any) => r.id)).toEqual([ticket.id]);
    const notRed = await get('tickets', ADMIN, { builder: [{ customField: ['test_colour', '!=', 'red'] }] });
    expect(notRed.body.total).toBe(0);
  });

  it("'me' resolves to the caller", async () => {
    const admin = (await t.login(ADMIN)).body.user;
    const mine = await get('tickets', ADMIN, {
      builder: [{ where: ['operator_id', '=', 'me'] }, { paginate: 100 }],
    });
    const expected = await rawCount(
      sql`select count(*) as n from tickets where operator_id = ${admin.id} and is_template = false`,
    );
    expect(mine.body.total).toBe(expected);
  });
});
