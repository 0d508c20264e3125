/**
 * A finance client of the demo's Jansen BV (issue 39, item 1), made by the tests that need one: the demo
 * has an admin (client@example.com) and a member (Lotte) there but no finance client, and its accounts
 * are a fixed contract the tests must not change. She signs in with the demo password (her hash is
 * Lotte's) and her membership has the starting Finance role, read from the role data by its name.
 */
import { sql } from 'kysely';
import type { TestApp } from './harness.ts';

export const FINANCE = 'fenna.geld@jansenbv.nl';

export async function makeFinanceClient(t: TestApp): Promise<{ id: number; companyId: number }> {
  const lotte = await t.db
    .selectFrom('users as u')
    .innerJoin('company_user as cu', 'cu.user_id', 'u.id')
    .select(['u.id', 'u.tenant_id', 'cu.company_id'])
    .where('u.email', '=', 'lotte.smit@jansenbv.nl')
    .executeTakeFirstOrThrow();
  const role = await t.db
    .selectFrom('company_roles')
    .select('id')
    .where('tenant_id', '=', lotte.tenant_id)
    .where('name_en', '=', 'Finance')
    .executeTakeFirstOrThrow();
  const columns = ['tenant_id', 'password_hash', 'is_operator', 'is_staff', 'role_id'] as const;
  const made = await t.db
    .insertInto('users')
    .columns([...columns, 'first_name', 'last_name', 'email'])
    .expression((eb) =>
      eb
        .selectFrom('users')
        .select([
          ...columns,
          sql<string>`'Fenna'`.as('first_name'),
          sql<string>`'Geld'`.as('last_name'),
          sql<string>`${FINANCE}`.as('email'),
        ])
        .where('id', '=', lotte.id),
    )
    .returning('id')
    .executeTakeFirstOrThrow();
  await t.db
    .insertInto('company_user')
    .values({
      tenant_id: lotte.tenant_id,
      company_id: lotte.company_id,
      user_id: made.id,
      company_role_id: role.id,
    })
    .execute();
  return { id: Number(made.id), companyId: Number(lotte.company_id) };
}
