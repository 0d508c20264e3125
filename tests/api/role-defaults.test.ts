/**
 * The demo roles' defaults (issue 6): second line may do everything; first line does the daily work but
 * may not merge, archive or delete companies, touch invoices or change the tenant's settings.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, targets, type TestApp } from './harness.ts';
import { registry } from '../../server/schema/registry.ts';
import { TENANT_SETTINGS } from '../../server/db/seed/demo.ts';

describe.each(targets)('role defaults on $name', (target) => {
  let t: TestApp;
  let first: Record<string, string>;
  let second: Record<string, string>;
  let firstPermissions: Set<string>;

  const inject = (
    method: 'POST' | 'PUT' | 'DELETE',
    url: string,
    headers: Record<string, string>,
    payload?: object,
  ) => t.app.inject({ method, url, headers, ...(payload && { payload }) });

  async function newCompany(name: string): Promise<number> {
    const res = await inject('POST', '/api/companies', second, { name });
    expect(res.statusCode, res.body).toBe(201);
    return Number(res.json().id);
  }

  async function newTicket(companyId: number): Promise<number> {
    const res = await inject('POST', '/api/tickets', second, {
      description: 'Rol-test',
      company_id: companyId,
    });
    expect(res.statusCode, res.body).toBe(201);
    return Number(res.json().id);
  }

  beforeAll(async () => {
    t = await buildTestApp(target);
    // One login: a second one would end the first session (one session per account).
    const session = await t.login('operator@example.com');
    first = { authorization: `Bearer ${session.token}` };
    firstPermissions = new Set(session.body.user.permissions_names);
    second = await t.as('admin@example.com');
  });
  afterAll(() => t?.close());

  it('names only resources that exist, and first line reads but does not change them', () => {
    const names = [...registry().resources.keys()];
    for (const name of TENANT_SETTINGS) {
      expect(names, name).toContain(name);
      const actions = registry().require(name).actions;
      for (const action of actions)
        expect(firstPermissions.has(`tenant.${name}.${action}`), `${name}.${action}`).toBe(
          action === 'index' || action === 'show',
        );
    }
    for (const denied of [
      'tenant.tickets.merge',
      'tenant.companies.merge',
      'tenant.companies.archive',
      'tenant.companies.destroy',
      'tenant.invoices.index',
      'tenant.roles.update',
    ])
      expect(firstPermissions.has(denied), denied).toBe(false);
    for (const granted of [
      'tenant.tickets.store',
      'tenant.tickets.update',
      'tenant.tickets.close',
      'tenant.tickets.restore',
      'tenant.tickets.clone',
      'tenant.companies.store',
      'tenant.companies.update',
      'tenant.ticket-groups.archive',
      'tenant.messages.store',
    ])
      expect(firstPermissions.has(granted), granted).toBe(true);
  });

  it('a company merge: 403 for first line and nothing changes, 200 for second line', async () => {
    const kept = await newCompany('Rol-test behouden');
    const merged = await newCompany('Rol-test samengevoegd');
    const refused = await inject('POST', '/api/companies/merge', first, { ids: [kept, merged] });
    expect(refused.statusCode).toBe(403);
    expect(
      (await t.app.inject({ method: 'GET', url: `/api/companies/${merged}`, headers: second })).statusCode,
    ).toBe(200);
    const done = await inject('POST', '/api/companies/merge', second, { ids: [kept, merged] });
    expect(done.statusCode, done.body).toBe(200);
    expect(
      (await t.app.inject({ method: 'GET', url: `/api/companies/${merged}`, headers: second })).statusCode,
    ).toBe(404);
  });

  it('a ticket merge and a company archive or delete: 403 for first line; closing a ticket is daily work', async () => {
    const company = await newCompany('Rol-test tickets');
    const a = await newTicket(company);
    const b = await newTicket(company);
    expect((await inject('POST', '/api/tickets/merge', first, { ids: [a, b] })).statusCode).toBe(403);
    expect((await inject('POST', `/api/companies/${company}/archive`, first)).statusCode).toBe(403);
    expect((await inject('DELETE', `/api/companies/${company}`, first)).statusCode).toBe(403);
    const closed = await inject('POST', `/api/tickets/${b}/close`, first);
    expect(closed.statusCode, closed.body).toBe(200);
    const merged = await inject('POST', '/api/tickets/merge', second, { ids: [a, b] });
    expect(merged.statusCode, merged.body).toBe(200);
  });
});
