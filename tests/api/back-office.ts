/** Setup shared by the back-office action tests: the demo tenant, another tenant, a role that lacks actions. */
import { sql } from 'kysely';
import type { TestApp } from './harness.ts';

export interface BackOffice {
  tenantId: number;
  otherTenantId: number;
  admin: Record<string, string>;
  client: Record<string, string>;
  /** An operator whose role holds every tenant permission except `withheld`. */
  limited: Record<string, string>;
  /** The id of a company of the demo client (Jansen BV) and of the other demo client. */
  ownCompanyId: number;
  otherCompanyId: number;
}

export async function backOffice(t: TestApp, withheld: string[]): Promise<BackOffice> {
  const tenantId = Number(
    (await t.db.selectFrom('tenants').select('id').where('slug', '=', 'acme').executeTakeFirstOrThrow()).id,
  );
  const other = await t.db
    .insertInto('tenants')
    .values({ slug: `other${Math.floor(Math.random() * 1e6)}`, name: 'Other tenant' })
    .returning('id')
    .executeTakeFirstOrThrow();
  const role = await t.db
    .insertInto('roles')
    .values({ tenant_id: tenantId, name: 'Beperkt', is_operator: true })
    .returning('id')
    .executeTakeFirstOrThrow();
  await sql`insert into permission_role (role_id, permission_id)
    select ${role.id}, id from permissions
    where name like 'tenant.%' and not (name = any(${withheld}::text[]))`.execute(t.db);
  const columns = [
    'tenant_id',
    'first_name',
    'last_name',
    'password_hash',
    'is_operator',
    'is_staff',
  ] as const;
  await t.db
    .insertInto('users')
    .columns([...columns, 'email', 'role_id'])
    .expression((eb) =>
      eb
        .selectFrom('users')
        .select([
          ...columns,
          sql<string>`'limited@example.com'`.as('email'),
          sql<number>`${role.id}`.as('role_id'),
        ])
        .where('email', '=', 'operator@example.com'),
    )
    .execute();
  const companyOf = async (email: string) =>
    Number(
      (
        await t.db
          .selectFrom('users as u')
          .innerJoin('company_user as cu', 'cu.user_id', 'u.id')
          .select('cu.company_id')
          .where('u.email', '=', email)
          .orderBy('cu.company_id')
          .executeTakeFirstOrThrow()
      ).company_id,
    );
  return {
    tenantId,
    otherTenantId: Number(other.id),
    admin: await t.as('admin@example.com'),
    client: await t.as('client@example.com'),
    limited: await t.as('limited@example.com'),
    ownCompanyId: await companyOf('client@example.com'),
    otherCompanyId: await companyOf('other@example.com'),
  };
}
