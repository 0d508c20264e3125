/**
 * The invoice as a PDF (POST /api/invoices/{id}/download and GET /api/invoicing/{id}): the tenant, the
 * company, code, reference, date, due date, status, the lines and the amounts excluding and including
 * VAT in euros, Dutch dates.
 */
import { formatDate, formatMoney, formatQuantity } from '../../common/format.ts';
import { facts, header, renderPdf, table, totals } from './layout.ts';

export interface InvoicePdf {
  tenantName: string;
  company: string | null;
  code: string | null;
  reference: string | null;
  date: string | Date | null;
  dueDate: string | Date | null;
  status: string | null;
  amountExcl: number | string;
  amountIncl: number | string;
  lines: {
    description: string;
    quantity: number | string;
    price: number | string;
    vatPercentage: number | string | null;
    total: number | string | null;
  }[];
}

const lineTotal = (line: InvoicePdf['lines'][number]) =>
  line.total !== null && Number(line.total) !== 0
    ? Number(line.total)
    : Math.round(Number(line.quantity) * Number(line.price) * 100) / 100;

export function invoicePdf(invoice: InvoicePdf): Promise<Buffer> {
  return renderPdf(`Factuur ${invoice.code ?? ''}`.trim(), (doc) => {
    header(doc, invoice.tenantName, invoice.code ? `Factuur ${invoice.code}` : 'Factuur');
    facts(doc, [
      ['Bedrijf', invoice.company],
      ['Factuurnummer', invoice.code],
      ['Referentie', invoice.reference],
      ['Factuurdatum', formatDate(invoice.date, 'nl')],
      ['Vervaldatum', formatDate(invoice.dueDate, 'nl')],
      ['Status', invoice.status],
    ]);
    table(
      doc,
      [
        { label: 'Omschrijving', width: 0.44 },
        { label: 'Aantal', width: 0.12, align: 'right' },
        { label: 'Prijs', width: 0.16, align: 'right' },
        { label: 'Btw', width: 0.1, align: 'right' },
        { label: 'Totaal', width: 0.18, align: 'right' },
      ],
      invoice.lines.map((line) => [
        line.description,
        formatQuantity(line.quantity, 'nl'),
        formatMoney(line.price, 'nl'),
        line.vatPercentage === null ? '' : `${formatQuantity(line.vatPercentage, 'nl')}%`,
        formatMoney(lineTotal(line), 'nl'),
      ]),
    );
    const excl = Number(invoice.amountExcl);
    const incl = Number(invoice.amountIncl);
    totals(doc, [
      ['Totaal excl. btw', formatMoney(excl, 'nl')],
      ['Btw', formatMoney(Math.round((incl - excl) * 100) / 100, 'nl')],
      ['Totaal incl. btw', formatMoney(incl, 'nl')],
    ]);
  });
}
