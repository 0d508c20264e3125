/**
 * The quote as a PDF (POST /api/quotes/{id}/download): the tenant, the company and client, the lines with
 * euro amounts and the total, Dutch dates; once accepted, the signature image, the signer's name and the
 * moment of acceptance. A quote past its validity date says 'Verlopen' as its status.
 */
import { formatDate, formatMoney, formatQuantity } from '../../common/format.ts';
import { lineTotal, quoteTotal } from '../../common/quote-totals.ts';
import { facts, header, paragraph, renderPdf, table, totals, type Doc } from './layout.ts';
import { isDecodablePng } from './png.ts';
import { formatMoment } from './time.ts';

export interface QuotePdf {
  tenantName: string;
  name: string;
  description: string | null;
  statusId: number;
  company: string | null;
  client: string | null;
  createdAt: Date | string | null;
  sentAt: Date | string | null;
  validUntil: Date | string | null;
  /** Past its validity date while still to be decided on (common/quote-validity.ts): its status says so. */
  expired: boolean;
  total: number | string | null;
  lines: {
    description: string;
    quantity: number | string;
    price: number | string;
    total: number | string | null;
  }[];
  acceptance: {
    name: string;
    note: string | null;
    /** A PNG data URL. */
    signature: string | null;
    acceptedAt: Date | string;
  } | null;
  declinedAt: Date | string | null;
}

const STATUS: Record<number, string> = { 1: 'Concept', 2: 'Verzonden', 3: 'Geaccepteerd', 4: 'Afgewezen' };

export function quotePdf(quote: QuotePdf): Promise<Buffer> {
  return renderPdf(`Offerte ${quote.name}`, (doc) => {
    header(doc, quote.tenantName, `Offerte: ${quote.name}`);
    facts(doc, [
      ['Bedrijf', quote.company],
      ['Klant', quote.client],
      ['Datum', formatDate(quote.sentAt ?? quote.createdAt, 'nl', 'Europe/Amsterdam')],
      ['Geldig tot', formatDate(quote.validUntil, 'nl')],
      ['Status', quote.expired ? 'Verlopen' : (STATUS[quote.statusId] ?? String(quote.statusId))],
    ]);
    if (quote.description) {
      paragraph(doc, quote.description);
      doc.moveDown(1);
    }
    table(
      doc,
      [
        { label: 'Omschrijving', width: 0.5 },
        { label: 'Aantal', width: 0.14, align: 'right' },
        { label: 'Prijs', width: 0.18, align: 'right' },
        { label: 'Totaal', width: 0.18, align: 'right' },
      ],
      quote.lines.map((line) => [
        line.description,
        formatQuantity(line.quantity, 'nl'),
        formatMoney(line.price, 'nl'),
        formatMoney(lineTotal(line), 'nl'),
      ]),
    );
    totals(doc, [['Totaal', formatMoney(quoteTotal(quote, quote.lines), 'nl')]]);
    if (quote.acceptance) acceptance(doc, quote.acceptance);
    else if (quote.statusId === 4)
      paragraph(doc, `Afgewezen op ${formatMoment(quote.declinedAt)}`.trim(), { bold: true });
  });
}

function acceptance(doc: Doc, accepted: NonNullable<QuotePdf['acceptance']>): void {
  if (doc.y > doc.page.height - doc.page.margins.bottom - 200) doc.addPage();
  paragraph(doc, 'Akkoord', { bold: true });
  doc.moveDown(0.5);
  paragraph(doc, `Geaccepteerd door ${accepted.name} op ${formatMoment(accepted.acceptedAt)}`);
  if (accepted.note) {
    doc.moveDown(0.3);
    paragraph(doc, `Opmerking: ${accepted.note}`, { grey: true });
  }
  if (accepted.signature) {
    doc.moveDown(0.5);
    const image = signatureBuffer(accepted.signature);
    let shown = false;
    if (image) {
      try {
        doc.image(image, doc.page.margins.left, doc.y, { fit: [240, 100] });
        doc.y += 104;
        shown = true;
      } catch {
        shown = false;
      }
    }
    // A signature that cannot be read leaves the name and time as the record of acceptance.
    if (!shown) paragraph(doc, '(handtekening niet leesbaar)', { grey: true });
  }
}

/** The signature's image, only when it decodes: pdfkit must never see a corrupt PNG (see png.ts). */
function signatureBuffer(dataUrl: string): Buffer | null {
  const match = /^data:image\/png;base64,(.*)$/s.exec(dataUrl);
  if (!match) return null;
  const image = Buffer.from(match[1]!, 'base64');
  return isDecodablePng(image) ? image : null;
}
