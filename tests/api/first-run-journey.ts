/**
 * What a desk just set up must allow (issue 32), the same whether it was set up by the page or by
 * `npm run setup`: its operator signs in, creates a company, a client with a password and a ticket for
 * that client, and the client signs in and sees that ticket, and nothing of the demo is there.
 */
import { expect } from 'vitest';

export type Call = (
  method: 'GET' | 'POST',
  path: string,
  body?: unknown,
  headers?: Record<string, string>,
) => Promise<{ status: number; body: any }>;

export const OPERATOR = { email: 'owner@provider.test', password: 'Lange-zin 42 voor de desk' };

export async function journeyAfterSetup(call: Call, organisation: string): Promise<void> {
  const login = async (username: string, password: string) => {
    const res = await call('POST', '/api/auth/login', { username, password });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return { authorization: `Bearer ${res.body.access_token as string}` };
  };
  const status = await call('GET', '/api/system/status');
  expect(status.body).toMatchObject({
    setup_completed: true,
    tenant_name: organisation,
    trial_ends_in: null,
  });

  const operator = await login(OPERATOR.email, OPERATOR.password);
  const me = await call('GET', '/api/auth/me', undefined, operator);
  expect(me.status).toBe(200);
  // Second line: invoices are theirs, not first line's.
  expect(me.body.user.permissions_names).toContain('tenant.invoices.index');

  // Reference lists in three languages, and none of the demo's records.
  const statuses = await call('GET', '/api/ticket-statuses?builder[0][paginate]=50', undefined, operator);
  expect(statuses.body.total).toBeGreaterThan(3);
  expect(statuses.body.data[0]).toMatchObject({ name: 'Nieuw', name_en: 'New', name_de: 'Neu' });
  for (const resource of ['companies', 'tickets', 'products', 'invoices']) {
    const list = await call('GET', `/api/${resource}`, undefined, operator);
    expect(list.status, resource).toBe(200);
    expect(list.body.total, resource).toBe(0);
  }

  const company = await call('POST', '/api/companies', { name: 'Eerste Klant BV' }, operator);
  expect(company.status, JSON.stringify(company.body)).toBe(201);
  const roles = await call('GET', '/api/roles?builder[0][paginate]=10', undefined, operator);
  const clientRole = roles.body.data.find((r: { is_operator: boolean }) => !r.is_operator);
  expect(clientRole).toBeDefined();
  const client = await call(
    'POST',
    '/api/clients',
    {
      first_name: 'Kim',
      last_name: 'Klant',
      email: 'kim@eerste-klant.test',
      password: 'Kim haar eigen wachtwoord',
      role_id: clientRole.id,
    },
    operator,
  );
  expect(client.status, JSON.stringify(client.body)).toBe(201);
  const link = await call(
    'POST',
    '/api/company-user',
    { company_id: company.body.id, user_id: client.body.id },
    operator,
  );
  expect(link.status, JSON.stringify(link.body)).toBe(201);
  const ticket = await call(
    'POST',
    '/api/tickets',
    { description: 'De printer doet het niet', company_id: company.body.id, client_id: client.body.id },
    operator,
  );
  expect(ticket.status, JSON.stringify(ticket.body)).toBe(201);

  const kim = await login('kim@eerste-klant.test', 'Kim haar eigen wachtwoord');
  const seen = await call('GET', '/api/tickets', undefined, kim);
  expect(seen.status).toBe(200);
  expect(seen.body.data.map((t: { id: number }) => t.id)).toEqual([ticket.body.id]);
}
