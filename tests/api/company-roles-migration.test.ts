/**
 * Migration 0051 (issue 39) keeps an installation's portal as it was: every client of a company saw all of
 * its records, so every existing membership becomes a company admin; each tenant gets the three starting
 * roles, the member its default; and a membership added afterwards without a role reads as that default.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { sql } from 'kysely';
import { openDatabase, type DatabaseConnection } from '../../server/db/database.ts';
import { migrateToLatest } from '../../server/db/migrate.ts';
import { migrations } from '../../server/db/migrations/index.ts';
import { loadAuthUser } from '../../server/auth/user.ts';
import { targets } from './harness.ts';

const BEFORE = Object.fromEntries(Object.entries(migrations).filter(([name]) => name < '0051'));

describe.each(targets)('company roles migration on $name', (target) => {
  let database: DatabaseConnection;
  let schema: string | undefined;
  let tenantId: number;
  let companyId: number;
  let clientId: number;

  beforeAll(async () => {
    if (target.url) {
      schema = `t_${randomBytes(6).toString('hex')}`;
      const client = new pg.Client({ connectionString: target.url });
      await client.connect();
      await client.query(`create schema ${schema}`);
      await client.end();
    }
    database = await openDatabase(target.url ? { url: target.url, schema, poolSize: 2 } : {});
    const db = database.db;
    await migrateToLatest(db, schema, BEFORE);
    // An installation as it was before the roles: a tenant, a company and its client.
    const one = async (q: ReturnType<typeof sql>) =>
      Number(((await q.execute(db)).rows[0] as { id: number }).id);
    tenantId = await one(sql`insert into tenants (slug, name) values ('old', 'Old') returning id`);
    companyId = await one(
      sql`insert into companies (tenant_id, name) values (${tenantId}, 'Acme') returning id`,
    );
    clientId = await one(
      sql`insert into users (tenant_id, first_name, last_name, email) values (${tenantId}, 'Ann', 'Old', 'ann@old.test') returning id`,
    );
    await sql`insert into company_user (tenant_id, company_id, user_id) values (${tenantId}, ${companyId}, ${clientId})`.execute(
      db,
    );
    await migrateToLatest(db, schema);
  });
  afterAll(async () => {
    if (schema) await sql.raw(`drop schema ${schema} cascade`).execute(database.db);
    await database?.close();
  });

  it('gives each tenant the member (default), company admin and finance roles', async () => {
    const roles = await database.db
      .selectFrom('company_roles')
      .select(['name_en', 'grants_all', 'is_default', 'company_resources', 'own_resources'])
      .where('tenant_id', '=', tenantId)
      .orderBy('name_en')
      .execute();
    expect(roles).toEqual([
      {
        name_en: 'Company admin',
        grants_all: true,
        is_default: false,
        company_resources: [],
        own_resources: [],
      },
      {
        name_en: 'Finance',
        grants_all: false,
        is_default: false,
        company_resources: ['companies', 'contracts', 'invoices', 'quotes', 'subscriptions'],
        own_resources: ['tickets'],
      },
      {
        name_en: 'Member',
        grants_all: false,
        is_default: true,
        company_resources: ['companies'],
        own_resources: ['tickets'],
      },
    ]);
  });

  it('makes the existing client a company admin, who sees every portal resource of the company', async () => {
    const user = await loadAuthUser(database.db, tenantId, clientId, null);
    expect(user!.companyRoles).toEqual([
      expect.objectContaining({ companyId, all: true, onBehalf: true, manageAccess: true }),
    ]);
  });

  it('reads a membership added without a role as the default member', async () => {
    const second = Number(
      (
        (
          await sql`insert into users (tenant_id, first_name, last_name, email) values (${tenantId}, 'Bo', 'New', 'bo@old.test') returning id`.execute(
            database.db,
          )
        ).rows[0] as { id: number }
      ).id,
    );
    await sql`insert into company_user (tenant_id, company_id, user_id) values (${tenantId}, ${companyId}, ${second})`.execute(
      database.db,
    );
    const user = await loadAuthUser(database.db, tenantId, second, null);
    expect(user!.companyRoles).toEqual([
      expect.objectContaining({
        companyId,
        all: false,
        company: ['companies'],
        own: ['tickets'],
        onBehalf: false,
      }),
    ]);
  });
});
