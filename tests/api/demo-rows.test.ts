/**
 * Issue 34: the demo shows a resource added as a schema, a migration and a data file of its demo rows
 * (server/db/seed/data/rows/<resource>.json), with no TypeScript seed code: the generic seed inserts
 * them into the demo tenant, a reference by another record's field found in that tenant.
 */
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql, type Kysely } from 'kysely';
import argon2 from 'argon2';
import { openDatabase, type DatabaseConnection } from '../../server/db/database.ts';
import { migrateToLatest } from '../../server/db/migrate.ts';
import { migrations } from '../../server/db/migrations/index.ts';
import { seedDemo } from '../../server/db/seed/demo.ts';
import { syncPermissions } from '../../server/db/seed/permissions.ts';
import { bySchema } from '../../server/db/schema-tables.ts';
import { loadRegistry, SCHEMA_DIR } from '../../server/schema/registry.ts';

const articles = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'demo-notes',
  title: 'Knowledge article',
  type: 'object',
  'x-default-sort': ['title', 'asc'],
  'x-label': 'title',
  'x-relations': { company: { kind: 'belongsTo', resource: 'companies', key: 'company_id' } },
  properties: {
    id: { type: 'integer', readOnly: true, 'x-filter': true, 'x-sort': true },
    title: { type: 'string', minLength: 1, 'x-filter': true, 'x-sort': true },
    body: { type: ['string', 'null'], format: 'html' },
    published: { type: 'boolean', default: false },
    company_id: { type: ['integer', 'null'], 'x-filter': true },
  },
  required: ['title'],
};

const ROWS = [
  { title: 'Resetting a password', body: '<p>Ask the desk.</p>', published: true },
  {
    title: 'The VPN at Jansen BV',
    published: false,
    company_id: { $lookup: ['companies', 'name', 'Jansen BV'] },
  },
];

const migration = {
  async up(db: Kysely<unknown>) {
    await sql`
      create table demo_notes (
        id serial primary key,
        tenant_id integer not null references tenants (id),
        title text not null,
        body text,
        published boolean not null default false,
        company_id integer references companies (id)
      )`.execute(db);
    await sql`create index demo_notes_tenant_title on demo_notes (tenant_id, title)`.execute(db);
  },
};

describe('demo rows of a resource from a data file', () => {
  const dir = mkdtempSync(join(tmpdir(), 'sd-demo-rows-'));
  const schemas = join(dir, 'schemas');
  const rows = join(dir, 'rows');
  let database: DatabaseConnection;

  beforeAll(async () => {
    cpSync(SCHEMA_DIR, schemas, { recursive: true });
    writeFileSync(join(schemas, 'demo-notes.json'), JSON.stringify(articles));
    mkdirSync(rows);
    writeFileSync(join(rows, 'demo-notes.json'), JSON.stringify(ROWS));
    const registry = loadRegistry(schemas);
    database = await openDatabase();
    await migrateToLatest(database.db, undefined, { ...migrations, '9999_demo_notes': migration });
    await syncPermissions(database.db, registry);
    await seedDemo(database.db, registry, {
      passwordHash: await argon2.hash('demo'),
      rowsDir: rows,
    });
  });
  afterAll(async () => {
    await database?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('inserts them into the demo tenant, references found by name', async () => {
    const stored = await bySchema(database.db)
      .selectFrom('demo_notes as k')
      .innerJoin('tenants as t', 't.id', 'k.tenant_id')
      .leftJoin('companies as c', 'c.id', 'k.company_id')
      .select(['k.title', 'k.body', 'k.published', 'c.name as company', 't.name as tenant'])
      .orderBy('k.id')
      .execute();
    expect(stored).toEqual([
      {
        title: 'Resetting a password',
        body: '<p>Ask the desk.</p>',
        published: true,
        company: null,
        tenant: expect.any(String),
      },
      {
        title: 'The VPN at Jansen BV',
        body: null,
        published: false,
        company: 'Jansen BV',
        tenant: expect.any(String),
      },
    ]);
  });
});
