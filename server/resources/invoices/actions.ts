/**
 * Invoice PDFs: POST /api/invoices/{id}/download (the file) and SPEC 7 GET /api/invoicing/{id} (the same
 * file as {Base64, Filename}, next to the invoice's visible fields). Both need the `download` permission and
 * an invoice the caller may see: a client sees only invoiced (external_id set) invoices of its companies.
 */
import { audit } from '../../audit/audit.ts';
import type { AuthContext } from '../../auth/context.ts';
import type { Db } from '../../db/database.ts';
import { BodyValidation } from '../../schema/validate.ts';
import type { ActionPlugin } from '../action-contract.ts';
import { authorize } from '../plugin.ts';
import { validInput, type RecordParams } from '../../http/route-validation.ts';
import { findRecord, type Deps } from '../repository.ts';
import { invoicePdf } from '../../pdf/invoice.ts';
import { attachment, pdfFileName } from '../../pdf/layout.ts';
import { actionRoute, BINARY, recordRef } from '../../docs/action-schema.ts';

/** An unknown invoice status is shown as status 1 (SPEC 4). */
const FALLBACK_STATUS = 1;

/** The invoice as a PDF file; the caller has checked that it may see it. */
export async function renderInvoice(
  db: Db,
  auth: AuthContext,
  tenantName: string,
  id: number,
): Promise<{ pdf: Buffer; fileName: string }> {
  const invoice = await db
    .selectFrom('invoices as i')
    .leftJoin('companies as c', 'c.id', 'i.company_id')
    .select([
      'i.code',
      'i.reference',
      'i.date',
      'i.due_date',
      'i.status_id',
      'i.amount_excl',
      'i.amount_incl',
      'c.name as company',
    ])
    .where('i.id', '=', id)
    .where('i.tenant_id', '=', auth.tenantId)
    .executeTakeFirstOrThrow();
  const statuses = await db
    .selectFrom('invoice_statuses')
    .select(['id', 'name'])
    .where('id', 'in', [Number(invoice.status_id), FALLBACK_STATUS])
    .execute();
  const status =
    statuses.find((s) => Number(s.id) === Number(invoice.status_id)) ??
    statuses.find((s) => Number(s.id) === FALLBACK_STATUS);
  const lines = await db
    .selectFrom('invoice_lines')
    .select(['description', 'quantity', 'price', 'vat_percentage', 'total'])
    .where('invoice_id', '=', id)
    .where('tenant_id', '=', auth.tenantId)
    .orderBy('order')
    .orderBy('id')
    .execute();
  const pdf = await invoicePdf({
    tenantName,
    company: invoice.company,
    code: invoice.code,
    reference: invoice.reference,
    date: invoice.date,
    dueDate: invoice.due_date,
    status: status?.name ?? null,
    amountExcl: invoice.amount_excl,
    amountIncl: invoice.amount_incl,
    lines: lines.map((l) => ({
      description: l.description,
      quantity: l.quantity,
      price: l.price,
      vatPercentage: l.vat_percentage,
      total: l.total,
    })),
  });
  return { pdf, fileName: pdfFileName(invoice.code, `invoice-${id}`) };
}

export const invoiceActions: ActionPlugin = async (app, { db, registry }) => {
  const invoices = registry.require('invoices');
  const deps: Deps = { db, registry, validation: new BodyValidation() };

  app.post<RecordParams>(
    '/api/invoices/:id/download',
    actionRoute({
      tag: invoices.name,
      operationId: 'invoicesDownload',
      summary: 'The invoice as a PDF',
      description: 'For whoever may see the invoice and holds `download` (clients: invoiced invoices only).',
      answers: { 200: { description: 'The PDF.', content: { 'application/pdf': BINARY } } },
    }),
    async (request, reply) => {
      const auth = await authorize(request, invoices, 'download');
      validInput(request);
      const { id } = request.params;
      await findRecord(deps, auth, invoices, id);
      const { pdf, fileName } = await renderInvoice(db, auth, request.tenant.name, id);
      await audit(db, auth, { action: 'invoice.download', resource: invoices.name, recordId: id });
      return reply
        .header('content-type', 'application/pdf')
        .header('content-disposition', attachment(fileName))
        .header('cache-control', 'no-store')
        .send(pdf);
    },
  );

  app.get<RecordParams>(
    '/api/invoicing/:id',
    actionRoute({
      tag: invoices.name,
      operationId: 'invoicingFile',
      summary: 'The invoice with its PDF as {Base64, Filename}',
      description: 'The permission and visibility of `POST /invoices/{id}/download`.',
      answers: {
        200: {
          description: 'The invoice record, with its PDF.',
          schema: {
            allOf: [
              recordRef(registry, invoices),
              {
                type: 'object',
                required: ['Base64', 'Filename'],
                properties: {
                  Base64: { type: 'string', contentEncoding: 'base64', contentMediaType: 'application/pdf' },
                  Filename: { type: 'string' },
                },
              },
            ],
          },
        },
      },
    }),
    async (request, reply) => {
      const auth = await authorize(request, invoices, 'download');
      validInput(request);
      const { id } = request.params;
      const invoice = await findRecord(deps, auth, invoices, id);
      const { pdf, fileName } = await renderInvoice(db, auth, request.tenant.name, id);
      await audit(db, auth, { action: 'invoice.download', resource: invoices.name, recordId: id });
      reply.header('cache-control', 'no-store');
      return { ...invoice, Base64: pdf.toString('base64'), Filename: fileName };
    },
  );
};
