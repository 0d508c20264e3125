/**
 * GET /api/reports/tickets (issue 36, item 1): each figure against a fixture computed by hand: tickets
 * of one company with their moments and minutes set, over October and November 2026 by month and by
 * week, plus who may read it and what a bad period answers. The minutes themselves (business time under
 * a calendar, pauses, reopenings) are the clock's: tests/api/sla-ticket-clock.test.ts.
 */
import ExcelJS from 'exceljs';
import qs from 'qs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, targets, type TestApp } from './harness.ts';
import { backOffice, type BackOffice } from './back-office.ts';
import { statusesByKind } from './sla-world.ts';

/** A moment on Amsterdam's wall clock in October or November 2026 (UTC+1). */
const at = (local: string) => new Date(`${local}:00+01:00`);

interface Fixture {
  created: string;
  answered?: [at: string, minutes: number, state: 'met' | 'breached'];
  /** Solved: when, minutes open, and the first response's state if it was never answered. */
  solved?: [at: string, minutes: number, state: 'met' | 'breached', unanswered?: 'met' | 'breached'];
  /** When it was opened again after an earlier solving. */
  reopened?: string[];
}

const FIXTURES: Fixture[] = [
  {
    created: '2026-11-02T10:00',
    answered: ['2026-11-02T10:30', 30, 'met'],
    solved: ['2026-11-03T12:00', 300, 'met'],
  },
  {
    created: '2026-11-02T12:00',
    answered: ['2026-11-04T09:00', 600, 'breached'],
    solved: ['2026-11-10T16:00', 2000, 'breached'],
    reopened: ['2026-11-06T10:00', '2026-11-09T10:00'],
  },
  { created: '2026-11-10T09:00', answered: ['2026-11-10T09:10', 10, 'met'] },
  { created: '2026-11-20T09:00', solved: ['2026-11-21T09:00', 60, 'met', 'met'] },
  {
    created: '2026-10-30T09:00',
    answered: ['2026-10-30T09:45', 45, 'met'],
    solved: ['2026-11-05T09:00', 120, 'met'],
    reopened: ['2026-10-31T12:00'],
  },
  { created: '2026-11-25T09:00' },
];

describe.each(targets)('the service report on $name', (target) => {
  let t: TestApp;
  let b: BackOffice;
  let companyId: number;
  let clientId: number;
  let ids: number[];

  const report = (query: Record<string, unknown>, headers = b.admin) =>
    t.app.inject({ method: 'GET', url: `/api/reports/tickets?${qs.stringify(query)}`, headers });

  beforeAll(async () => {
    t = await buildTestApp(target, { config: { deadlineCheckMs: 0 } });
    b = await backOffice(t, []);
    const status = await statusesByKind(t, b.tenantId);
    const company = await t.app.inject({
      method: 'POST',
      url: '/api/companies',
      headers: b.admin,
      payload: { name: 'Report BV' },
    });
    companyId = company.json().id;
    const client = await t.app.inject({
      method: 'POST',
      url: '/api/clients',
      headers: b.admin,
      payload: { first_name: 'Rita', last_name: 'Reported' },
    });
    expect(client.statusCode, client.body).toBe(201);
    clientId = client.json().id;
    ids = [];
    for (const f of FIXTURES) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/tickets',
        headers: b.admin,
        // All but the last asked by the client: the client filter reads the tickets, not the daily figures.
        payload: {
          description: 'Reported',
          status_id: status.open,
          company_id: companyId,
          client_id: f === FIXTURES.at(-1) ? null : clientId,
        },
      });
      expect(res.statusCode, res.body).toBe(201);
      const id = res.json().id as number;
      ids.push(id);
      await setTimes(id, f);
    }
  });
  afterAll(() => t?.close());

  /** The moments and minutes the clock would have stored (the trigger keeps the figures). */
  async function setTimes(id: number, f: Fixture) {
    await t.db
      .updateTable('tickets')
      .set({
        created_at: at(f.created),
        first_response_at: f.answered ? at(f.answered[0]) : null,
        first_response_minutes: f.answered?.[1] ?? null,
        first_response_state: f.answered?.[2] ?? f.solved?.[3] ?? 'running',
        resolved_at: f.solved ? at(f.solved[0]) : null,
        resolution_minutes: f.solved?.[1] ?? null,
        resolution_state: f.solved?.[2] ?? 'running',
        reopened_at: (f.reopened ?? []).map(at),
      })
      .where('id', '=', id)
      .execute();
  }

  it('says each figure of October and November by month, as computed by hand', async () => {
    const res = await report({
      from: '2026-10-01',
      to: '2026-11-30',
      group: 'month',
      company_id: [companyId],
    });
    expect(res.statusCode, res.body).toBe(200);
    const { rows, total } = res.json();
    expect(rows.map((r: { period: string; from: string; to: string }) => [r.period, r.from, r.to])).toEqual([
      ['2026-10-01', '2026-10-01', '2026-10-31'],
      ['2026-11-01', '2026-11-01', '2026-11-30'],
    ]);
    expect(rows[0]).toMatchObject({
      created: 1,
      solved: 0,
      backlog: 1,
      responded: 1,
      response_minutes: 45,
      response_median: 45,
      response_p90: 45,
      response_met: 1,
      response_breached: 0,
      resolution_timed: 0,
      resolution_median: null,
      reopened: 1,
    });
    expect(rows[1]).toEqual({
      period: '2026-11-01',
      from: '2026-11-01',
      to: '2026-11-30',
      created: 5,
      solved: 4,
      backlog: 2,
      // Answered in November: 30, 600 and 10 minutes.
      responded: 3,
      response_minutes: 640,
      response_median: 30,
      response_p90: 486, // 30 + 0.8 × (600 − 30)
      // The unanswered ticket solved in time counts as met on the day it was solved.
      response_met: 3,
      response_breached: 1,
      // Solved in November: 300, 2000, 60 and 120 minutes.
      resolution_timed: 4,
      resolution_minutes: 2480,
      resolution_median: 210, // (120 + 300) / 2
      resolution_p90: 1490, // 300 + 0.7 × (2000 − 300)
      resolution_met: 3,
      resolution_breached: 1,
      // The second ticket was reopened twice.
      reopened: 2,
    });
    expect(total).toMatchObject({
      created: 6,
      solved: 4,
      backlog: 2,
      responded: 4,
      response_minutes: 685,
      response_median: 37.5, // (30 + 45) / 2
      resolution_median: 210,
      reopened: 3,
    });
  });

  it('says the same figures for the client who asked, from their tickets', async () => {
    const query = { from: '2026-10-01', to: '2026-11-30', group: 'month' };
    const [byCompany, byClient] = await Promise.all([
      report({ ...query, company_id: [companyId] }),
      report({ ...query, client_id: [clientId] }),
    ]);
    expect(byClient.statusCode, byClient.body).toBe(200);
    const { rows, total } = byClient.json();
    // The last fixture (created 25 November, open) was asked by nobody: one created and one open less.
    const less = (figures: Record<string, unknown>) => ({
      ...figures,
      created: (figures.created as number) - 1,
      backlog: (figures.backlog as number) - 1,
    });
    expect(rows).toEqual([byCompany.json().rows[0], less(byCompany.json().rows[1])]);
    expect(total).toEqual(less(byCompany.json().total));
    // With the company as well, and per operator: the same tickets.
    const both = await report({ ...query, client_id: [clientId], company_id: [companyId] });
    expect(both.json().total).toEqual(total);
    const perOperator = await t.app.inject({
      method: 'GET',
      url: `/api/reports/tickets/breakdown?${qs.stringify({ ...query, client_id: [clientId], by: 'operator_id' })}`,
      headers: b.admin,
    });
    expect(perOperator.statusCode, perOperator.body).toBe(200);
    expect(perOperator.json().total).toEqual(total);
    // Another tenant's or nobody's client: nothing.
    const other = await report({ ...query, client_id: [clientId + 100000] });
    expect(other.json().total).toMatchObject({ created: 0, solved: 0, backlog: 0, response_median: null });
  });

  it('says the same for the whole desk as for every company and none (the desk’s own daily figures)', async () => {
    const companies = await t.db
      .selectFrom('companies')
      .select('id')
      .where('tenant_id', '=', b.tenantId)
      .execute();
    const query = { from: '2026-10-01', to: '2026-12-31', group: 'week' };
    const [desk, every] = await Promise.all([
      report(query),
      report({ ...query, company_id: [...companies.map((c) => c.id), 'none'] }),
    ]);
    expect(desk.statusCode, desk.body).toBe(200);
    expect(desk.json().total.created).toBeGreaterThanOrEqual(FIXTURES.length);
    expect(desk.json()).toEqual(every.json());
  });

  it('by week, clipped to the period, each week from its Monday', async () => {
    const res = await report({
      from: '2026-11-01',
      to: '2026-11-10',
      group: 'week',
      company_id: [companyId],
    });
    expect(res.statusCode, res.body).toBe(200);
    const rows = res.json().rows as Record<string, unknown>[];
    const figures = ['period', 'from', 'to', 'created', 'responded', 'solved', 'backlog', 'reopened'];
    expect(rows.map((r) => figures.map((f) => r[f]))).toEqual([
      // The week of Monday 26 October: only its Sunday is in the period.
      ['2026-10-26', '2026-11-01', '2026-11-01', 0, 0, 0, 1, 0],
      ['2026-11-02', '2026-11-02', '2026-11-08', 2, 2, 2, 1, 1],
      ['2026-11-09', '2026-11-09', '2026-11-10', 1, 1, 1, 1, 1],
    ]);
  });

  it('counts what the ticket list shows for the same filter (the drill-down)', async () => {
    const res = await report({ from: '2026-11-01', to: '2026-11-30', company_id: [companyId] });
    const list = await t.app.inject({
      method: 'GET',
      url: `/api/tickets?${qs.stringify({
        builder: [
          { where: ['company_id', '=', companyId] },
          {
            whereBetween: [
              'created_at',
              [at('2026-11-01T00:00').toISOString(), at('2026-11-30T23:59').toISOString()],
            ],
          },
        ],
      })}`,
      headers: b.admin,
    });
    expect(list.statusCode, list.body).toBe(200);
    expect(list.json().total).toBe(res.json().total.created);
  });

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
