/**
 * Archived operators are not offered as a new value (x-pickable on operators, issue 18 loose end): the
 * selectors of forms, quick actions and the bulk bar ask the operators list with the schema's filter,
 * which leaves an archived operator out; the plain list (header filters, history) still has them, and a
 * ticket that holds one still reads it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, targets, type TestApp } from './harness.ts';
import { backOffice, type BackOffice } from './back-office.ts';
import { registry } from '../../server/schema/registry.ts';
import { pickableFilter } from '../../src/custom/forms/pickable.ts';
import { toBuilder, toQueryString } from '../../src/dataProvider/builder.ts';

describe.each(targets)('operators offered by a selector on $name', (target) => {
  let t: TestApp;
  let b: BackOffice;
  let archivedId: number;
  let activeId: number;

  /** The operators list as a selector asks it: its default order, a page of 100, the x-pickable filter. */
  const listed = async (filter: Record<string, unknown>) => {
    const builder = toBuilder({
      sort: { field: 'full_name', order: 'ASC' },
      filter,
      pagination: { page: 1, perPage: 100 },
    });
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/operators?${toQueryString({ builder })}`,
      headers: b.admin,
    });
    expect(res.statusCode).toBe(200);
    return (res.json().data as { id: number }[]).map((r) => Number(r.id));
  };

  beforeAll(async () => {
    t = await buildTestApp(target);
    b = await backOffice(t, []);
    const operator = await t.db
      .selectFrom('users')
      .selectAll()
      .where('email', '=', 'operator@example.com')
      .executeTakeFirstOrThrow();
    activeId = Number(operator.id);
    const archived = await t.db
      .insertInto('users')
      .values({
        tenant_id: operator.tenant_id,
        first_name: 'Vertrokken',
        last_name: 'Collega',
        email: 'vertrokken@example.com',
        password_hash: operator.password_hash,
        is_operator: operator.is_operator,
        is_staff: operator.is_staff,
        role_id: operator.role_id,
        archived_at: new Date('2026-01-01T00:00:00Z'),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    archivedId = Number(archived.id);
  }, 120_000);
  afterAll(() => t?.close());

  it('a selector is not offered an archived operator; the plain list (filters, history) still has one', async () => {
    const offered = await listed(pickableFilter(registry().require('operators')));
    expect(offered).toContain(activeId);
    expect(offered).not.toContain(archivedId);
    expect(await listed({})).toContain(archivedId);
  });

  it('a ticket assigned to an archived operator still reads that operator', async () => {
    const status = await t.db
      .selectFrom('ticket_statuses')
      .select('id')
      .where('tenant_id', '=', b.tenantId)
      .orderBy('id')
      .executeTakeFirstOrThrow();
    const ticket = await t.db
      .insertInto('tickets')
      .values({
        tenant_id: b.tenantId,
        company_id: b.ownCompanyId,
        status_id: status.id,
        operator_id: archivedId,
        description: 'Van een vertrokken collega',
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/tickets/${ticket.id}?with[]=operator`,
      headers: b.admin,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().operator.full_name).toBe('Vertrokken Collega');
    const one = await t.app.inject({ method: 'GET', url: `/api/operators/${archivedId}`, headers: b.admin });
    expect(one.statusCode).toBe(200);
  });
});
