/**
 * Issue 7: list totals come from a summary table (tickets_counts, migration 0007) when every condition
 * tests its columns. Whatever the writes, those totals equal a count(*) of the rows themselves.
 */
import { sql } from 'kysely';
import qs from 'qs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFERRED_JOIN_OFFSET } from '../../server/query/select.ts';
import { buildTestApp, targets, type TestApp } from './harness.ts';

describe.each(targets)('exact list totals on $name', (target) => {
  let t: TestApp;
  const total = async (builder: object[], email = 'admin@example.com') => {
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/tickets?${qs.stringify({ builder })}`,
      headers: await t.as(email),
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().total as number;
  };
  const counted = async (where: string) =>
    Number(
      (
        await sql
          .raw<{ n: number }>(`select count(*)::int as n from tickets where not is_template and ${where}`)
          .execute(t.db)
      ).rows[0]!.n,
    );

  beforeAll(async () => {
    t = await buildTestApp(target);
  });
  afterAll(() => t?.close());

  it('the summary agrees with the rows after inserts, moves, template flips and deletes', async () => {
    const { rows: statuses } = await sql<{ id: number }>`select id from ticket_statuses order by id`.execute(
      t.db,
    );
    const { rows: companies } = await sql<{ id: number }>`select id from companies order by id`.execute(t.db);
    const [s1, s2] = statuses.map((s) => Number(s.id));
    const [c1, c2] = companies.map((c) => Number(c.id));
    const check = async () => {
      const summary = await sql<{ n: number }>`
        select coalesce(sum(n), 0)::int as n from tickets_counts where not is_template`.execute(t.db);
      expect(Number(summary.rows[0]!.n)).toBe(await counted('true'));
      expect(await total([])).toBe(await counted('true'));
      expect(await total([{ where: ['status_id', '=', s2] }])).toBe(await counted(`status_id = ${s2}`));
      expect(await total([{ whereIn: ['company_id', [c1, c2]] }, { where: ['status_id', '!=', s1] }])).toBe(
        await counted(`company_id in (${c1}, ${c2}) and status_id <> ${s1}`),
      );
      expect(await total([{ whereNull: 'company_id' }])).toBe(await counted('company_id is null'));
      expect(await total([{ where: ['operator_id', '=', 'me'] }, { whereNotNull: 'priority_id' }])).toBe(
        await counted(
          `operator_id = (select id from users where email = 'admin@example.com') and priority_id is not null`,
        ),
      );
      const byOperator = await sql<{ n: number }>`
        select coalesce(sum(n), 0)::int as n from tickets_counts_by_operator where not is_template`.execute(
        t.db,
      );
      expect(Number(byOperator.rows[0]!.n)).toBe(await counted('true'));
      const client = await sql<{ n: number }>`
        select count(*)::int as n from tickets t join company_user cu on cu.company_id = t.company_id
        join users u on u.id = cu.user_id where u.email = 'client@example.com' and not t.is_template`.execute(
        t.db,
      );
      expect(await total([], 'client@example.com')).toBe(Number(client.rows[0]!.n));
    };
    await check();
    const { rows: inserted } = await sql<{ id: number }>`
      insert into tickets (tenant_id, description, status_id, company_id)
      select tenant_id, 'counted', ${s2}, null from tickets where not is_template limit 3 returning id`.execute(
      t.db,
    );
    await check();
    const ids = inserted.map((r) => Number(r.id));
    await sql`update tickets set company_id = ${c2}, status_id = ${s1} where id = ${ids[0]!}`.execute(t.db);
    await sql`update tickets set is_template = true where id = ${ids[1]!}`.execute(t.db);
    await sql`update tickets set operator_id = (select id from users where email = 'admin@example.com'), priority_id = (select min(id) from priorities) where id = ${ids[2]!}`.execute(
      t.db,
    );
    await sql`update tickets set description = 'only the text' where id = ${ids[2]!}`.execute(t.db);
    await check();
    await sql`delete from tickets where id in (${sql.join(ids)})`.execute(t.db);
    await check();
  });

  it('a deep page (ids first, then their rows) holds the same rows in the same order', async () => {
    await sql`
      insert into tickets (tenant_id, description, status_id, company_id, updated_at)
      select t.tenant_id, 'deep ' || g, t.status_id, t.company_id, now() - g * interval '1 minute'
      from (select * from tickets where not is_template limit 1) t cross join generate_series(1, 1100) g`.execute(
      t.db,
    );
    const page = 70;
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/tickets?${qs.stringify({ builder: [{ paginate: 15 }], page })}`,
      headers: await t.as('admin@example.com'),
    });
    expect(res.statusCode, res.body).toBe(200);
    const expected = await sql<{ id: number }>`
      select id from tickets where not is_template order by updated_at desc, id desc limit 15 offset ${(page - 1) * 15}`.execute(
      t.db,
    );
    expect((page - 1) * 15).toBeGreaterThanOrEqual(DEFERRED_JOIN_OFFSET);
    expect(res.json().data.map((r: { id: number }) => r.id)).toEqual(expected.rows.map((r) => Number(r.id)));
    expect(res.json().total).toBe(await counted('true'));
  });

  it('answers a total with other conditions by counting the rows', async () => {
    expect(await total([{ s: 'printer' }])).toBe(
      await counted(`(reference ilike '%printer%' or description ilike '%printer%')`),
    );
  });
});
