/**
 * The badges of a detail screen's tabs (SPEC 2, x-tabs): `withSum[]=relation.field` on a show answers
 * the sum over the rows the caller may see, in the same statement as the record; names outside the
 * whitelist are a 422 that says what is wrong.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, targets, type TestApp } from './harness.ts';

describe.each(targets)('tab badges on $name', (target) => {
  let t: TestApp;
  let ticketId: number;
  let expected: { minutes: number; total: number; messages: number };

  beforeAll(async () => {
    t = await buildTestApp(target);
    // A demo ticket with time registrations and used products (the demo has both).
    const row = await sql<{ id: number }>`
      select t.id from tickets t
      where exists (select 1 from time_registrations r where r.ticket_id = t.id)
        and exists (select 1 from used_products u where u.ticket_id = t.id)
      order by t.id limit 1`.execute(t.db);
    ticketId = Number(row.rows[0]!.id);
    const sums = await sql<{ minutes: string; total: string; messages: string }>`
      select
        (select coalesce(sum(time_spent), 0) from time_registrations where ticket_id = ${ticketId}) as minutes,
        (select coalesce(sum(total), 0) from used_products where ticket_id = ${ticketId}) as total,
        (select count(*) from messages where morphable_type = 'ticket' and morphable_id = ${ticketId}) as messages
    `.execute(t.db);
    const s = sums.rows[0]!;
    expected = { minutes: Number(s.minutes), total: Number(s.total), messages: Number(s.messages) };
  }, 120_000);
  afterAll(() => t?.close());

  it('answers the sums and counts of the ticket tabs with the record', async () => {
    expect(expected.minutes).toBeGreaterThan(0);
    expect(expected.total).toBeGreaterThan(0);
    const res = await t.app.inject({
      url: `/api/tickets/${ticketId}?withSum[]=timeRegistrations.time_spent&withSum[]=usedProducts.total&withCount[]=messages`,
      headers: await t.as('admin@example.com'),
    });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.id).toBe(ticketId);
    expect(body.timeRegistrations_sum_time_spent).toBe(expected.minutes);
    expect(body.usedProducts_sum_total).toBeCloseTo(expected.total, 2);
    expect(body.messages_count).toBe(expected.messages);
  });

  it('sums zero over a relation without rows', async () => {
    const row = await sql<{ id: number }>`
      select t.id from tickets t
      where not exists (select 1 from used_products u where u.ticket_id = t.id) order by t.id limit 1`.execute(
      t.db,
    );
    const id = Number(row.rows[0]!.id);
    const res = await t.app.inject({
      url: `/api/tickets/${id}?withSum[]=usedProducts.total`,
      headers: await t.as('admin@example.com'),
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().usedProducts_sum_total).toBe(0);
  });

  it('refuses names outside the whitelist with a 422 that names the problem', async () => {
    const headers = await t.as('admin@example.com');
    const cases: [string, RegExp][] = [
      ['nothing.time_spent', /Unknown relation "nothing"/],
      ['company.id', /withSum needs a to-many relation; company is not one/],
      ['timeRegistrations.description', /timeRegistrations has no number field "description"/],
      ['timeRegistrations.missing', /has no number field "missing"/],
      ['timeRegistrations', /relation\.field/],
      ['timeRegistrations.time_spent.x', /relation\.field/],
    ];
    for (const [value, message] of cases) {
      const res = await t.app.inject({
        url: `/api/tickets/${ticketId}?withSum[]=${encodeURIComponent(value)}`,
        headers,
      });
      expect(res.statusCode, value).toBe(422);
      expect((res.json().errors.withSum as string[]).join(' '), value).toMatch(message);
    }
  });

  it('gives a client only the sum over the rows the portal shows them, and 404 for a ticket of another company', async () => {
    const own = await sql<{ id: number }>`
      select t.id from tickets t
      join companies c on c.id = t.company_id
      where c.name = 'Jansen BV' and t.is_template = false
        and exists (select 1 from time_registrations r where r.ticket_id = t.id)
      order by t.id limit 1`.execute(t.db);
    const ownId = Number(own.rows[0]!.id);
    const minutes = await sql<{ m: string }>`
      select coalesce(sum(time_spent), 0) as m from time_registrations where ticket_id = ${ownId}`.execute(
      t.db,
    );
    const headers = await t.as('client@example.com');
    const res = await t.app.inject({
      url: `/api/tickets/${ownId}?withSum[]=timeRegistrations.time_spent`,
      headers,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().timeRegistrations_sum_time_spent).toBe(Number(minutes.rows[0]!.m));

    const other = await sql<{ id: number }>`
      select t.id from tickets t join companies c on c.id = t.company_id
      where c.name = 'De Vries Installaties' order by t.id limit 1`.execute(t.db);
    const denied = await t.app.inject({
      url: `/api/tickets/${Number(other.rows[0]!.id)}?withSum[]=timeRegistrations.time_spent`,
      headers,
    });
    expect(denied.statusCode).toBe(404);
  });
});
