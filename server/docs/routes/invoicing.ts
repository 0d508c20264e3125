/**
 * The OpenAPI text of the invoicing calls of SPEC 7 (issue 6): records on and off the draft invoice, the
 * invoice's export, restore and CSV, the open time registrations and duplicating a quote.
 */
import { ERRORS, type Schema, ref } from '../refs.ts';
import type { Resource } from '../../../common/schema/types.ts';
import type { Registry } from '../../schema/registry.ts';

const OPERATORS_ONLY = 'Operators only: clients get 403.';

const idsBody = (max: number): Schema => ({
  required: true,
  content: {
    'application/json': {
      schema: {
        type: 'object',
        required: ['ids'],
        additionalProperties: false,
        properties: {
          ids: {
            type: 'array',
            minItems: 1,
            maxItems: max,
            uniqueItems: true,
            items: { type: 'integer', minimum: 1 },
          },
        },
      },
    },
  },
});

const INVOICED: Schema = {
  description: 'Done; the ids of the draft invoices that changed.',
  content: {
    'application/json': {
      schema: {
        type: 'object',
        properties: {
          message: { type: 'string' },
          invoice_ids: { type: 'array', items: { type: 'integer' } },
        },
      },
    },
  },
};

/** Path items of these calls, for the resources the registry has. */
export function invoicingPaths(resources: Resource[]): Record<string, Record<string, Schema>> {
  const has = (name: string) => resources.some((r) => r.name === name);
  const paths: Record<string, Record<string, Schema>> = {};
  for (const r of resources.filter((x) => x.invoiceLine)) {
    const tag = r.name;
    paths[`/${r.name}/invoice`] = {
      post: {
        tags: [tag],
        operationId: `${r.name.replace(/-(.)/g, (_, c: string) => c.toUpperCase())}Invoice`,
        summary: `Put ${r.title.toLowerCase()}s on their company's draft invoice`,
        description:
          "Each record becomes a line of its company's draft invoice (the invoice without `external_id`, " +
          "created when there is none) as the schema's `x-invoice-line` describes. A record already on an " +
          'invoice or without a company is a 422 naming it (`ids.<n>`) and nothing changes; an id the caller ' +
          'cannot see is 404. One transaction; racing calls for one company make one draft. Permission ' +
          `\`tenant.${r.name}.invoice\`. ${OPERATORS_ONLY}`,
        requestBody: idsBody(100),
        responses: { 200: INVOICED, ...ERRORS },
      },
    };
    paths[`/${r.name}/deinvoice`] = {
      post: {
        tags: [tag],
        operationId: `${r.name.replace(/-(.)/g, (_, c: string) => c.toUpperCase())}Deinvoice`,
        summary: `Take ${r.title.toLowerCase()}s off their draft invoice`,
        description:
          'Their invoice lines go and the records are on no invoice again; the invoice amounts follow. A ' +
          'record on no invoice, or on a sent invoice (`external_id` set), is a 422 naming it and nothing ' +
          `changes. One transaction. Permission \`tenant.${r.name}.deinvoice\`. ${OPERATORS_ONLY}`,
        requestBody: idsBody(100),
        responses: { 200: INVOICED, ...ERRORS },
      },
    };
  }
  if (has('invoices')) {
    paths['/invoicing/invoices'] = {
      get: {
        tags: ['invoices'],
        operationId: 'invoicingInvoices',
        summary: 'List invoices in the invoicing shape',
        description:
          'The invoices list (the same builder query, paging, portal scope and permission ' +
          '`invoices.index` as `GET /invoices`) with rows in the version-2 shape: InvoiceCode, ' +
          'ReferenceNumber, AmountIncl, Date, Status, ViewURL; `GET /invoicing{ViewURL}` answers the file. ' +
          '`version=1` answers the invoice records instead.',
        parameters: [ref('parameters', 'Builder'), ref('parameters', 'Page'), ref('parameters', 'Version')],
        responses: {
          200: {
            description: 'A page: data, total, from, to, per_page, current_page, last_page.',
            content: { 'application/json': { schema: { type: 'object' } } },
          },
          ...ERRORS,
        },
      },
    };
    paths['/invoicing/export/{id}'] = {
      post: {
        tags: ['invoices'],
        operationId: 'invoicingExport',
        summary: 'Export an invoice: its PDF, or a re-export request',
        description:
          "With the PDF-export module (`invoice_pdf_export` in the user's `modules`) the answer is the PDF; " +
          'otherwise the invoice records the request (`re_export_requested_at`) and the answer is ' +
          `\`{reExport: true}\`. Permission \`tenant.invoices.export\`. ${OPERATORS_ONLY}`,
        parameters: [ref('parameters', 'Id')],
        responses: {
          200: {
            description: 'The PDF, or {reExport: true}.',
            content: {
              'application/pdf': { schema: { type: 'string', format: 'binary' } },
              'application/json': {
                schema: { type: 'object', properties: { reExport: { type: 'boolean', const: true } } },
              },
            },
          },
          ...ERRORS,
        },
      },
    };
    paths['/invoicing/restore/{id}'] = {
      put: {
        tags: ['invoices'],
        operationId: 'invoicingRestore',
        summary: 'Restore a sent invoice to concept',
        description:
          '`external_id` and the re-export request are cleared and the status becomes 1. An invoice that is ' +
          `a concept already answers 422. Permission \`tenant.invoices.restore\`. ${OPERATORS_ONLY}`,
        parameters: [ref('parameters', 'Id')],
        responses: {
          200: {
            description: 'The invoice.',
            content: { 'application/json': { schema: ref('schemas', 'Invoice') } },
          },
          ...ERRORS,
        },
      },
    };
    paths['/invoicing/download-csv'] = {
      post: {
        tags: ['invoices'],
        operationId: 'invoicingDownloadCsv',
        summary: 'The invoices asked for as a CSV file',
        description:
          'Columns code, reference, company, date, due_date, status, amount_excl, amount_incl, external_id; ' +
          'the rows in the order of `ids`; UTF-8 with a byte order mark. An id the caller cannot see is 404. ' +
          `Permission \`tenant.invoices.download-csv\`. ${OPERATORS_ONLY}`,
        requestBody: idsBody(500),
        responses: {
          200: { description: 'text/csv', content: { 'text/csv': { schema: { type: 'string' } } } },
          ...ERRORS,
        },
      },
    };
  }
  if (has('time-registrations')) {
    paths['/time-registrations/open'] = {
      get: {
        tags: ['time-registrations'],
        operationId: 'timeRegistrationsOpen',
        summary: 'Time registrations on no invoice yet',
        description:
          'The generic list of time registrations (same builder query, paging and answer) limited to those ' +
          `whose \`invoice_id\` is null. Permission \`tenant.time-registrations.open\`. ${OPERATORS_ONLY}`,
        responses: { 200: { description: 'A page of time registrations.' }, ...ERRORS },
      },
    };
  }
  if (has('quotes')) {
    paths['/quotes/{id}/duplicate'] = {
      post: {
        tags: ['quotes'],
        operationId: 'quotesDuplicate',
        summary: 'Copy a quote as a new concept quote',
        description:
          "A new quote (status 1) with the quote's own fields, custom values, lines and total; nothing of its " +
          `sending, signature or decision. One transaction. Permission \`tenant.quotes.duplicate\`. ${OPERATORS_ONLY}`,
        parameters: [ref('parameters', 'Id')],
        responses: {
          201: {
            description: 'The new quote.',
            content: { 'application/json': { schema: ref('schemas', 'Quote') } },
          },
          ...ERRORS,
        },
      },
    };
  }
  return paths;
}

/** The calls' documentation for this registry; a route finds its own (route-schema.ts `documented`). */
export const INVOICING = (registry: Registry) =>
  invoicingPaths([...registry.resources.values()].sort((a, b) => a.name.localeCompare(b.name)));
