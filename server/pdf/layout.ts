/**
 * The shared layout of the server's PDFs (quotes, invoices): A4, pdfkit's built-in Helvetica (no font
 * files), a header with the tenant's name and the document's title, labelled facts, a table of lines and
 * totals. Amounts and dates go through common/format.ts in Dutch, as the portal shows them.
 */

export type Doc = PDFKit.PDFDocument;

const MARGIN = 50;
const GREY = '#555555';

/** Builds a PDF in memory. */
export async function renderPdf(title: string, build: (doc: Doc) => void): Promise<Buffer> {
  // PDFKit is loaded by the first PDF, not at start-up (a fifth of a second of every start).
  const { default: PDFDocument } = await import('pdfkit');
  const doc = new PDFDocument({ size: 'A4', margin: MARGIN, info: { Title: title } });
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  doc.font('Helvetica');
  build(doc);
  doc.end();
  return done;
}

const contentWidth = (doc: Doc) => doc.page.width - doc.page.margins.left - doc.page.margins.right;

/** The tenant's name small at the top, then the title large. */
export function header(doc: Doc, tenantName: string, title: string): void {
  doc.font('Helvetica-Bold').fontSize(10).fillColor(GREY).text(tenantName, { align: 'right' });
  doc.moveDown(1.5);
  doc.font('Helvetica-Bold').fontSize(20).fillColor('black').text(title);
  doc.moveDown(0.8);
}

/** Label-value pairs, one per line; empty values are left out. */
export function facts(doc: Doc, rows: [label: string, value: string | null | undefined][]): void {
  const x = doc.page.margins.left;
  for (const [label, value] of rows) {
    if (value === null || value === undefined || value === '') continue;
    const y = doc.y;
    doc.font('Helvetica-Bold').fontSize(10).fillColor(GREY).text(label, x, y, { width: 130 });
    const labelBottom = doc.y;
    doc
      .font('Helvetica')
      .fillColor('black')
      .text(value, x + 140, y, { width: contentWidth(doc) - 140 });
    doc.y = Math.max(doc.y, labelBottom);
  }
  doc.x = x;
  doc.moveDown(1);
}

export interface Column {
  label: string;
  /** A share of the content width; the shares of a table add up to 1. */
  width: number;
  align?: 'left' | 'right';
}

/** A table with a bold header row and a rule under it; rows break onto a new page when needed. */
export function table(doc: Doc, columns: Column[], rows: string[][]): void {
  const left = doc.page.margins.left;
  const width = contentWidth(doc);
  const drawRow = (cells: string[], bold: boolean) => {
    doc
      .font(bold ? 'Helvetica-Bold' : 'Helvetica')
      .fontSize(10)
      .fillColor('black');
    const heights = cells.map((cell, i) =>
      doc.heightOfString(cell, { width: columns[i]!.width * width - 6 }),
    );
    const height = Math.max(...heights, 12);
    if (doc.y + height > doc.page.height - doc.page.margins.bottom) doc.addPage();
    const y = doc.y;
    let x = left;
    cells.forEach((cell, i) => {
      const column = columns[i]!;
      doc.text(cell, x, y, { width: column.width * width - 6, align: column.align ?? 'left' });
      x += column.width * width;
    });
    doc.y = y + height + 4;
  };
  drawRow(
    columns.map((c) => c.label),
    true,
  );
  rule(doc);
  for (const row of rows) drawRow(row, false);
  rule(doc);
  doc.x = left;
}

/** Right-aligned totals under a table: the last one bold. */
export function totals(doc: Doc, rows: [label: string, value: string][]): void {
  const left = doc.page.margins.left;
  const width = contentWidth(doc);
  rows.forEach(([label, value], i) => {
    doc
      .font(i === rows.length - 1 ? 'Helvetica-Bold' : 'Helvetica')
      .fontSize(10)
      .fillColor('black');
    const y = doc.y;
    doc.text(label, left + width * 0.5, y, { width: width * 0.3 });
    doc.text(value, left + width * 0.8, y, { width: width * 0.2 - 6, align: 'right' });
    doc.y = Math.max(doc.y, y + 14);
  });
  doc.x = left;
  doc.moveDown(1);
}

export function rule(doc: Doc): void {
  const left = doc.page.margins.left;
  doc
    .moveTo(left, doc.y)
    .lineTo(left + contentWidth(doc), doc.y)
    .lineWidth(0.5)
    .strokeColor('#999999')
    .stroke();
  doc.y += 4;
}

export function paragraph(doc: Doc, text: string, options: { bold?: boolean; grey?: boolean } = {}): void {
  doc
    .font(options.bold ? 'Helvetica-Bold' : 'Helvetica')
    .fontSize(10)
    .fillColor(options.grey ? GREY : 'black')
    .text(text, doc.page.margins.left, doc.y, { width: contentWidth(doc) });
  doc.fillColor('black');
}

/**
 * A file name for Content-Disposition from a record's label: no path separators, quotes or control
 * characters, at most 100 characters; accents dropped and anything else outside ASCII letters, digits and
 * ` ._()-` replaced, so every browser reads the plain `filename` (the label itself goes in `filename*`).
 */
export function pdfFileName(label: string | null | undefined, fallback: string): string {
  const clean = safeName(label)
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^A-Za-z0-9 ._()-]+/g, '-')
    .replace(/-{2,}/g, '-')
    .replace(/^[\s.-]+|[\s.-]+$/g, '');
  return `${clean || fallback}.pdf`;
}

/** The label without quotes, slashes and control characters, whitespace collapsed, at most 100 characters. */
function safeName(label: string | null | undefined): string {
  return Array.from(
    (label ?? '')
      .replace(/["'`]/g, '')
      .replace(/[\p{Cc}/\\:*?<>|]+/gu, '-')
      .replace(/\s+/g, ' ')
      .trim(),
  )
    .slice(0, 100)
    .join('')
    .trim();
}

/**
 * The header value for an attachment download: the ASCII name, plus the label as written (RFC 6266
 * `filename*`) when that differs, e.g. for accents.
 */
export function attachment(fileName: string, label?: string | null): string {
  const full = safeName(label).replace(/^[\s.-]+|[\s.-]+$/g, '');
  const plain = `attachment; filename="${fileName}"`;
  if (!full || `${full}.pdf` === fileName) return plain;
  return `${plain}; filename*=UTF-8''${encodeURIComponent(`${full}.pdf`).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)}`;
}
