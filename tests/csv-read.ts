/**
 * Reads a CSV file back the way a spreadsheet with Dutch regional settings does: UTF-8, fields split at
 * `;`, quoted fields as RFC 4180 says (a real parser, @fast-csv/parse, not a split on the separator).
 * Says whether the file starts with the UTF-8 byte order mark, which Excel needs to read it as UTF-8.
 */
import { parseString } from '@fast-csv/parse';

export interface ReadCsv {
  bom: boolean;
  /** Every line's fields, the header first. */
  rows: string[][];
  /** Whether every line ends in CRLF. */
  crlf: boolean;
}

export async function readCsv(file: Buffer | string, delimiter = ';'): Promise<ReadCsv> {
  const bytes = typeof file === 'string' ? Buffer.from(file, 'utf8') : file;
  const bom = bytes.subarray(0, 3).equals(Buffer.from([0xef, 0xbb, 0xbf]));
  const text = bytes.subarray(bom ? 3 : 0).toString('utf8');
  const rows = await new Promise<string[][]>((resolve, reject) => {
    const out: string[][] = [];
    parseString<string[], string[]>(text, { delimiter, strictColumnHandling: false })
      .on('error', reject)
      .on('data', (row: string[]) => out.push(row))
      .on('end', () => resolve(out));
  });
  // Line ends outside quoted fields: a quoted field may hold a bare LF of its own.
  const unquoted = text.replace(/"(?:[^"]|"")*"/g, '');
  const crlf = !/(^|[^\r])\n/.test(unquoted) && unquoted.endsWith('\r\n');
  return { bom, rows, crlf };
}
