/**
 * Standard answers (issue 18, item 6): a tenant's reply texts, a resource by schema. Second line manages
 * them, first line (who writes messages) reads them, clients never see them; another tenant's answer
 * does not exist for the caller; the body is cleaned as message HTML while its placeholders stay text;
 * filters and sorts outside the schema's whitelist are refused.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, targets, type TestApp } from './harness.ts';
import { grantToMessageWriters } from '../../server/db/migrations/0025_standard_answers.ts';

const URL = '/api/standard-answers';

describe.each(targets)('standard answers on $name', (target) => {
  let t: TestApp;
  let tenantId: number;
  let foreignId: number;
  let foreignCategoryId: number;

  const call = async (
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: string,
    email = 'admin@example.com',
    payload?: object,
  ) => t.app.inject({ method, url, headers: await t.as(email), ...(payload && { payload }) });

  beforeAll(async () => {
    t = await buildTestApp(target);
    tenantId = Number(
      (await t.db.selectFrom('tenants').select('id').where('slug', '=', 'acme').executeTakeFirstOrThrow()).id,
    );
    const other = await t.db
      .insertInto('tenants')
      .values({ slug: `answers${Math.floor(Math.random() * 1e6)}`, name: 'Other tenant' })
      .returning('id')
      .executeTakeFirstOrThrow();
    foreignCategoryId = Number(
      (
        await t.db
          .insertInto('categories')
          .values({ tenant_id: other.id, name: 'Elders' })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id,
    );
    foreignId = Number(
      (
        await t.db
          .insertInto('standard_answers')
          .values({ tenant_id: other.id, title: 'Van een ander', body: '<p>Geheim</p>' })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id,
    );
  });
  afterAll(() => t?.close());

  it('holds the demo answers in Dutch, with their placeholders and categories, for first line too', async () => {
    const res = await call('GET', `${URL}?with[0]=category`, 'operator@example.com');
    expect(res.statusCode, res.body).toBe(200);
    const rows = res.json().data as {
      id: number;
      title: string;
      body: string;
      category: { name: string } | null;
    }[];
    expect(rows.map((r) => r.title)).toEqual([
      'Ontvangstbevestiging',
      'Printer herstarten',
      'Ticket afgesloten',
      'Wachtwoord opnieuw instellen',
    ]);
    expect(rows.find((r) => r.title === 'Printer herstarten')!.category!.name).toBe('Printers');
    expect(rows.find((r) => r.title === 'Ontvangstbevestiging')!.category).toBeNull();
    expect(rows[0]!.body).toContain('Beste {{client.name}},');
    expect(rows[0]!.body).toContain('{{ticket.reference}}');
    expect(rows.map((r) => r.id)).not.toContain(foreignId);
  });

  it('is created, read, changed and deleted by second line, its body cleaned as message HTML', async () => {
    const created = await call('POST', URL, 'admin@example.com', {
      title: 'Test antwoord',
      body: '<p onclick="alert(1)">Hallo {{client.name}}<script>alert(2)</script></p><img src="https://evil.example/x.png">',
    });
    expect(created.statusCode, created.body).toBe(201);
    const id = Number(created.json().id);
    const stored = await sql<{ body: string; tenant_id: number }>`
      select body, tenant_id from standard_answers where id = ${id}`.execute(t.db);
    expect(stored.rows[0]!.body).toBe('<p>Hallo {{client.name}}</p>');
    expect(Number(stored.rows[0]!.tenant_id)).toBe(tenantId);

    const category = Number(
      (
        await t.db
          .selectFrom('categories')
          .select('id')
          .where('name', '=', 'Netwerk')
          .executeTakeFirstOrThrow()
      ).id,
    );
    const changed = await call('PUT', `${URL}/${id}`, 'admin@example.com', {
      title: 'Test antwoord 2',
      category_id: category,
      body: '<p>Nieuw <a href="javascript:alert(1)">klik</a> {{ticket.reference}}</p>',
    });
    expect(changed.statusCode, changed.body).toBe(200);
    const shown = await call('GET', `${URL}/${id}`);
    expect(shown.statusCode).toBe(200);
    const record = shown.json().data ?? shown.json();
    expect(record.title).toBe('Test antwoord 2');
    expect(record.category_id).toBe(category);
    expect(record.body).not.toContain('javascript');
    expect(record.body).toContain('{{ticket.reference}}');

    const filtered = await call(
      'GET',
      `${URL}?builder[0][where][0]=category_id&builder[0][where][1]==&builder[0][where][2]=${category}`,
    );
    expect(filtered.json().data.map((r: { id: number }) => r.id)).toEqual([id]);
    const searched = await call('GET', `${URL}?builder[0][s]=antwoord 2`);
    expect(searched.json().data.map((r: { id: number }) => r.id)).toEqual([id]);

    const removed = await call('DELETE', `${URL}/${id}`);
    expect(removed.statusCode).toBeLessThan(300);
    expect((await call('GET', `${URL}/${id}`)).statusCode).toBe(404);
  });

  it('refuses a body with nothing a message may hold, and a title or body missing', async () => {
    const empty = await call('POST', URL, 'admin@example.com', { title: 'Leeg', body: '<script>x</script>' });
    expect(empty.statusCode).toBe(422);
    expect(Object.keys(empty.json().errors)).toEqual(['body']);
    const missing = await call('POST', URL, 'admin@example.com', { category_id: null });
    expect(missing.statusCode).toBe(422);
    expect(Object.keys(missing.json().errors).sort()).toEqual(['body', 'title']);
  });

  it('is read but not changed by first line', async () => {
    const [first] = (await (await call('GET', URL, 'operator@example.com')).json().data) as { id: number }[];
    expect((await call('GET', `${URL}/${first!.id}`, 'operator@example.com')).statusCode).toBe(200);
    const store = await call('POST', URL, 'operator@example.com', { title: 'Nee', body: '<p>Nee</p>' });
    expect(store.statusCode).toBe(403);
    const update = await call('PUT', `${URL}/${first!.id}`, 'operator@example.com', { title: 'Nee' });
    expect(update.statusCode).toBe(403);
    expect((await call('DELETE', `${URL}/${first!.id}`, 'operator@example.com')).statusCode).toBe(403);
  });

  it("knows no other tenant's answer or category", async () => {
    expect((await call('GET', `${URL}/${foreignId}`)).statusCode).toBe(404);
    expect(
      (await call('PUT', `${URL}/${foreignId}`, 'admin@example.com', { title: 'Mijn' })).statusCode,
    ).toBe(404);
    expect((await call('DELETE', `${URL}/${foreignId}`)).statusCode).toBe(404);
    const list = await call(
      'GET',
      `${URL}?builder[0][where][0]=id&builder[0][where][1]==&builder[0][where][2]=${foreignId}`,
    );
    expect(list.json().total).toBe(0);
    const borrowed = await call('POST', URL, 'admin@example.com', {
      title: 'Geleend',
      body: '<p>x</p>',
      category_id: foreignCategoryId,
    });
    expect(borrowed.statusCode).toBe(422);
    expect(Object.keys(borrowed.json().errors)).toEqual(['category_id']);
    const untouched = await sql<{
      title: string;
    }>`select title from standard_answers where id = ${foreignId}`.execute(t.db);
    expect(untouched.rows[0]!.title).toBe('Van een ander');
  });

  it('is closed to clients of the portal', async () => {
    const list = await call('GET', URL, 'client@example.com');
    expect(list.statusCode).toBe(403);
    const [first] = (await (await call('GET', URL)).json().data) as { id: number }[];
    expect((await call('GET', `${URL}/${first!.id}`, 'client@example.com')).statusCode).toBe(403);
    expect(
      (await call('POST', URL, 'client@example.com', { title: 'Klant', body: '<p>x</p>' })).statusCode,
    ).toBe(403);
  });

  it("lets an installation's own roles that write messages read them (migration 0025)", async () => {
    const role = await t.db
      .insertInto('roles')
      .values({ tenant_id: tenantId, name: 'Schrijver', is_operator: true })
      .returning('id')
      .executeTakeFirstOrThrow();
    const reader = await t.db
      .insertInto('roles')
      .values({ tenant_id: tenantId, name: 'Lezer', is_operator: true })
      .returning('id')
      .executeTakeFirstOrThrow();
    await sql`insert into permission_role (role_id, permission_id)
      select ${role.id}, id from permissions where name = 'tenant.messages.store'`.execute(t.db);
    await sql`insert into permission_role (role_id, permission_id)
      select ${reader.id}, id from permissions where name = 'tenant.messages.index'`.execute(t.db);
    await grantToMessageWriters(t.db);
    const granted = async (roleId: number) =>
      (
        await sql<{ name: string }>`select p.name from permission_role pr
          join permissions p on p.id = pr.permission_id
          where pr.role_id = ${roleId} and p.name like 'tenant.standard-answers.%' order by p.name`.execute(
          t.db,
        )
      ).rows.map((r) => r.name);
    expect(await granted(Number(role.id))).toEqual([
      'tenant.standard-answers.index',
      'tenant.standard-answers.show',
    ]);
    expect(await granted(Number(reader.id))).toEqual([]);
  });

  it('refuses filters and sorts on names outside the schema', async () => {
    for (const query of [
      'builder[0][where][0]=tenant_id&builder[0][where][1]==&builder[0][where][2]=1',
      'builder[0][where][0]=body&builder[0][where][1]==&builder[0][where][2]=x',
      'builder[0][orderBy][0]=body&builder[0][orderBy][1]=asc',
      'builder[0][where][0]=title;drop table standard_answers&builder[0][where][1]==&builder[0][where][2]=x',
      'with[0]=tickets',
    ]) {
      const res = await call('GET', `${URL}?${query}`);
      expect(res.statusCode, query).toBe(422);
      expect(res.json().message, query).toBeTruthy();
    }
  });
});
