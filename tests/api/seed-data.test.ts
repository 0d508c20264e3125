/*
 * What the seed makes: the permissions of every role (synced from the schemas) and the demo data
 * against DESIGN.md section 9, on PGlite and, when TEST_DATABASE_URL is set, on PostgreSQL: copies of
 * the run's seed (tests/api/schema-world.ts). The migration itself: tests/api/schema-migration.test.ts.
 */
import argon2 from 'argon2';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../server/db/database.ts';
import { EXTRA_PERMISSIONS, syncPermissions } from '../../server/db/seed/permissions.ts';
import { bySchema } from '../../server/db/schema-tables.ts';
import { engines, openSeedCopy, reg, resources, type SeedCopy } from './schema-world.ts';

const count = async (db: Db, query: ReturnType<typeof sql>) =>
  Number(((await query.execute(db)).rows[0] as { n: unknown }).n);

describe.each(engines)('the database on %s', (_name, target) => {
  let { db, tenantId, dispose } = {} as SeedCopy;

  beforeAll(async () => {
    ({ db, tenantId, dispose } = await openSeedCopy(target));
  });

  afterAll(async () => {
    await dispose?.();
  });

  describe('the permissions', () => {
    const rolePermissions = async (role: string) =>
      (
        await db
          .selectFrom('permission_role as pr')
          .innerJoin('roles as r', 'r.id', 'pr.role_id')
          .innerJoin('permissions as p', 'p.id', 'pr.permission_id')
          .where('r.name', '=', role)
          .where('r.tenant_id', '=', tenantId)
          .select('p.name')
          .execute()
      ).map((r) => String(r.name));

    it('holds every name of the schemas plus the extra ones, once, also after a second sync', async () => {
      await syncPermissions(db, reg);
      const names = (await db.selectFrom('permissions').select('name').execute()).map((r) => String(r.name));
      expect(new Set(names).size).toBe(names.length);
      for (const name of [...reg.permissionNames(), ...EXTRA_PERMISSIONS]) expect(names).toContain(name);
    });

    it('gives the second line every tenant permission and a new role with grants_all as well', async () => {
      const all = [...reg.permissionNames(), ...EXTRA_PERMISSIONS].filter((n) => n.startsWith('tenant.'));
      expect(all).toContain('tenant.reports.index');
      expect((await rolePermissions('Tweede lijn')).sort()).toEqual(all.sort());
      await db
        .insertInto('roles')
        .values({ tenant_id: tenantId, name: 'Beheerder', grants_all: true })
        .execute();
      await syncPermissions(db, reg);
      expect((await rolePermissions('Beheerder')).length).toBe(all.length);
    });

    it('keeps settings changes, merges and invoicing from the first line', async () => {
      const names = await rolePermissions('Eerste lijn');
      expect(names).toContain('tenant.tickets.destroy');
      expect(names).toContain('tenant.operators.index');
      expect(names).toContain('tenant.exports.index');
      for (const denied of [
        'tenant.operators.update',
        'tenant.operators.destroy',
        'tenant.tickets.merge',
        'tenant.roles.destroy',
        'tenant.invoices.index',
        'tenant.invoices.export',
        'tenant.time-registrations.invoice',
        'tenant.used-products.deinvoice',
        'tenant.reports.index',
      ]) {
        expect(names).not.toContain(denied);
      }
    });

    it('gives clients every portal permission and no back-office one', async () => {
      const names = await rolePermissions('Klant');
      const portal = [
        ...reg.permissionNames().filter((n) => n.startsWith('portal.')),
        'portal.tickets.create',
      ];
      for (const name of [...portal, 'portal.invoices.download']) expect(names).toContain(name);
      expect(names.filter((n) => !n.startsWith('portal.'))).toEqual([]);
    });
  });

  describe('the demo data', () => {
    const companyId = async (name: string) =>
      Number(
        (await db.selectFrom('companies').select('id').where('name', '=', name).executeTakeFirstOrThrow()).id,
      );

    it('has rows for every resource', async () => {
      const empty: string[] = [];
      for (const r of resources) {
        let query = bySchema(db)
          .selectFrom(r.table)
          .select((eb) => eb.fn.countAll().as('n'));
        for (const [field, op, value] of r.fixedWhere)
          query = query.where(r.fields[field]!.column, op === '!=' ? '<>' : op, value);
        const { n } = await query.executeTakeFirstOrThrow();
        if (Number(n) === 0) empty.push(r.name);
      }
      expect(empty).toEqual([]);
    });

    it('has the four demo accounts with password demo', async () => {
      const users = await db
        .selectFrom('users')
        .select(['email', 'password_hash', 'is_operator', 'is_staff', 'modules', 'full_name'])
        .where('email', 'in', [
          'admin@example.com',
          'operator@example.com',
          'client@example.com',
          'other@example.com',
        ])
        .orderBy('email')
        .execute();
      expect(users.map((u) => [u.email, u.is_operator, u.is_staff])).toEqual([
        ['admin@example.com', 2, true],
        ['client@example.com', 0, false],
        ['operator@example.com', 1, true],
        ['other@example.com', 0, false],
      ]);
      for (const u of users) expect(await argon2.verify(String(u.password_hash), 'demo')).toBe(true);
      expect(users[0]!.modules).toEqual(['invoice_pdf_export']);
      expect(users[0]!.full_name).toMatch(/^\S+ \S+/);
    });

    it('makes each client a member of exactly their own company', async () => {
      const rows = await db
        .selectFrom('company_user as cu')
        .innerJoin('users as u', 'u.id', 'cu.user_id')
        .innerJoin('companies as c', 'c.id', 'cu.company_id')
        .select(['u.email', 'c.name'])
        .where('u.email', 'in', ['client@example.com', 'other@example.com'])
        .orderBy('u.email')
        .execute();
      expect(rows).toEqual([
        { email: 'client@example.com', name: 'Jansen BV' },
        { email: 'other@example.com', name: 'De Vries Installaties' },
      ]);
    });

    it('has ticket statuses of every internal type and priorities', async () => {
      const types = await db.selectFrom('ticket_statuses').select('internal_type').distinct().execute();
      expect(types.map((t) => t.internal_type).sort()).toEqual([1, 2, 3, 4, 5, 6]);
      const assetTypes = await db.selectFrom('asset_statuses').select('internal_type').distinct().execute();
      expect(assetTypes.map((t) => t.internal_type).sort()).toEqual([1, 2, 3, 4, 5]);
      expect(await count(db, sql`select count(*) as n from priorities`)).toBeGreaterThanOrEqual(3);
    });

    it.each([
      ['Jansen BV', 60],
      ['De Vries Installaties', 20],
    ])('gives %s at least %i tickets in every status, with references', async (name, minimum) => {
      const id = await companyId(name);
      const statuses = await count(db, sql`select count(*) as n from ticket_statuses`);
      const stats = (
        await sql<{ n: number; statuses: number; referenced: number; days: number }>`
          select count(*)::int as n, count(distinct status_id)::int as statuses,
                 count(*) filter (where reference ~ '^T-[0-9]{4}-[0-9]{5}$')::int as referenced,
                 count(distinct updated_at::date)::int as days
          from tickets where company_id = ${id} and not is_template`.execute(db)
      ).rows[0]!;
      expect(stats.n).toBeGreaterThanOrEqual(minimum);
      expect(stats.statuses).toBe(statuses);
      expect(stats.referenced).toBe(stats.n);
      expect(stats.days).toBeGreaterThan(stats.n / 3);
    });

    it.each(['Jansen BV', 'De Vries Installaties'])('gives %s everything the portal shows', async (name) => {
      const id = await companyId(name);
      const q = (query: ReturnType<typeof sql>) => count(db, query);
      const threads = await sql<{
        from_client: number;
        to_client: number;
        internal: number;
        attachments: number;
      }>`
        select count(*) filter (where m.is_from_client and m.visible_to_client)::int as from_client,
               count(*) filter (where not m.is_from_client and m.visible_to_client)::int as to_client,
               count(*) filter (where not m.visible_to_client)::int as internal,
               (select count(*)::int from attachments a join messages m2 on m2.id = a.message_id
                  join tickets t2 on m2.morphable_type = 'ticket' and t2.id = m2.morphable_id
                  where t2.company_id = ${id}) as attachments
        from messages m join tickets t on m.morphable_type = 'ticket' and t.id = m.morphable_id
        where t.company_id = ${id}`.execute(db);
      expect(threads.rows[0]!.from_client).toBeGreaterThan(0);
      expect(threads.rows[0]!.to_client).toBeGreaterThan(0);
      expect(threads.rows[0]!.internal).toBeGreaterThan(0);
      expect(threads.rows[0]!.attachments).toBeGreaterThan(0);

      expect(await q(sql`select count(*) as n from assets where company_id = ${id}`)).toBeGreaterThan(0);
      const quoteStatuses = await sql<{ status_id: number }>`
        select distinct status_id from quotes where company_id = ${id} order by status_id`.execute(db);
      expect(quoteStatuses.rows.map((r) => r.status_id)).toEqual([1, 2, 3, 4]);
      expect(
        await q(sql`select count(*) as n from quotes q where company_id = ${id}
          and not exists (select 1 from quote_lines l where l.quote_id = q.id)`),
      ).toBe(0);
      const invoiceStatuses = await sql<{ status_id: number }>`
        select distinct status_id from invoices where company_id = ${id} order by status_id`.execute(db);
      expect(invoiceStatuses.rows.map((r) => r.status_id)).toEqual([1, 2, 3, 4, 8, 9]);
      expect(
        await q(sql`select count(*) as n from invoices where company_id = ${id} and external_id is null`),
      ).toBe(1);

      const contracts = await sql<{ period: string; periods: number; registrations: number }>`
        select c.period, count(distinct p.id)::int as periods, count(tr.id)::int as registrations
        from contracts c join company_contract cc on cc.contract_id = c.id
        join contract_periods p on p.contract_id = c.id
        left join time_registrations tr on tr.contract_period_id = p.id
        where cc.company_id = ${id} group by c.id, c.period order by c.period`.execute(db);
      expect(contracts.rows.map((c) => c.period)).toHaveLength(2);
      expect(contracts.rows.find((c) => c.period === 'none')?.registrations).toBeGreaterThan(0);
      const hours = contracts.rows.find((c) => c.period !== 'none')!;
      expect(hours.periods).toBeGreaterThan(1);
      expect(hours.registrations).toBeGreaterThan(0);

      expect(
        await q(sql`select count(*) as n from subscriptions s where company_id = ${id}
          and exists (select 1 from subscription_lines l where l.subscription_id = s.id)`),
      ).toBeGreaterThan(0);
      expect(await q(sql`select count(*) as n from used_products where company_id = ${id}`)).toBeGreaterThan(
        0,
      );
      expect(await q(sql`select count(*) as n from deals where company_id = ${id}`)).toBeGreaterThan(0);
      expect(await q(sql`select count(*) as n from projects where company_id = ${id}`)).toBeGreaterThan(0);
    });

    it("never lets one client's company point at the other's", async () => {
      // Each query counts rows whose company differs from the company of a row they point at.
      const leaks: Record<string, ReturnType<typeof sql>> = {
        'ticket client': sql`select count(*) as n from tickets t where t.client_id is not null and not exists
          (select 1 from company_user cu where cu.user_id = t.client_id and cu.company_id = t.company_id)`,
        'ticket asset': sql`select count(*) as n from tickets t join assets a on a.id = t.asset_id
          where a.company_id is distinct from t.company_id`,
        'ticket group': sql`select count(*) as n from tickets t join ticket_groups g on g.id = t.ticket_group_id
          where g.company_id is distinct from t.company_id`,
        'asset client': sql`select count(*) as n from assets a where a.client_id is not null and not exists
          (select 1 from company_user cu where cu.user_id = a.client_id and cu.company_id = a.company_id)`,
        'time on contract': sql`select count(*) as n from time_registrations tr
          join tickets t on t.id = tr.ticket_id join contract_periods p on p.id = tr.contract_period_id
          where not exists (select 1 from company_contract cc
            where cc.contract_id = p.contract_id and cc.company_id = t.company_id)`,
        'time on invoice': sql`select count(*) as n from time_registrations tr
          join tickets t on t.id = tr.ticket_id join invoices i on i.id = tr.invoice_id
          where i.company_id is distinct from t.company_id`,
        'contract client': sql`select count(*) as n from contracts c join company_contract cc on cc.contract_id = c.id
          where c.client_id is not null and not exists
          (select 1 from company_user cu where cu.user_id = c.client_id and cu.company_id = cc.company_id)`,
        'quote deal': sql`select count(*) as n from quotes q join deals d on d.id = q.deal_id
          where d.company_id is distinct from q.company_id`,
        'quote client': sql`select count(*) as n from quotes q where q.client_id is not null and not exists
          (select 1 from company_user cu where cu.user_id = q.client_id and cu.company_id = q.company_id)`,
        'project deal': sql`select count(*) as n from projects p join deals d on d.id = p.deal_id
          where d.company_id is distinct from p.company_id`,
        'used product': sql`select count(*) as n from used_products u
          left join projects p on p.id = u.project_id left join quotes q on q.id = u.quote_id
          left join tickets t on t.id = u.ticket_id left join invoices i on i.id = u.invoice_id
          where (p.id is not null and p.company_id is distinct from u.company_id)
             or (q.id is not null and q.company_id is distinct from u.company_id)
             or (t.id is not null and t.company_id is distinct from u.company_id)
             or (i.id is not null and i.company_id is distinct from u.company_id)`,
        'message actor': sql`select count(*) as n from messages m join tickets t
          on m.morphable_type = 'ticket' and t.id = m.morphable_id join users u on u.id = m.actor_id
          where not u.is_staff and not exists
          (select 1 from company_user cu where cu.user_id = u.id and cu.company_id = t.company_id)`,
      };
      const found: Record<string, number> = {};
      for (const [name, query] of Object.entries(leaks)) found[name] = await count(db, query);
      expect(found).toEqual(Object.fromEntries(Object.keys(leaks).map((k) => [k, 0])));
    });

    it('keeps contract periods in step with their time registrations', async () => {
      const wrong = await count(
        db,
        sql`select count(*) as n from contract_periods p where p.registered_time <>
          (select coalesce(sum(tr.time_spent_rounded), 0) from time_registrations tr where tr.contract_period_id = p.id)
          or p.minutes_remaining <> p.minutes_total - p.registered_time`,
      );
      expect(wrong).toBe(0);
    });

    it('gives the admin table presets and exactly one default settings view per list', async () => {
      const admin = await db
        .selectFrom('users')
        .select('id')
        .where('email', '=', 'admin@example.com')
        .executeTakeFirstOrThrow();
      expect(
        await count(db, sql`select count(*) as n from table_presets where user_id = ${admin.id}`),
      ).toBeGreaterThan(0);
      const defaults = await sql<{ type: string; n: number }>`
        select type, count(*) filter (where is_default)::int as n from settings_views where user_id = ${admin.id}
        group by type`.execute(db);
      expect(defaults.rows.length).toBeGreaterThan(0);
      for (const row of defaults.rows) expect(row.n, row.type).toBe(1);
    });
  });
});
