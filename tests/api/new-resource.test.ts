/**
 * DESIGN.md: adding a resource takes a schema file and a migration, nothing else. A throw-away
 * resource, written only as those two things, is listed, filtered, created and portal-scoped.
 */
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql, type Generated, type Kysely } from 'kysely';
import { buildApp } from '../../server/app.ts';
import { prepareDatabase } from '../../server/boot.ts';
import { configFromEnv } from '../../server/config.ts';
import { openDatabase, type DatabaseConnection } from '../../server/db/database.ts';
import { migrateToLatest } from '../../server/db/migrate.ts';
import { migrations } from '../../server/db/migrations/index.ts';
import { syncPermissions } from '../../server/db/seed/permissions.ts';
import { loadRegistry, SCHEMA_DIR } from '../../server/schema/registry.ts';

const gadgets = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'gadgets',
  title: 'Gadget',
  type: 'object',
  'x-default-sort': ['name', 'asc'],
  'x-search': ['name'],
  'x-relations': { company: { kind: 'belongsTo', resource: 'companies', key: 'company_id' } },
  'x-portal': { actions: ['index', 'show'], scope: { company: 'company_id' } },
  properties: {
    id: { type: 'integer', readOnly: true, 'x-filter': true, 'x-sort': true },
    name: { type: 'string', minLength: 1, 'x-filter': true, 'x-sort': true },
    company_id: { type: 'integer', 'x-filter': true },
    // Rich text (issue 34): sanitised on every write, as a message's body.
    notes: { type: ['string', 'null'], format: 'html' },
  },
  required: ['name', 'company_id'],
};

const gadgetMigration = {
  // A migration takes any database (Kysely's Migration); its table is not in server/db/tables.ts.
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('gadgets')
      .addColumn('id', 'serial', (c) => c.primaryKey())
      .addColumn('tenant_id', 'integer', (c) => c.notNull().references('tenants.id'))
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('company_id', 'integer', (c) => c.notNull().references('companies.id'))
      .addColumn('notes', 'text')
      .execute();
    await sql`create index gadgets_tenant_name on gadgets (tenant_id, name)`.execute(db);
  },
};

describe('a new resource from a schema and a migration', () => {
  const dir = mkdtempSync(join(tmpdir(), 'sd-schemas-'));
  let database: DatabaseConnection;
  let app: Awaited<ReturnType<typeof buildApp>>;

  beforeAll(async () => {
    cpSync(SCHEMA_DIR, dir, { recursive: true });
    writeFileSync(join(dir, 'gadgets.json'), JSON.stringify(gadgets));
    const registry = loadRegistry(dir);
    database = await openDatabase();
    await prepareDatabase(database.db, registry, 'demo');
    await migrateToLatest(database.db, undefined, { ...migrations, '9999_gadgets': gadgetMigration });
    await syncPermissions(database.db, registry);
    const jansen = await database.db
      .selectFrom('companies')
      .select(['id', 'tenant_id'])
      .where('name', '=', 'Jansen BV')
      .executeTakeFirstOrThrow();
    await database.db
      .withTables<{
        gadgets: { id: Generated<number>; tenant_id: number; name: string; company_id: number };
      }>()
      .insertInto('gadgets')
      .values([
        { tenant_id: jansen.tenant_id, name: 'Router', company_id: jansen.id },
        { tenant_id: jansen.tenant_id, name: 'Access point', company_id: jansen.id },
      ])
      .execute();
    app = await buildApp({
      db: database.db,
      registry,
      config: { ...configFromEnv({}), jwtSecret: 'x'.repeat(32) },
    });
  });
  afterAll(async () => {
    await app?.close();
    await database?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  async function token(email: string) {
    const res = await app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { username: email, password: 'demo' },
    });
    return { authorization: `Bearer ${res.json().access_token}` };
  }

  it('is served, sorted, searched and created for an operator with every permission', async () => {
    const headers = await token('admin@example.com');
    const list = await app.inject({ method: 'GET', url: '/api/gadgets', headers });
    expect(list.statusCode, list.body).toBe(200);
    expect(list.json().data.map((g: any) => g.name)).toEqual(['Access point', 'Router']);
    const search = await app.inject({ method: 'GET', url: '/api/gadgets?builder[0][s]=rout', headers });
    expect(search.json().total).toBe(1);
    const companyId = list.json().data[0].company_id;
    const created = await app.inject({
      method: 'POST',
      url: '/api/gadgets',
      headers,
      payload: { name: 'Switch', company_id: companyId },
    });
    expect(created.statusCode, created.body).toBe(201);
    const bad = await app.inject({
      method: 'GET',
      url: '/api/gadgets?builder[0][where][0]=colour&builder[0][where][1]=x',
      headers,
    });
    expect(bad.statusCode).toBe(422);
  });

  it('is scoped to the client’s companies in the portal', async () => {
    const other = await app.inject({
      method: 'GET',
      url: '/api/gadgets',
      headers: await token('other@example.com'),
    });
    expect(other.statusCode).toBe(200);
    expect(other.json().total).toBe(0);
    const client = await app.inject({
      method: 'GET',
      url: '/api/gadgets',
      headers: await token('client@example.com'),
    });
    expect(client.json().data.map((g: any) => g.name)).toEqual(['Access point', 'Router', 'Switch']);
  });

  it('stores a rich-text field (format html) without what could run', async () => {
    const headers = await token('admin@example.com');
    const companyId = (await app.inject({ method: 'GET', url: '/api/gadgets', headers })).json().data[0]
      .company_id;
    const created = await app.inject({
      method: 'POST',
      url: '/api/gadgets',
      headers,
      payload: {
        name: 'Hub',
        company_id: companyId,
        notes: '<p onclick="steal()">Set up <b>twice</b></p><script>steal()</script>',
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json().notes).toBe('<p>Set up <b>twice</b></p>');
    const updated = await app.inject({
      method: 'PUT',
      url: `/api/gadgets/${created.json().id}`,
      headers,
      payload: { notes: '<em onmouseover="steal()">Once</em><iframe src="https://evil.example"></iframe>' },
    });
    expect(updated.statusCode, updated.body).toBe(200);
    const stored = await database.db
      .withTables<{ gadgets: { id: number; notes: string | null } }>()
      .selectFrom('gadgets')
      .select('notes')
      .where('id', '=', created.json().id)
      .executeTakeFirstOrThrow();
    expect(stored.notes).toBe('<em>Once</em>');
  });
});
