/**
 * GET /api/reports/tickets (issue 36, item 1), around its figures: a ticket followed to its new operator,
 * the filters by operator and line, the breakdown per operator and company, the breaches it counts, the
 * CSV and XLSX files, who may read it and what a bad period answers, on the fixture of ./reports-world.ts.
 * The figures themselves: tests/api/reports-figures.test.ts.
 */
import ExcelJS from 'exceljs';
import qs from 'qs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, targets, type TestApp } from './harness.ts';
import type { BackOffice } from './back-office.ts';
import { at, FIXTURES, reportWorld, type ReportWorld } from './reports-world.ts';

describe.each(targets)('the service report on $name', (target) => {
  let t: TestApp;
  let b: BackOffice;
  let companyId: number;
  let ids: number[];
  let report: ReportWorld['report'];
  let setTimes: ReportWorld['setTimes'];

  beforeAll(async () => {
    t = await buildTestApp(target, { config: { deadlineCheckMs: 0 } });
    ({ b, companyId, ids, report, setTimes } = await reportWorld(t));
  });
  afterAll(() => t?.close());

  it('follows a ticket to its new operator, and filters by operator and by line', async () => {
    const admin = await t.db
      .selectFrom('users')
      .select(['id', 'is_operator'])
      .where('email', '=', 'admin@example.com')
      .executeTakeFirstOrThrow();
    const moved = await t.app.inject({
      method: 'PUT',
      url: `/api/tickets/${ids[0]}`,
      headers: b.admin,
      payload: { operator_id: admin.id },
    });
    expect(moved.statusCode, moved.body).toBe(200);
    // The write measured the clock again from the ticket's history, which has no answer: the fixture's.
    await setTimes(ids[0]!, FIXTURES[0]!);
    const mine = await report({
      from: '2026-11-01',
      to: '2026-11-30',
      company_id: [companyId],
      operator_id: [admin.id],
    });
    expect(mine.json().total).toMatchObject({ created: 1, solved: 1, responded: 1, response_median: 30 });
    // `none`: the tickets nobody has, alone or with an operator's.
    const nobody = { from: '2026-11-01', to: '2026-11-30', company_id: [companyId] };
    expect((await report({ ...nobody, operator_id: ['none'] })).json().total.created).toBe(4);
    expect((await report({ ...nobody, operator_id: ['none', admin.id] })).json().total.created).toBe(5);
    const line = await report({
      from: '2026-11-01',
      to: '2026-11-30',
      company_id: [companyId],
      line: admin.is_operator,
    });
    expect(line.json().total.created).toBe(1);
    const other = await report({
      from: '2026-11-01',
      to: '2026-11-30',
      company_id: [companyId],
      line: admin.is_operator === 1 ? 2 : 1,
    });
    expect(other.json().total.created).toBe(0);
  });

  it("breaks the figures down per operator and per company, each row named, nobody's last", async () => {
    const query = { from: '2026-11-01', to: '2026-11-30', company_id: [companyId] };
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/reports/tickets/breakdown?${qs.stringify({ ...query, by: 'operator_id' })}`,
      headers: b.admin,
    });
    expect(res.statusCode, res.body).toBe(200);
    const { rows, total } = res.json();
    const admin = await t.db
      .selectFrom('users')
      .select(['id', 'full_name'])
      .where('email', '=', 'admin@example.com')
      .executeTakeFirstOrThrow();
    // The first ticket is the admin's (the test before): its figures, then the four nobody has.
    expect(rows.map((r: Record<string, unknown>) => [r.key, r.name, r.created, r.solved, r.backlog])).toEqual(
      [
        [admin.id, admin.full_name, 1, 1, 0],
        [null, null, 4, 3, 2],
      ],
    );
    expect(rows[0]).toMatchObject({ responded: 1, response_median: 30, resolution_median: 300 });
    expect(total).toMatchObject({ created: 5, solved: 4, backlog: 2, reopened: 2, response_median: 30 });
    const company = await t.app.inject({
      method: 'GET',
      url: `/api/reports/tickets/breakdown?${qs.stringify({ ...query, by: 'company_id' })}`,
      headers: b.admin,
    });
    expect(company.json().rows).toEqual([{ key: companyId, name: 'Report BV', ...company.json().total }]);
  });

  it('lists the breaches it counts, the latest first, each target on its own line', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/reports/tickets/breaches?${qs.stringify({ from: '2026-11-01', to: '2026-11-30', company_id: [companyId] })}`,
      headers: b.admin,
    });
    expect(res.statusCode, res.body).toBe(200);
    // The second ticket breached both: its resolution on 10 November, its first response on the 4th.
    expect(res.json()).toEqual({
      total: 2,
      rows: [
        expect.objectContaining({
          ticket_id: ids[1],
          company: 'Report BV',
          target: 'resolution',
          ended: at('2026-11-10T16:00').toISOString(),
        }),
        expect.objectContaining({
          ticket_id: ids[1],
          target: 'first_response',
          ended: at('2026-11-04T09:00').toISOString(),
        }),
      ],
    });
    const october = await t.app.inject({
      method: 'GET',
      url: `/api/reports/tickets/breaches?${qs.stringify({ from: '2026-10-01', to: '2026-10-31', company_id: [companyId] })}`,
      headers: b.admin,
    });
    expect(october.json()).toEqual({ total: 0, rows: [] });
  });

  it('exports a report as CSV and XLSX with headers in the language and typed cells', async () => {
    const query = { from: '2026-10-01', to: '2026-11-30', group: 'month', company_id: [companyId] };
    const file = (format: string, extra: Record<string, unknown> = {}) =>
      t.app.inject({
        method: 'GET',
        url: `/api/reports/tickets/export?${qs.stringify({ ...query, format, ...extra })}`,
        headers: b.admin,
      });
    const csv = await file('csv', { locale: 'nl' });
    expect(csv.statusCode, csv.body).toBe(200);
    expect(csv.headers['content-disposition']).toBe(
      'attachment; filename="report-2026-10-01-2026-11-30.csv"',
    );
    const lines = csv.body
      .replace(/^\uFEFF/, '')
      .trimEnd()
      .split('\r\n')
      .map((l) => l.split(';'));
    expect(lines[0]!.slice(0, 6)).toEqual([
      'Periode',
      'Tot en met',
      'Aangemaakt',
      'Opgelost',
      'Heropend',
      'Open aan het eind',
    ]);
    expect(lines[0]![7]).toBe('Eerste reactie (mediaan) (minuten)');
    // November: ISO dates, plain decimals with the Dutch comma, the share met in whole percents.
    expect(lines[2]!.slice(0, 8)).toEqual(['2026-11-01', '2026-11-30', '5', '4', '2', '2', '3', '30,0']);
    expect(lines[2]![11]).toBe('75');
    expect(lines[3]!.slice(0, 3)).toEqual(['Totaal', '', '6']);

    const xlsx = await file('xlsx', { locale: 'en' });
    expect(xlsx.statusCode, xlsx.body).toBe(200);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(xlsx.rawPayload as unknown as ArrayBuffer);
    const sheet = book.worksheets[0]!;
    expect(sheet.getRow(1).getCell(1).value).toBe('Period');
    expect(sheet.getRow(1).getCell(8).value).toBe('First response (median) (minutes)');
    const november = sheet.getRow(3);
    expect(november.getCell(1).value).toEqual(new Date('2026-11-01T00:00:00Z'));
    expect(november.getCell(1).numFmt).toBe('yyyy-mm-dd');
    expect(november.getCell(3).value).toBe(5);
    expect(november.getCell(9).value).toBe(486);
    expect(november.getCell(12).value).toBe(0.75);
    expect(november.getCell(12).numFmt).toBe('0%');
    expect(sheet.getRow(4).getCell(1).value).toBe('Total');

    // A breakdown's file: the key's label in the language over the names.
    const perCompany = await file('csv', { locale: 'de', by: 'company_id' });
    const rows = perCompany.body
      .replace(/^\uFEFF/, '')
      .trimEnd()
      .split('\r\n')
      .map((l) => l.split(';'));
    expect(rows[0]![0]).toBe('Firma');
    expect(rows[1]!.slice(0, 2)).toEqual(['Report BV', '6']);
  });

  it('is for operators with the reports permission: second line yes, first line and clients no', async () => {
    const query = { from: '2026-11-01', to: '2026-11-30' };
    expect((await report(query, b.admin)).statusCode).toBe(200);
    const operator = await t.as('operator@example.com');
    const client = await t.as('client@example.com');
    for (const path of ['', '/breakdown?by=company_id&', '/breaches?', '/export?format=csv&']) {
      const url = `/api/reports/tickets${path || '?'}from=2026-11-01&to=2026-11-30`;
      expect((await t.app.inject({ method: 'GET', url, headers: operator })).statusCode).toBe(403);
      expect((await t.app.inject({ method: 'GET', url, headers: client })).statusCode).toBe(403);
    }
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/reports/tickets?from=2026-11-01&to=2026-11-30' }))
        .statusCode,
    ).toBe(401);
  });

  it('answers 422 naming what is wrong with the period or a filter', async () => {
    const errors = async (query: Record<string, unknown>) => {
      const res = await report(query);
      expect(res.statusCode, res.body).toBe(422);
      return res.json().errors;
    };
    expect(await errors({ to: '2026-11-30' })).toEqual({ from: ['The from field is required.'] });
    expect(await errors({ from: '2026-11-31', to: '2026-12-01' })).toEqual({
      from: ['The from must be a valid date.'],
    });
    const range = ['The period must end on or after its first day and span at most 1830 days.'];
    expect(await errors({ from: '2026-11-30', to: '2026-11-01' })).toEqual({ to: range });
    expect(await errors({ from: '2016-01-01', to: '2026-11-01' })).toEqual({ to: range });
    expect(await errors({ from: '2026-11-01', to: '2026-11-30', group: 'year' })).toEqual({
      group: ['The selected group is invalid.'],
    });
    expect(Object.keys(await errors({ from: '2026-11-01', to: '2026-11-30', company_id: ['x'] }))).toEqual([
      'company_id',
    ]);
  });
});
