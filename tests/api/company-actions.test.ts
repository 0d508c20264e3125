/**
 * Company archive and merge (SPEC 7, issue 6): every reference to a merged company moves to the kept
 * one in one transaction, or nothing moves; two merges racing on the same company lose no row.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, targets, type TestApp } from './harness.ts';
import { backOffice, type BackOffice } from './back-office.ts';

/** Tables with a company_id column (every foreign key to companies of the initial migration). */
const COMPANY_TABLES = [
  'tickets',
  'assets',
  'ticket_groups',
  'deals',
  'projects',
  'quotes',
  'subscriptions',
  'invoices',
  'used_products',
  'company_contract',
];

describe.each(targets)('company actions on $name', (target) => {
  let t: TestApp;
  let b: BackOffice;
  let statusId: number;
  let fieldA: number;
  let fieldB: number;
  let serial = 0;
  let clients: number[];

  const post = (url: string, headers: Record<string, string>, payload?: object) =>
    t.app.inject({ method: 'POST', url, headers, ...(payload && { payload }) });

  async function makeCompany(tenantId = b.tenantId) {
    serial += 1;
    const row = await t.db
      .insertInto('companies')
      .values({ tenant_id: tenantId, name: `Testbedrijf ${serial}` })
      .returning('id')
      .executeTakeFirstOrThrow();
    return Number(row.id);
  }

  /** One row in every table that points at the company, plus a message, a custom value and clients. */
  async function fill(companyId: number, clientIds: number[], values: [number, string][] = []) {
    const T = { tenant_id: b.tenantId, company_id: companyId };
    await t.db
      .insertInto('tickets')
      .values({ ...T, description: 'x', status_id: statusId })
      .execute();
    await t.db
      .insertInto('assets')
      .values({ ...T, name: 'Laptop' })
      .execute();
    await t.db
      .insertInto('ticket_groups')
      .values({ ...T, name: 'Groep' })
      .execute();
    const deal = await t.db
      .insertInto('deals')
      .values({ ...T, description: 'Deal' })
      .returning('id')
      .executeTakeFirstOrThrow();
    await t.db
      .insertInto('projects')
      .values({ ...T, name: 'Project', deal_id: deal.id })
      .execute();
    await t.db
      .insertInto('quotes')
      .values({ ...T, name: 'Offerte' })
      .execute();
    await t.db
      .insertInto('subscriptions')
      .values({ ...T, description: 'Abonnement', period: 'month', billing_start_date: '2026-01-01' })
      .execute();
    await t.db
      .insertInto('invoices')
      .values({ ...T, date: '2026-01-01' })
      .execute();
    await t.db
      .insertInto('used_products')
      .values({ ...T, description: 'Kabel', quantity: 1, price: 5, invoice_moment: 1, type: 1 })
      .execute();
    const contract = await t.db
      .insertInto('contracts')
      .values({ tenant_id: b.tenantId, name: 'Contract', period: 'month', start_date: '2026-01-01' })
      .returning('id')
      .executeTakeFirstOrThrow();
    await t.db
      .insertInto('company_contract')
      .values({ company_id: companyId, contract_id: contract.id })
      .execute();
    await t.db
      .insertInto('messages')
      .values({
        tenant_id: b.tenantId,
        message: '<p>x</p>',
        morphable_type: 'company',
        morphable_id: companyId,
      })
      .execute();
    for (const userId of clientIds)
      await t.db
        .insertInto('company_user')
        .values({ tenant_id: b.tenantId, company_id: companyId, user_id: userId })
        .execute();
    for (const [fieldId, value] of values) {
      await t.db
        .insertInto('custom_values')
        .values({
          tenant_id: b.tenantId,
          custom_field_id: fieldId,
          morphable_type: 'company',
          morphable_id: companyId,
          value,
        })
        .execute();
    }
  }

  /** Rows per table that point at each company. */
  async function owned(ids: number[]) {
    const result: Record<string, Record<number, number>> = {};
    const tally = async (name: string, query: ReturnType<typeof sql>) => {
      const { rows } = await query.execute(t.db);
      result[name] = Object.fromEntries(ids.map((id) => [id, 0]));
      for (const row of rows as { id: number; n: number }[]) result[name]![Number(row.id)] = Number(row.n);
    };
    for (const table of [...COMPANY_TABLES, 'company_user']) {
      await tally(
        table,
        sql`select company_id as id, count(*) as n from ${sql.table(table)} where company_id = any(${ids}::int[]) group by 1`,
      );
    }
    for (const [name, type] of [
      ['messages', 'company'],
      ['custom_values', 'company'],
    ] as const) {
      await tally(
        name,
        sql`select morphable_id as id, count(*) as n from ${sql.table(name)}
            where morphable_type = ${type} and morphable_id = any(${ids}::int[]) group by 1`,
      );
    }
    return result;
  }
  const total = (counts: Record<number, number>) => Object.values(counts).reduce((a, n) => a + n, 0);

  const exists = async (id: number) =>
    !!(await t.db.selectFrom('companies').select('id').where('id', '=', id).executeTakeFirst());

  beforeAll(async () => {
    t = await buildTestApp(target);
    b = await backOffice(t, ['tenant.companies.archive', 'tenant.companies.merge']);
    statusId = Number(
      (
        await t.db
          .selectFrom('ticket_statuses')
          .select('id')
          .where('tenant_id', '=', b.tenantId)
          .executeTakeFirstOrThrow()
      ).id,
    );
    const fields = await t.db
      .insertInto('custom_fields')
      .values([
        { tenant_id: b.tenantId, name: 'kvk', title: 'KvK', type: 0, morphable_type: 'company' },
        { tenant_id: b.tenantId, name: 'branche', title: 'Branche', type: 0, morphable_type: 'company' },
      ])
      .returning('id')
      .execute();
    [fieldA, fieldB] = fields.map((f) => Number(f.id)) as [number, number];
    clients = (
      await t.db
        .selectFrom('users')
        .select('id')
        .where('tenant_id', '=', b.tenantId)
        .where('is_staff', '=', false)
        .orderBy('id')
        .limit(3)
        .execute()
    ).map((u) => Number(u.id));
    expect(clients).toHaveLength(3);
  });
  afterAll(() => t?.close());

  describe('POST /api/companies/{id}/archive', () => {
    it('sets archived_at, and keeps the first date when archived again', async () => {
      const id = await makeCompany();
      const res = await post(`/api/companies/${id}/archive`, b.admin);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().archived_at).not.toBeNull();
      const read = async () =>
        (
          await t.db
            .selectFrom('companies')
            .select('archived_at')
            .where('id', '=', id)
            .executeTakeFirstOrThrow()
        ).archived_at;
      const first = await read();
      expect(first).not.toBeNull();
      expect((await post(`/api/companies/${id}/archive`, b.admin)).statusCode).toBe(200);
      expect(await read()).toEqual(first);
    });
  });

  describe('POST /api/companies/merge', () => {
    it('moves every reference to the first company, without duplicate clients or values, and deletes the others', async () => {
      const [kept, one, two] = [await makeCompany(), await makeCompany(), await makeCompany()];
      const [c1, c2, c3] = clients as [number, number, number];
      await fill(kept, [c1], [[fieldA, 'kept']]);
      await fill(
        one,
        [c1, c2],
        [
          [fieldA, 'merged'],
          [fieldB, 'ICT'],
        ],
      );
      await fill(two, [c2, c3]);
      const before = await owned([kept, one, two]);
      const res = await post('/api/companies/merge', b.admin, { ids: [kept, one, two] });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().id).toBe(kept);
      const after = await owned([kept, one, two]);
      for (const table of [...COMPANY_TABLES, 'messages']) {
        expect(after[table]![kept], table).toBe(total(before[table]!));
        expect(after[table]![one]! + after[table]![two]!, table).toBe(0);
      }
      const pivot = await t.db
        .selectFrom('company_user')
        .select('user_id')
        .where('company_id', '=', kept)
        .orderBy('user_id')
        .execute();
      expect(pivot.map((r) => Number(r.user_id))).toEqual([c1, c2, c3]);
      const values = await t.db
        .selectFrom('custom_values')
        .select(['custom_field_id', 'value'])
        .where('morphable_type', '=', 'company')
        .where('morphable_id', '=', kept)
        .orderBy('custom_field_id')
        .execute();
      expect(values).toEqual([
        { custom_field_id: fieldA, value: 'kept' },
        { custom_field_id: fieldB, value: 'ICT' },
      ]);
      expect([await exists(kept), await exists(one), await exists(two)]).toEqual([true, false, false]);
    });

    it('finds a table added later through its foreign key', async () => {
      await sql`create table company_notes (id serial primary key,
        company_id integer not null references companies(id) on delete cascade, note text)`.execute(t.db);
      const [kept, one] = [await makeCompany(), await makeCompany()];
      await sql`insert into company_notes (company_id, note) values (${one}, 'a'), (${one}, 'b')`.execute(
        t.db,
      );
      const res = await post('/api/companies/merge', b.admin, { ids: [kept, one] });
      expect(res.statusCode, res.body).toBe(200);
      const { rows } = await sql<{
        n: number;
      }>`select count(*)::int as n from company_notes where company_id = ${kept}`.execute(t.db);
      expect(rows[0]!.n).toBe(2);
      await sql`drop table company_notes`.execute(t.db);
    });

    it('changes nothing when one id does not exist or is of another tenant', async () => {
      const [kept, one] = [await makeCompany(), await makeCompany()];
      await fill(one, [clients[0]!]);
      const foreign = await makeCompany(b.otherTenantId);
      for (const bad of [2_000_000_000, foreign]) {
        const before = await owned([kept, one]);
        const res = await post('/api/companies/merge', b.admin, { ids: [kept, one, bad] });
        expect(res.statusCode).toBe(422);
        expect(Object.keys(res.json().errors)).toEqual(['ids.2']);
        expect(await owned([kept, one])).toEqual(before);
        expect([await exists(kept), await exists(one), await exists(foreign)]).toEqual([true, true, true]);
      }
    });

    it('answers 422 for a body that is not two or more different ids', async () => {
      const id = await makeCompany();
      for (const payload of [{}, { ids: [id] }, { ids: [id, id] }, { ids: { 0: id } }, { ids: [id, 0] }]) {
        const res = await post('/api/companies/merge', b.admin, payload);
        expect(res.statusCode, JSON.stringify(payload)).toBe(422);
        expect(res.json()).toMatchObject({ message: expect.any(String), errors: expect.any(Object) });
      }
    });

    // The id list is the route schema's (server/http/ids.ts, idListBody), in the words the hand check said.
    it('says what is wrong with the ids, each line as the API has always worded it', async () => {
      const id = await makeCompany();
      const cases: [object, Record<string, string[]>][] = [
        [{}, { ids: ['The ids field is required.'] }],
        [{ ids: 'x' }, { ids: ['The ids must be a list.'] }],
        [{ ids: [id] }, { ids: ['Select at least two records to merge.'] }],
        [{ ids: [id, id] }, { ids: ['The ids must be different.'] }],
        [{ ids: [id, 0] }, { 'ids.1': ['The id must be a positive whole number.'] }],
        [{ ids: [id, id + 1], x: 1 }, { x: ['The field x is not allowed.'] }],
      ];
      for (const [payload, errors] of cases) {
        const res = await post('/api/companies/merge', b.admin, payload);
        expect(res.statusCode, JSON.stringify(payload)).toBe(422);
        expect(res.json(), JSON.stringify(payload)).toEqual({
          message: Object.values(errors)[0]![0],
          errors,
        });
      }
    });

    it('loses no row when two merges race on the same company: the second finds it gone', async () => {
      const [a, shared, c] = [await makeCompany(), await makeCompany(), await makeCompany()];
      await fill(a, [clients[0]!]);
      await fill(shared, [clients[1]!]);
      await fill(c, [clients[2]!]);
      const before = await owned([a, shared, c]);
      const results = await Promise.all([
        post('/api/companies/merge', b.admin, { ids: [a, shared] }),
        post('/api/companies/merge', b.admin, { ids: [c, shared] }),
      ]);
      expect(results.map((r) => r.statusCode).sort()).toEqual([200, 422]);
      const after = await owned([a, shared, c]);
      for (const table of [...COMPANY_TABLES, 'company_user', 'messages']) {
        expect(total(after[table]!), table).toBe(total(before[table]!));
        expect(after[table]![shared], table).toBe(0);
      }
      expect(await exists(shared)).toBe(false);
    });
  });

  describe('permissions', () => {
    it('refuses a client and an operator whose role lacks the action with 403, changing nothing', async () => {
      const [id, other] = [await makeCompany(), await makeCompany()];
      for (const headers of [b.client, b.limited]) {
        expect((await post(`/api/companies/${id}/archive`, headers)).statusCode).toBe(403);
        expect((await post('/api/companies/merge', headers, { ids: [id, other] })).statusCode).toBe(403);
      }
      // The client's own company too: clients have no back-office actions at all.
      expect((await post(`/api/companies/${b.ownCompanyId}/archive`, b.client)).statusCode).toBe(403);
      expect([await exists(id), await exists(other)]).toEqual([true, true]);
      const archived = await t.db
        .selectFrom('companies')
        .select('archived_at')
        .where('id', 'in', [id, b.ownCompanyId])
        .execute();
      expect(archived.every((r) => r.archived_at === null)).toBe(true);
    });

    it('answers 404 for a company of another tenant and 422 for a malformed id', async () => {
      const foreign = await makeCompany(b.otherTenantId);
      expect((await post(`/api/companies/${foreign}/archive`, b.admin)).statusCode).toBe(404);
      const line = 'The id "0" is not valid: it must be a positive whole number.';
      const res = await post('/api/companies/0/archive', b.admin);
      expect(res.statusCode).toBe(422);
      expect(res.json()).toEqual({ message: line, errors: { id: [line] } });
      const big = await post('/api/companies/99999999999/archive', b.admin);
      expect(big.json().message).toBe(
        'The id "99999999999" is not valid: it must be a positive whole number.',
      );
    });
  });
});
