/**
 * Invoicing (SPEC 4 and 7, issue 6): time registrations and used products on and off their company's draft
 * invoice, exporting and restoring an invoice, the invoices' CSV and the open time registrations. Each call
 * is refused without its permission (403) and does not reach another tenant's records (404).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, targets, type TestApp } from './harness.ts';
import { backOffice, type BackOffice } from './back-office.ts';
import { readCsv } from '../csv-read.ts';

describe.each(targets)('invoicing actions on $name', (target) => {
  let t: TestApp;
  let b: BackOffice;
  let ticketId: number;
  let activityId: number;
  let companyId: number;
  let serial = 0;

  const call = (
    method: 'POST' | 'PUT' | 'GET',
    url: string,
    headers: Record<string, string>,
    payload?: object,
  ) => t.app.inject({ method, url, headers, ...(payload && { payload }) });

  /** A company of its own, so each test starts without a draft invoice. */
  async function makeCompany(tenantId = b.tenantId): Promise<number> {
    serial += 1;
    const row = await t.db
      .insertInto('companies')
      .values({ tenant_id: tenantId, name: `Factuurbedrijf ${serial}` })
      .returning('id')
      .executeTakeFirstOrThrow();
    return Number(row.id);
  }

  async function makeTicket(company: number, tenantId = b.tenantId): Promise<number> {
    const status = await t.db
      .selectFrom('ticket_statuses')
      .select('id')
      .where('tenant_id', '=', tenantId)
      .executeTakeFirst();
    const statusId =
      status?.id ??
      (
        await t.db
          .insertInto('ticket_statuses')
          .values({ tenant_id: tenantId, name: 'Open', name_client: 'Open', internal_type: 1 })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id;
    const row = await t.db
      .insertInto('tickets')
      .values({
        tenant_id: tenantId,
        company_id: company,
        reference: `T-${++serial}`,
        description: 'Printer',
        status_id: statusId,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return Number(row.id);
  }

  async function makeTime(ticket = ticketId, minutes = 90, tenantId = b.tenantId): Promise<number> {
    const row = await t.db
      .insertInto('time_registrations')
      .values({
        tenant_id: tenantId,
        ticket_id: ticket,
        activity_id: tenantId === b.tenantId ? activityId : null,
        description: 'Toner vervangen',
        time_spent: minutes,
        time_spent_rounded: minutes,
        executed_at: '2026-11-01T10:00:00Z',
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return Number(row.id);
  }

  const drafts = (company: number) =>
    t.db
      .selectFrom('invoices')
      .selectAll()
      .where('company_id', '=', company)
      .where('external_id', 'is', null)
      .execute();

  beforeAll(async () => {
    t = await buildTestApp(target);
    b = await backOffice(t, [
      'tenant.time-registrations.invoice',
      'tenant.time-registrations.deinvoice',
      'tenant.time-registrations.open',
      'tenant.used-products.invoice',
      'tenant.invoices.export',
      'tenant.invoices.restore',
      'tenant.invoices.download-csv',
    ]);
    const activity = await t.db
      .insertInto('activities')
      .values({ tenant_id: b.tenantId, name: 'Onderhoud', hourly_rate: 80 })
      .returning('id')
      .executeTakeFirstOrThrow();
    activityId = Number(activity.id);
    companyId = await makeCompany();
    ticketId = await makeTicket(companyId);
  }, 120_000);

  afterAll(async () => {
    await t?.close();
  });

  describe('POST time-registrations/invoice and /deinvoice', () => {
    it('puts the records on a new draft invoice as lines the schema describes, and back off again', async () => {
      const a = await makeTime(ticketId, 90);
      const c = await makeTime(ticketId, 30);
      const res = await call('POST', '/api/time-registrations/invoice', b.admin, { ids: [a, c] });
      expect(res.statusCode, res.body).toBe(200);
      const [draft] = await drafts(companyId);
      expect(res.json().invoice_ids).toEqual([Number(draft!.id)]);
      expect(Number(draft!.status_id)).toBe(1);
      const lines = await t.db
        .selectFrom('invoice_lines')
        .selectAll()
        .where('invoice_id', '=', draft!.id)
        .orderBy('order')
        .execute();
      expect(
        lines.map((l) => [Number(l.source_id), Number(l.quantity), Number(l.price), Number(l.total)]),
      ).toEqual([
        [a, 1.5, 80, 120],
        [c, 0.5, 80, 40],
      ]);
      expect(lines[0]!.description).toMatch(/^T-\d+ - Toner vervangen$/);
      const invoiced = await call('GET', `/api/invoices/${draft!.id}`, b.admin);
      expect(invoiced.json().amount_excl).toBe(160);
      expect(invoiced.json().amount_incl).toBe(193.6);
      const shown = await call('GET', `/api/time-registrations/${a}`, b.admin);
      expect(shown.json().invoice_id).toBe(Number(draft!.id));

      const back = await call('POST', '/api/time-registrations/deinvoice', b.admin, { ids: [a] });
      expect(back.statusCode, back.body).toBe(200);
      expect((await call('GET', `/api/time-registrations/${a}`, b.admin)).json().invoice_id).toBeNull();
      const left = await t.db
        .selectFrom('invoice_lines')
        .select('source_id')
        .where('invoice_id', '=', draft!.id)
        .execute();
      expect(left.map((l) => Number(l.source_id))).toEqual([c]);
      expect((await call('GET', `/api/invoices/${draft!.id}`, b.admin)).json().amount_excl).toBe(40);

      // Invoicing again uses the same draft.
      const again = await call('POST', '/api/time-registrations/invoice', b.admin, { ids: [a] });
      expect(again.json().invoice_ids).toEqual([Number(draft!.id)]);
      expect(await drafts(companyId)).toHaveLength(1);
    });

    it('refuses a record that is already invoiced, and changes nothing of the call', async () => {
      const a = await makeTime();
      const c = await makeTime();
      await call('POST', '/api/time-registrations/invoice', b.admin, { ids: [a] });
      const res = await call('POST', '/api/time-registrations/invoice', b.admin, { ids: [c, a] });
      expect(res.statusCode).toBe(422);
      expect(res.json().errors['ids.1'][0]).toMatch(/already on an invoice/);
      expect((await call('GET', `/api/time-registrations/${c}`, b.admin)).json().invoice_id).toBeNull();
    });

    it('two racing calls for one company make one draft invoice', async () => {
      const company = await makeCompany();
      const ticket = await makeTicket(company);
      const ids = await Promise.all([1, 2, 3, 4].map(() => makeTime(ticket)));
      const results = await Promise.all(
        ids.map((id) => call('POST', '/api/time-registrations/invoice', b.admin, { ids: [id] })),
      );
      expect(results.map((r) => r.statusCode)).toEqual([200, 200, 200, 200]);
      const found = await drafts(company);
      expect(found).toHaveLength(1);
      const lines = await t.db
        .selectFrom('invoice_lines')
        .select('id')
        .where('invoice_id', '=', found[0]!.id)
        .execute();
      expect(lines).toHaveLength(4);
    });

    it('refuses to take a line off a sent invoice (external_id set)', async () => {
      const company = await makeCompany();
      const id = await makeTime(await makeTicket(company));
      await call('POST', '/api/time-registrations/invoice', b.admin, { ids: [id] });
      const [draft] = await drafts(company);
      await t.db
        .updateTable('invoices')
        .set({ external_id: 'EXT-1', code: 'F-2026-9' })
        .where('id', '=', draft!.id)
        .execute();
      const res = await call('POST', '/api/time-registrations/deinvoice', b.admin, { ids: [id] });
      expect(res.statusCode).toBe(422);
      expect(res.json().errors['ids.0'][0]).toMatch(/F-2026-9.*has been sent/);
      const lines = await t.db
        .selectFrom('invoice_lines')
        .select('id')
        .where('invoice_id', '=', draft!.id)
        .execute();
      expect(lines).toHaveLength(1);
      // A record on a sent invoice goes to no other invoice either.
      const again = await call('POST', '/api/time-registrations/invoice', b.admin, { ids: [id] });
      expect(again.statusCode).toBe(422);
    });

    it('checks the body', async () => {
      for (const body of [{}, { ids: [] }, { ids: ['x'] }, { ids: [1, 1] }, { ids: [1], other: 1 }]) {
        const res = await call('POST', '/api/time-registrations/invoice', b.admin, body);
        expect(res.statusCode, JSON.stringify(body)).toBe(422);
      }
    });

    it('is 403 without the permission and for clients, 404 for another tenant', async () => {
      const id = await makeTime();
      expect(
        (await call('POST', '/api/time-registrations/invoice', b.limited, { ids: [id] })).statusCode,
      ).toBe(403);
      expect(
        (await call('POST', '/api/time-registrations/deinvoice', b.limited, { ids: [id] })).statusCode,
      ).toBe(403);
      expect(
        (await call('POST', '/api/time-registrations/invoice', b.client, { ids: [id] })).statusCode,
      ).toBe(403);
      const foreignCompany = await makeCompany(b.otherTenantId);
      const foreign = await makeTime(await makeTicket(foreignCompany, b.otherTenantId), 60, b.otherTenantId);
      const res = await call('POST', '/api/time-registrations/invoice', b.admin, { ids: [id, foreign] });
      expect(res.statusCode).toBe(404);
      expect((await call('GET', `/api/time-registrations/${id}`, b.admin)).json().invoice_id).toBeNull();
    });
  });

  describe('POST used-products/invoice', () => {
    it('uses the product’s own quantity and price, and the ticket’s company when it has none', async () => {
      const company = await makeCompany();
      const ticket = await makeTicket(company);
      const row = await t.db
        .insertInto('used_products')
        .values({
          tenant_id: b.tenantId,
          ticket_id: ticket,
          description: 'Toner',
          quantity: 2,
          price: 45.5,
          invoice_moment: 1,
          type: 1,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const res = await call('POST', '/api/used-products/invoice', b.admin, { ids: [row.id] });
      expect(res.statusCode, res.body).toBe(200);
      const [draft] = await drafts(company);
      const line = await t.db
        .selectFrom('invoice_lines')
        .selectAll()
        .where('invoice_id', '=', draft!.id)
        .executeTakeFirstOrThrow();
      expect([line.description, Number(line.quantity), Number(line.price), Number(line.total)]).toEqual([
        'Toner',
        2,
        45.5,
        91,
      ]);
      expect(line.source_type).toBe('used-products');
      expect(
        (await call('POST', '/api/used-products/invoice', b.limited, { ids: [row.id] })).statusCode,
      ).toBe(403);
      const back = await call('POST', '/api/used-products/deinvoice', b.admin, { ids: [row.id] });
      expect(back.statusCode).toBe(200);
    });
  });

  describe('invoicing/export, restore and download-csv', () => {
    async function sentInvoice(company = companyId) {
      const row = await t.db
        .insertInto('invoices')
        .values({
          tenant_id: b.tenantId,
          company_id: company,
          date: '2026-11-01',
          code: `F-${++serial}`,
          reference: '=SUM(A1)',
          external_id: `EXT-${serial}`,
          status_id: 4,
          amount_excl: 100,
          amount_incl: 121,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      return Number(row.id);
    }

    it('exports a PDF for a user with the PDF-export module, else records a re-export request', async () => {
      const id = await sentInvoice();
      const pdf = await call('POST', `/api/invoicing/export/${id}`, b.admin);
      expect(pdf.statusCode).toBe(200);
      expect(pdf.headers['content-type']).toBe('application/pdf');
      expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');

      await t.db
        .updateTable('users')
        .set({ modules: JSON.stringify([]) })
        .where('email', '=', 'admin@example.com')
        .execute();
      try {
        const request = await call('POST', `/api/invoicing/export/${id}`, b.admin);
        expect(request.statusCode).toBe(200);
        expect(request.json()).toEqual({ reExport: true });
        expect(
          (await call('GET', `/api/invoices/${id}`, b.admin)).json().re_export_requested_at,
        ).not.toBeNull();
      } finally {
        await t.db
          .updateTable('users')
          .set({ modules: JSON.stringify(['invoice_pdf_export']) })
          .where('email', '=', 'admin@example.com')
          .execute();
      }
      expect((await call('POST', `/api/invoicing/export/${id}`, b.limited)).statusCode).toBe(403);
      expect((await call('POST', `/api/invoicing/export/${id}`, b.client)).statusCode).toBe(403);
    });

    it('restores a sent invoice to concept, once', async () => {
      const id = await sentInvoice();
      expect((await call('PUT', `/api/invoicing/restore/${id}`, b.limited)).statusCode).toBe(403);
      const res = await call('PUT', `/api/invoicing/restore/${id}`, b.admin);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject({ id, external_id: null, status_id: 1 });
      const again = await call('PUT', `/api/invoicing/restore/${id}`, b.admin);
      expect(again.statusCode).toBe(422);
    });

    it('answers the CSV of the invoices asked for as every CSV is written: ; BOM CRLF, formulas defused', async () => {
      const [first, second] = [await sentInvoice(), await sentInvoice()];
      const changes = { reference: 'Maand 11; "extra" werk', amount_excl: 1234.5, amount_incl: 1493.75 };
      await t.db.updateTable('invoices').set(changes).where('id', '=', first).execute();
      const res = await call('POST', '/api/invoicing/download-csv', b.admin, { ids: [second, first] });
      expect([res.statusCode, res.headers['content-type']]).toEqual([200, 'text/csv; charset=utf-8']);
      // Read back as Dutch Excel does (';', RFC 4180 quotes); Dutch, the default, writes a decimal comma.
      const csv = await readCsv(res.rawPayload);
      expect([csv.bom, csv.crlf, csv.rows.map((row) => row.length)]).toEqual([true, true, [9, 9, 9]]);
      const [head, ...rows] = csv.rows.map((r) => Object.fromEntries(r.map((v, i) => [csv.rows[0]![i], v])));
      expect(Object.keys(head!).join(' ')).toBe(
        'code reference company date due_date status amount_excl amount_incl external_id',
      );
      expect(rows[0]).toMatchObject({ code: `F-${serial}`, reference: "'=SUM(A1)", date: '2026-11-01' });
      expect(rows[0]).toMatchObject({ amount_excl: '100,00', amount_incl: '121,00' });
      expect(rows[1]).toMatchObject({ reference: 'Maand 11; "extra" werk', amount_excl: '1234,50' });
      // English: the same separator (the spreadsheet's regional settings decide it), the decimal point.
      const headers = { ...b.admin, 'accept-language': 'en' };
      const english = await call('POST', '/api/invoicing/download-csv', headers, { ids: [first] });
      expect((await readCsv(english.rawPayload)).rows[1]).toEqual(
        csv.rows[2]!.map((v) => v.replace('1234,50', '1234.50').replace('1493,75', '1493.75')),
      );
      expect(
        (await call('POST', '/api/invoicing/download-csv', b.limited, { ids: [first] })).statusCode,
      ).toBe(403);
      const foreign = await t.db
        .insertInto('invoices')
        .values({
          tenant_id: b.otherTenantId,
          company_id: await makeCompany(b.otherTenantId),
          date: '2026-11-01',
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      expect(
        (await call('POST', '/api/invoicing/download-csv', b.admin, { ids: [first, foreign.id] })).statusCode,
      ).toBe(404);
      expect((await call('POST', `/api/invoicing/export/${foreign.id}`, b.admin)).statusCode).toBe(404);
      expect((await call('PUT', `/api/invoicing/restore/${foreign.id}`, b.admin)).statusCode).toBe(404);
    });
  });

  describe('GET time-registrations/open', () => {
    it('lists only the time registrations on no invoice, paginated like the list', async () => {
      const company = await makeCompany();
      const ticket = await makeTicket(company);
      const open = await makeTime(ticket);
      const done = await makeTime(ticket);
      await call('POST', '/api/time-registrations/invoice', b.admin, { ids: [done] });
      const res = await call(
        'GET',
        `/api/time-registrations/open?builder[0][where][0]=ticket_id&builder[0][where][1]=${ticket}`,
        b.admin,
      );
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject({ total: 1, current_page: 1, per_page: 15 });
      expect(res.json().data.map((r: { id: number }) => r.id)).toEqual([open]);
      expect((await call('GET', '/api/time-registrations/open', b.limited)).statusCode).toBe(403);
      expect((await call('GET', '/api/time-registrations/open', b.client)).statusCode).toBe(403);
    });
  });
});
