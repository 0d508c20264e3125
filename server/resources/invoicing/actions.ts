/**
 * SPEC 4 and 7 back-office invoice calls, for operators:
 *
 * - POST /invoicing/export/{id}: the invoice as a PDF when the caller has the PDF-export module (a per-user
 *   flag, `users.modules`), otherwise a re-export request: the invoice records when it was asked for
 *   (`re_export_requested_at`) and the answer is {reExport: true}.
 * - PUT /invoicing/restore/{id}: a sent invoice goes back to concept: external_id and the re-export request
 *   cleared, status 1 (the status an unknown one falls back to, and the one a new draft starts in).
 * - POST /invoicing/download-csv {ids}: those invoices as a CSV file, in the order asked, written as every
 *   CSV of the desk is (../../csv/format.ts), the amounts with the decimal sign of the caller's language.
 *
 * Permissions `tenant.invoices.export`, `.restore` and `.download-csv`; clients get 403.
 */
import { sql } from 'kysely';
import { notFound, ValidationError } from '../../http/errors.ts';
import { BodyValidation } from '../../schema/validate.ts';
import type { ActionPlugin } from '../action-contract.ts';
import { authorize } from '../plugin.ts';
import { validInput, type RecordParams } from '../../http/route-validation.ts';
import { findRecord, type Deps } from '../repository.ts';
import { renderInvoice } from '../invoices/actions.ts';
import { attachment } from '../../pdf/layout.ts';
import { DRAFT_STATUS, idsBody } from './lines.ts';
import { bodyIds } from '../../http/ids.ts';
import { actionRoute, BINARY, OPERATORS_ONLY, recordRef } from '../../docs/action-schema.ts';
import { serverText } from '../../../common/server-texts.ts';
import { csvFile, csvNumber } from '../../csv/format.ts';

/** The module flag that lets a user download the PDF of an export (SPEC 6: modules are per-user flags). */
export const PDF_EXPORT_MODULE = 'invoice_pdf_export';
/** A CSV is for a selection of a list: at most a few pages of it. */
export const MAX_CSV_IDS = 500;
export const ALREADY_CONCEPT = serverText('invoice_concept_already');

const CSV_COLUMNS = [
  'code',
  'reference',
  'company',
  'date',
  'due_date',
  'status',
  'amount_excl',
  'amount_incl',
  'external_id',
] as const;

/** The amount columns: numbers with the decimal sign of the caller's language (../../csv/format.ts). */
const AMOUNT_COLUMNS: ReadonlySet<string> = new Set(['amount_excl', 'amount_incl']);

export const invoicingActions: ActionPlugin = async (app, { db, registry }) => {
  const invoices = registry.require('invoices');
  const deps: Deps = { db, registry, validation: new BodyValidation() };

  app.post<RecordParams>(
    '/api/invoicing/export/:id',
    actionRoute({
      tag: invoices.name,
      operationId: 'invoicingExport',
      summary: 'Export an invoice: its PDF, or a re-export request',
      description:
        `With the PDF-export module (\`${PDF_EXPORT_MODULE}\` in the user's \`modules\`) the answer is the ` +
        'PDF; otherwise the invoice records the request (`re_export_requested_at`) and the answer is ' +
        `\`{reExport: true}\`. Permission \`tenant.invoices.export\`. ${OPERATORS_ONLY}`,
      answers: {
        200: {
          description: 'The PDF, or {reExport: true}.',
          content: {
            'application/pdf': BINARY,
            'application/json': {
              type: 'object',
              required: ['reExport'],
              properties: { reExport: { type: 'boolean', const: true } },
              additionalProperties: false,
            },
          },
        },
      },
    }),
    async (request, reply) => {
      const auth = await authorize(request, invoices, 'export');
      validInput(request);
      const { id } = request.params;
      await findRecord(deps, auth, invoices, id);
      const user = auth.userId
        ? await db.selectFrom('users').select('modules').where('id', '=', auth.userId).executeTakeFirst()
        : undefined;
      const modules = Array.isArray(user?.modules) ? (user.modules as unknown[]) : [];
      if (modules.includes(PDF_EXPORT_MODULE)) {
        const { pdf, fileName } = await renderInvoice(db, auth, request.tenant.name, id);
        return reply
          .header('content-type', 'application/pdf')
          .header('content-disposition', attachment(fileName))
          .header('cache-control', 'no-store')
          .send(pdf);
      }
      await db
        .updateTable('invoices')
        .set({ re_export_requested_at: sql`now()`, updated_at: sql`now()` })
        .where('id', '=', id)
        .where('tenant_id', '=', auth.tenantId)
        .execute();
      return { reExport: true };
    },
  );

  app.put<RecordParams>(
    '/api/invoicing/restore/:id',
    actionRoute({
      tag: invoices.name,
      operationId: 'invoicingRestore',
      summary: 'Restore a sent invoice to concept',
      description:
        '`external_id` and the re-export request are cleared and the status becomes 1. An invoice that is ' +
        `a concept already answers 422. Permission \`tenant.invoices.restore\`. ${OPERATORS_ONLY}`,
      answers: { 200: { description: 'The invoice.', schema: recordRef(registry, invoices) } },
    }),
    async (request) => {
      const auth = await authorize(request, invoices, 'restore');
      validInput(request);
      const { id } = request.params;
      await findRecord(deps, auth, invoices, id);
      await db.transaction().execute(async (trx) => {
        const row = await trx
          .selectFrom('invoices')
          .select('external_id')
          .where('id', '=', id)
          .where('tenant_id', '=', auth.tenantId)
          .forUpdate()
          .executeTakeFirst();
        if (!row) throw notFound();
        if (row.external_id === null)
          throw new ValidationError({ external_id: [ALREADY_CONCEPT] }, ALREADY_CONCEPT);
        await trx
          .updateTable('invoices')
          .set({
            external_id: null,
            status_id: DRAFT_STATUS,
            re_export_requested_at: null,
            updated_at: sql`now()`,
          })
          .where('id', '=', id)
          .where('tenant_id', '=', auth.tenantId)
          .execute();
      });
      return findRecord(deps, auth, invoices, id);
    },
  );

  app.post(
    '/api/invoicing/download-csv',
    actionRoute({
      tag: invoices.name,
      operationId: 'invoicingDownloadCsv',
      summary: 'The invoices asked for as a CSV file',
      description:
        `Columns ${CSV_COLUMNS.join(', ')}; the rows in the order of \`ids\`; UTF-8 with a byte order ` +
        'mark, `;` between fields, CRLF line ends; amounts without a thousands separator, with the decimal ' +
        'sign of the `Accept-Language` (a comma in Dutch and German, a point in English). An id the caller ' +
        'cannot see is 404. Permission `tenant.invoices.download-csv`. ' +
        OPERATORS_ONLY,
      params: false,
      body: idsBody(MAX_CSV_IDS),
      answers: { 200: { description: 'The CSV file.', content: { 'text/csv': { type: 'string' } } } },
    }),
    async (request, reply) => {
      const auth = await authorize(request, invoices, 'download-csv');
      validInput(request);
      const ids = bodyIds(request.body);
      const rows = await db
        .selectFrom('invoices as i')
        .leftJoin('companies as c', 'c.id', 'i.company_id')
        .leftJoin('invoice_statuses as s', 's.id', 'i.status_id')
        .select([
          'i.id',
          'i.code',
          'i.reference',
          'c.name as company',
          'i.date',
          'i.due_date',
          's.name as status',
          'i.amount_excl',
          'i.amount_incl',
          'i.external_id',
        ])
        .where('i.tenant_id', '=', auth.tenantId)
        .where('i.id', 'in', ids)
        .execute();
      const byId = new Map(rows.map((r) => [Number(r.id), r]));
      if (byId.size !== ids.length) throw notFound();
      const cell = (row: Record<string, unknown>, column: string): string => {
        const value = row[column];
        if (AMOUNT_COLUMNS.has(column)) return csvNumber(value, auth.language ?? 'nl');
        if (value === null || value === undefined) return '';
        return value instanceof Date ? value.toISOString() : String(value);
      };
      const file = csvFile(
        [...CSV_COLUMNS],
        ids.map((id) => CSV_COLUMNS.map((column) => cell(byId.get(id) as Record<string, unknown>, column))),
      );
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', 'attachment; filename="invoices.csv"')
        .header('cache-control', 'no-store')
        .send(file);
    },
  );
};
