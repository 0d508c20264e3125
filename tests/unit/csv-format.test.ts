/**
 * The desk's one CSV convention (server/csv/format.ts), read back with a real CSV parser as a spreadsheet
 * with Dutch regional settings reads it: every hostile text comes back as the same one field.
 */
import { describe, expect, it } from 'vitest';
import { csvFile, csvNumber } from '../../server/csv/format.ts';
import { readCsv } from '../csv-read.ts';

describe('the CSV convention', () => {
  it('writes a BOM, ; between fields and CRLF, and every text comes back as one field', async () => {
    const texts = [
      'plain',
      'a; semicolon',
      'a, comma',
      'a "quoted" word',
      'two\r\nlines',
      'a bare\nline feed',
      'ünïcödé € ß',
      '',
      '-01:30',
      '12,50',
    ];
    const file = csvFile(
      ['kolom', 'nummer'],
      texts.map((text, i) => [text, String(i)]),
    );
    const read = await readCsv(file);
    expect(read.bom).toBe(true);
    expect(read.crlf).toBe(true);
    expect(read.rows).toEqual([['kolom', 'nummer'], ...texts.map((text, i) => [text, String(i)])]);
  });

  it('defuses a text a spreadsheet would run as a formula, and leaves numbers and times alone', async () => {
    const texts = ['=SUM(A1)', '+31 20 123', '@risk', '-x', '\tTAB', '-12,5', '-01:30'];
    const read = await readCsv(
      csvFile(
        ['t'],
        texts.map((t) => [t]),
      ),
    );
    expect(read.rows.slice(1).map((r) => r[0])).toEqual([
      "'=SUM(A1)",
      "'+31 20 123",
      "'@risk",
      "'-x",
      "'\tTAB",
      '-12,5',
      '-01:30',
    ]);
  });

  it('writes numbers with the decimal sign of the language and no thousands separator', () => {
    expect(csvNumber(1234.5, 'nl')).toBe('1234,50');
    expect(csvNumber('1234.5', 'de')).toBe('1234,50');
    expect(csvNumber(1234.5, 'en')).toBe('1234.50');
    expect(csvNumber(-0.1, 'nl')).toBe('-0,10');
    expect(csvNumber(null, 'nl')).toBe('');
    expect(csvNumber('', 'en')).toBe('');
  });
});
