/**
 * The time report's files (GET /api/reports/time/export, issue 36 items 1 and 2): per period and per
 * key, headers in the language asked for, ISO dates and durations as h:mm in the CSV, date and duration
 * cells in the XLSX (read back with ExcelJS). Two registrations of one company, written through the API
 * (rounded up to the demo's 15 minutes).
 */
import ExcelJS from 'exceljs';
import qs from 'qs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, targets, type TestApp } from './harness.ts';
import { backOffice, type BackOffice } from './back-office.ts';
import { statusesByKind } from './sla-world.ts';

const csvLines = (body: string) =>
  body
    .replace(/^\uFEFF/, '')
    .trimEnd()
    .split('\r\n')
    .map((line) => line.split(';'));

describe.each(targets)('the time report’s files on $name', (target) => {
  let t: TestApp;
  let b: BackOffice;
  let company: number;

  const file = (query: Record<string, unknown>, headers = b.admin) =>
    t.app.inject({ method: 'GET', url: `/api/reports/time/export?${qs.stringify(query)}`, headers });

  beforeAll(async () => {
    t = await buildTestApp(target, { config: { deadlineCheckMs: 0 } });
    b = await backOffice(t, []);
    const status = await statusesByKind(t, b.tenantId);
    const post = async (url: string, payload: Record<string, unknown>) => {
      const res = await t.app.inject({ method: 'POST', url, headers: b.admin, payload });
      expect(res.statusCode, res.body).toBe(201);
      return res.json().id as number;
    };
    company = await post('/api/companies', { name: 'Bestand BV' });
    const ticket = await post('/api/tickets', {
      description: 'Werk',
      status_id: status.open,
      company_id: company,
    });
    // 2 November 50 minutes (rounded 60), 3 December 100 minutes (rounded 105).
    for (const [executed_at, time_spent] of [
      ['2026-11-02T09:00:00Z', 50],
      ['2026-12-03T09:00:00Z', 100],
    ] as const)
      await post('/api/time-registrations', {
        ticket_id: ticket,
        executed_at,
        time_spent,
        description: 'Gedaan',
      });
  });
  afterAll(() => t?.close());

  const RANGE = { from: '2026-11-01', to: '2026-12-31', group: 'month' };

  it('writes the report per period as CSV: ISO dates, h:mm, the total last', async () => {
    const res = await file({ ...RANGE, company_id: [company], format: 'csv', locale: 'nl' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe('attachment; filename="time-2026-11-01-2026-12-31.csv"');
    expect(csvLines(res.body)).toEqual([
      [
        'Periode',
        'Tot en met',
        'Bestede tijd',
        'Tijd afgerond',
        'Factureerbaar',
        'Niet factureerbaar',
        'Op contracten',
        'Urenregistraties',
      ],
      ['2026-11-01', '2026-11-30', '00:50', '01:00', '00:00', '01:00', '00:00', '1'],
      ['2026-12-01', '2026-12-31', '01:40', '01:45', '00:00', '01:45', '00:00', '1'],
      ['Totaal', '', '02:30', '02:45', '00:00', '02:45', '00:00', '2'],
    ]);
  });

  it('writes the report per company as XLSX: duration cells in days, a number of registrations', async () => {
    const res = await file({
      ...RANGE,
      company_id: [company],
      by: 'company_id',
      format: 'xlsx',
      locale: 'en',
    });
    expect(res.statusCode, res.body).toBe(200);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const sheet = book.worksheets[0]!;
    expect(sheet.getRow(1).values).toEqual([
      undefined,
      'Company',
      'Time spent',
      'Time rounded',
      'Billable',
      'Not billable',
      'On contracts',
      'Registrations',
    ]);
    const row = sheet.getRow(2);
    expect(row.getCell(1).value).toBe('Bestand BV');
    // ExcelJS reads a number with a time format as a moment after its epoch (30 December 1899).
    const spent = row.getCell(2).value as Date;
    expect((spent.getTime() - Date.UTC(1899, 11, 30)) / 60_000).toBeCloseTo(150, 6);
    expect(row.getCell(2).numFmt).toBe('[h]:mm');
    expect(row.getCell(7).value).toBe(2);
    expect(sheet.getRow(3).getCell(1).value).toBe('Total');
  });

  it('is for operators with the reports permission, and names a wrong format', async () => {
    const query = { ...RANGE, format: 'csv' };
    expect((await file(query, await t.as('operator@example.com'))).statusCode).toBe(403);
    expect((await file(query, await t.as('client@example.com'))).statusCode).toBe(403);
    const wrong = await file({ ...RANGE, format: 'pdf' });
    expect(wrong.statusCode).toBe(422);
    expect(Object.keys(wrong.json().errors)).toEqual(['format']);
  });
});
