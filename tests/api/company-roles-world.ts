/**
 * The demo company the company-role tests share (tests/api/company-roles-reads.test.ts and
 * tests/api/company-roles-manage.test.ts): Jansen BV with Pieter (client@example.com), its company
 * admin, and Lotte, a member; Eva, a client of another company; the company roles by English name.
 */
import { expect } from 'vitest';
import { buildTestApp, type Target } from './harness.ts';

export const ADMIN = 'client@example.com';
export const MEMBER = 'lotte.smit@jansenbv.nl';
export const OTHER = 'other@example.com';
export const OPERATOR = 'admin@example.com';

export type CompanyRolesDesk = Awaited<ReturnType<typeof startCompanyRolesDesk>>;

export async function startCompanyRolesDesk(target: Target) {
  const t = await buildTestApp(target, { logger: { level: 'error' } });
  const call = async (
    email: string,
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: string,
    payload?: object,
  ) => t.app.inject({ method, url, headers: await t.as(email), ...(payload ? { payload } : {}) });
  const ids = async (email: string, url: string): Promise<number[]> => {
    const res = await call(email, 'GET', url);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data.map((r: { id: number }) => r.id);
  };
  const userId = async (email: string) =>
    Number(
      (await t.db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirstOrThrow()).id,
    );
  const jansen = Number(
    (
      await t.db
        .selectFrom('companies')
        .select('id')
        .where('name', '=', 'Jansen BV')
        .executeTakeFirstOrThrow()
    ).id,
  );
  const pieter = await userId(ADMIN);
  const roles = new Map<string, number>();
  for (const r of await t.db.selectFrom('company_roles').select(['id', 'name_en']).execute())
    roles.set(String(r.name_en), Number(r.id));

  return {
    t,
    call,
    ids,
    jansen,
    tenantId: Number(
      (
        await t.db
          .selectFrom('companies')
          .select('tenant_id')
          .where('id', '=', jansen)
          .executeTakeFirstOrThrow()
      ).tenant_id,
    ),
    pieter,
    lotte: await userId(MEMBER),
    eva: await userId(OTHER),
    priority: Number((await t.db.selectFrom('priorities').select('id').executeTakeFirstOrThrow()).id),
    roles,
    /** A Jansen ticket that is not Lotte's and not shared with her. */
    notLottes: async () =>
      Number(
        (
          await t.db
            .selectFrom('tickets')
            .select('id')
            .where('company_id', '=', jansen)
            .where('client_id', '=', pieter)
            .where('is_template', '=', false)
            .where('id', 'not in', t.db.selectFrom('ticket_shares').select('ticket_id'))
            .orderBy('id')
            .executeTakeFirstOrThrow()
        ).id,
      ),
    close: () => t.close(),
  };
}
