/**
 * The global search (issue 18 item 2): GET /api/search?q=… finds tickets by reference and description,
 * companies by name, clients by name and e-mail, assets by name and serial number, quotes by name and
 * invoices by code, grouped per resource; each caller finds what they may list and nothing of another
 * tenant; a client finds their own companies' records only; a text of the wrong length is a 422.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, targets, type TestApp } from './harness.ts';
import { backOffice, type BackOffice } from './back-office.ts';
import { bySchema } from '../../server/db/schema-tables.ts';
import type { Tables } from '../../server/db/tables.ts';

/** A word no demo record holds, so that every match is one of this test's rows. */
const MARK = `zoekproef${randomBytes(3).toString('hex')}`;

interface Group {
  resource: string;
  records: { id: number; label: string; detail: string | null }[];
}

describe.each(targets)('global search on $name', (target) => {
  let t: TestApp;
  let b: BackOffice;
  let operator: Record<string, string>;
  let own: { ticket: number; asset: number; quote: number; invoice: number };
  let otherTicket: number;
  let otherTenantCompany: number;

  const search = (headers: Record<string, string>, q: string | string[]) =>
    t.app.inject({ method: 'GET', url: '/api/search', headers, query: { q } });
  async function groups(headers: Record<string, string>, q: string): Promise<Group[]> {
    const res = await search(headers, q);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data;
  }
  const ids = (found: Group[], resource: string) =>
    found.find((g) => g.resource === resource)?.records.map((r) => r.id) ?? [];

  // Rows of several tables, written as the test's own loose objects: the schema view, names checked.
  async function insert(table: keyof Tables, values: Record<string, unknown>): Promise<number> {
    const row = await bySchema(t.db)
      .insertInto(table)
      .values(values)
      .returning('id')
      .executeTakeFirstOrThrow();
    return Number(row.id);
  }

  beforeAll(async () => {
    t = await buildTestApp(target);
    b = await backOffice(t, ['tenant.tickets.index']);
    operator = await t.as('operator@example.com');
    const T = { tenant_id: b.tenantId };
    const status = await t.db
      .selectFrom('ticket_statuses')
      .select('id')
      .where('tenant_id', '=', b.tenantId)
      .orderBy('id')
      .executeTakeFirstOrThrow();
    const S = { status_id: Number(status.id) };
    own = {
      ticket: await insert('tickets', {
        ...T,
        ...S,
        company_id: b.ownCompanyId,
        description: `Printer ${MARK} kapot`,
      }),
      asset: await insert('assets', {
        ...T,
        company_id: b.ownCompanyId,
        name: 'Laptop',
        serial_number: `SN-${MARK}`,
      }),
      quote: await insert('quotes', {
        ...T,
        company_id: b.ownCompanyId,
        name: `Offerte ${MARK}`,
        status_id: 2,
      }),
      invoice: await insert('invoices', {
        ...T,
        company_id: b.ownCompanyId,
        code: `F-${MARK}`,
        external_id: 'ext-1',
        date: '2026-01-05',
      }),
    };
    otherTicket = await insert('tickets', {
      ...T,
      ...S,
      company_id: b.otherCompanyId,
      description: `Scherm ${MARK}`,
    });
    // Another tenant's company and ticket carry the same word: nobody of the demo tenant may find them.
    otherTenantCompany = await insert('companies', { tenant_id: b.otherTenantId, name: `Bedrijf ${MARK}` });
    const otherStatus = await insert('ticket_statuses', {
      tenant_id: b.otherTenantId,
      name: 'Open',
      name_client: 'Open',
      internal_type: 1,
    });
    await insert('tickets', {
      tenant_id: b.otherTenantId,
      status_id: otherStatus,
      company_id: otherTenantCompany,
      description: `Ander ${MARK}`,
    });
  });

  afterAll(async () => {
    await t?.close();
  });

  it('finds each kind of record by its searched fields, grouped in the schemas’ order', async () => {
    const found = await groups(b.admin, MARK.toUpperCase());
    expect(found.map((g) => g.resource)).toEqual(['tickets', 'assets', 'quotes', 'invoices']);
    expect(ids(found, 'tickets').sort()).toEqual([own.ticket, otherTicket].sort());
    expect(ids(found, 'assets')).toEqual([own.asset]);
    expect(ids(found, 'quotes')).toEqual([own.quote]);
    expect(ids(found, 'invoices')).toEqual([own.invoice]);
    const asset = found.find((g) => g.resource === 'assets')!.records[0]!;
    expect(asset).toEqual({ id: own.asset, label: 'Laptop', detail: `SN-${MARK}` });
    const ticket = found.find((g) => g.resource === 'tickets')!.records.find((r) => r.id === own.ticket)!;
    expect(ticket.detail).toBe(`Printer ${MARK} kapot`);
  });

  it('finds a ticket by its reference, a company by name and a client by name and by e-mail', async () => {
    const { reference } = await t.db
      .selectFrom('tickets')
      .select('reference')
      .where('tenant_id', '=', b.tenantId)
      .where('reference', 'is not', null)
      .orderBy('id')
      .executeTakeFirstOrThrow();
    expect((await groups(b.admin, String(reference)))[0]!.records[0]!.label).toBe(reference);
    const companies = (await groups(b.admin, 'jansen b')).find((g) => g.resource === 'companies')!;
    expect(companies.records.map((r) => r.id)).toContain(b.ownCompanyId);
    const client = await t.db
      .selectFrom('users')
      .select(['id', 'full_name'])
      .where('email', '=', 'client@example.com')
      .executeTakeFirstOrThrow();
    const byMail = await groups(b.admin, 'client@example');
    expect(byMail.find((g) => g.resource === 'clients')!.records).toContainEqual({
      id: Number(client.id),
      label: client.full_name,
      detail: 'client@example.com',
    });
    const byName = await groups(b.admin, String(client.full_name));
    expect(ids(byName, 'clients')).toContain(Number(client.id));
  });

  it('leaves out what the caller may not list: a first-line operator finds no invoices', async () => {
    const found = await groups(operator, MARK);
    expect(found.map((g) => g.resource)).toEqual(['tickets', 'assets', 'quotes']);
    const withoutTickets = await groups(b.limited, MARK);
    expect(withoutTickets.map((g) => g.resource)).toEqual(['assets', 'quotes', 'invoices']);
  });

  it('shows a client their own companies’ records only, and nothing of another tenant to anyone', async () => {
    const found = await groups(b.client, MARK);
    expect(ids(found, 'tickets')).toEqual([own.ticket]);
    expect(ids(found, 'assets')).toEqual([own.asset]);
    expect(ids(found, 'quotes')).toEqual([own.quote]);
    expect(ids(found, 'invoices')).toEqual([own.invoice]);
    // The other client's company is not among this client's companies, even by its name.
    const other = await t.db
      .selectFrom('companies')
      .select('name')
      .where('id', '=', b.otherCompanyId)
      .executeTakeFirstOrThrow();
    expect(ids(await groups(b.client, String(other.name)), 'companies')).toEqual([]);
    // Clients: the client themselves only.
    expect(ids(await groups(b.client, '@example.com'), 'clients')).toHaveLength(1);
    for (const headers of [b.admin, operator, b.client]) {
      expect(ids(await groups(headers, `Bedrijf ${MARK}`), 'companies')).toEqual([]);
      expect(ids(await groups(headers, `Ander ${MARK}`), 'tickets')).toEqual([]);
    }
  });

  it('takes the text literally: % and _ are no wildcards', async () => {
    expect(await groups(b.admin, '%%%')).toEqual([]);
    expect(await groups(b.admin, '___')).toEqual([]);
  });

  it('answers 422 for a missing, too short, too long or repeated text, and 401 without a token', async () => {
    for (const q of ['', 'ab', '  ab  ', 'x'.repeat(101), ['abc', 'def']]) {
      const res = await search(b.admin, q);
      expect(res.statusCode, JSON.stringify(q)).toBe(422);
      expect(res.json().errors.q).toEqual(['Type 3 to 100 characters to search.']);
    }
    const missing = await t.app.inject({ method: 'GET', url: '/api/search', headers: b.admin });
    expect(missing.statusCode).toBe(422);
    expect((await t.app.inject({ method: 'GET', url: '/api/search?q=abc' })).statusCode).toBe(401);
  });
});
