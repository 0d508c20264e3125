/**
 * Exports (SPEC 2, 6, 7; issue 6): POST /api/exports answers at once, a background job writes the
 * whole filtered list (every page) as CSV and XLSX, the user downloads it and gets a mail; nobody else
 * can download it; a job survives the app being closed and is finished by the next app on the database.
 */
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../server/app.ts';
import { configFromEnv } from '../../server/config.ts';
import { registry } from '../../server/schema/registry.ts';
import { buildTestApp, targets, type TestApp } from './harness.ts';
import { backOffice, type BackOffice } from './back-office.ts';
import { startSmtp, type LoopbackSmtp } from './smtp.ts';

const ROWS = 130; // more than the largest page (100) of the list, and more than one of the worker's pages
const MARK = `Exporttest-${randomBytes(3).toString('hex')}`;

/** The three columns the list screen shows in this test, with the headers it shows above them. */
const COLUMNS = [
  { name: 'id', label: 'ID' },
  { name: 'description', label: 'Omschrijving' },
  { name: 'company_id', label: 'Bedrijf' },
];
const FILTER = [{ orderBy: ['id', 'asc'] }, { where: ['description', 'like', MARK] }];

describe.each(targets)('exports on $name', (target) => {
  let t: TestApp;
  let b: BackOffice;
  let smtp: LoopbackSmtp;
  let adminId: number;
  let ticketIds: number[];

  const post = (headers: Record<string, string>, payload: object, extra: Record<string, string> = {}) =>
    t.app.inject({ method: 'POST', url: '/api/exports', headers: { ...headers, ...extra }, payload });
  const get = (url: string, headers: Record<string, string>) => t.app.inject({ method: 'GET', url, headers });
  const jobCount = async () =>
    Number((await sql<{ n: number }>`select count(*)::int as n from export_jobs`.execute(t.db)).rows[0]!.n);

  /** Waits until the newest job of the caller is finished; answers it as GET /api/exports shows it. */
  async function finished(headers: Record<string, string>, app: FastifyInstance = t.app) {
    const deadline = Date.now() + 20_000;
    for (;;) {
      const res = await app.inject({ method: 'GET', url: '/api/exports', headers });
      expect(res.statusCode).toBe(200);
      const job = res.json().data[0];
      if (job && (job.status === 'done' || job.status === 'failed')) return job;
      if (Date.now() > deadline) throw new Error(`export not finished: ${JSON.stringify(job)}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  beforeAll(async () => {
    smtp = await startSmtp();
    t = await buildTestApp(target, { config: { smtpUrl: smtp.url } });
    b = await backOffice(t, ['tenant.exports.index']);
    adminId = Number(
      (
        await t.db
          .selectFrom('users')
          .select('id')
          .where('email', '=', 'admin@example.com')
          .executeTakeFirstOrThrow()
      ).id,
    );
    const status = await t.db
      .selectFrom('ticket_statuses')
      .select('id')
      .where('tenant_id', '=', b.tenantId)
      .executeTakeFirstOrThrow();
    const rows = await t.db
      .insertInto('tickets')
      .values(
        Array.from({ length: ROWS }, (_, i) => ({
          tenant_id: b.tenantId,
          company_id: b.ownCompanyId,
          status_id: status.id,
          description: `${MARK} nummer ${i + 1}; "met" puntkomma`,
        })),
      )
      .returning('id')
      .execute();
    ticketIds = rows.map((r) => Number(r.id)).sort((x, y) => x - y);
    // Not in the filter: another tenant's ticket with the same words must never show up either.
    const otherStatus = await t.db
      .insertInto('ticket_statuses')
      .values({ tenant_id: b.otherTenantId, name: 'Open', name_client: 'Open', internal_type: 1 })
      .returning('id')
      .executeTakeFirstOrThrow();
    const otherCompany = await t.db
      .insertInto('companies')
      .values({ tenant_id: b.otherTenantId, name: 'Ander bedrijf' })
      .returning('id')
      .executeTakeFirstOrThrow();
    await t.db
      .insertInto('tickets')
      .values({
        tenant_id: b.otherTenantId,
        company_id: otherCompany.id,
        status_id: otherStatus.id,
        description: `${MARK} van een andere tenant`,
      })
      .execute();
  }, 120_000);

  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  it('refuses a caller without exports.index (403) and a client (403), and queues nothing', async () => {
    const before = await jobCount();
    const body = { model: 'tickets', filter: FILTER };
    const limitedId = Number(
      (
        await t.db
          .selectFrom('users')
          .select('id')
          .where('email', '=', 'limited@example.com')
          .executeTakeFirstOrThrow()
      ).id,
    );
    expect((await post(b.limited, { ...body, userId: limitedId })).statusCode).toBe(403);
    expect((await post(b.client, { ...body, userId: 1 })).statusCode).toBe(403);
    expect((await get('/api/exports', b.limited)).statusCode).toBe(403);
    expect(await jobCount()).toBe(before);
  });

  it('answers 422 for an unknown model, a bad filter, a bad column or another user, before queueing', async () => {
    const before = await jobCount();
    const cases: [object, string][] = [
      [{ userId: adminId, model: 'nope', filter: [] }, 'model'],
      [{ userId: adminId, model: 'tickets', filter: [{ where: ['password', '=', 'x'] }] }, 'filter.0'],
      [{ userId: adminId, model: 'tickets', filter: [{ where: ['id', 'like', 'x'] }] }, 'filter.0'],
      [{ userId: adminId, model: 'tickets', filter: [], columns: ['nope'] }, 'columns.0'],
      [{ userId: adminId + 1000, model: 'tickets', filter: [] }, 'userId'],
    ];
    for (const [payload, key] of cases) {
      const res = await post(b.admin, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(422);
      expect(Object.keys(res.json().errors), JSON.stringify(payload)).toContain(key);
    }
    expect(await jobCount()).toBe(before);
  });

  it('says the exact 422 of a body that is no object, an unknown field or another user', async () => {
    const before = await jobCount();
    const yourself = { userId: ['You can only export for yourself.'] };
    const cases: [unknown, Record<string, string[]>][] = [
      [['tickets'], { body: ['The body must be an object {userId, model, filter}.'] }],
      [
        { userId: adminId, model: 'tickets', filter: [], extra: 1, other: 2 },
        { extra: ['Unknown field.'], other: ['Unknown field.'] },
      ],
      [{ userId: adminId + 1000, model: 'tickets', filter: [] }, yourself],
      [{ model: 'tickets', filter: [] }, yourself],
    ];
    for (const [payload, errors] of cases) {
      const res = await post(b.admin, payload as object);
      expect(res.statusCode, JSON.stringify(payload)).toBe(422);
      expect(res.json()).toEqual({ message: Object.values(errors)[0]![0], errors });
    }
    expect(await jobCount()).toBe(before);
  });

  it('answers the message at once, writes every filtered row in CSV and XLSX, and mails a link', async () => {
    const mails = smtp.received.length;
    const res = await post(b.admin, { userId: adminId, model: 'tickets', filter: FILTER, columns: COLUMNS });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      message:
        'De export is gestart. Je krijgt een e-mail zodra het bestand klaarstaat; je vindt het ook onder Exports.',
    });

    const job = await finished(b.admin);
    expect(job).toMatchObject({ model: 'tickets', status: 'done', row_count: ROWS });

    const csv = await get(job.csv_url, b.admin);
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(csv.headers['content-disposition']).toMatch(
      /^attachment; filename="tickets-\d{4}-\d{2}-\d{2}-\d+\.csv"$/,
    );
    expect(csv.rawPayload.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
    const lines = csv.body.replace(/^\uFEFF/, '').split('\r\n');
    expect(lines.at(-1)).toBe('');
    expect(lines[0]).toBe('ID;Omschrijving;Bedrijf');
    const expected = ticketIds.map((id, i) => `${id};"${MARK} nummer ${i + 1}; ""met"" puntkomma";Jansen BV`);
    expect(lines.slice(1, -1)).toEqual(expected);

    const xlsx = await get(job.xlsx_url, b.admin);
    expect(xlsx.statusCode).toBe(200);
    expect(xlsx.headers['content-disposition']).toMatch(/\.xlsx"$/);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(xlsx.rawPayload as unknown as ArrayBuffer);
    const sheet = book.worksheets[0]!;
    const values: unknown[][] = [];
    sheet.eachRow((row) => values.push((row.values as unknown[]).slice(1)));
    expect(values[0]).toEqual(['ID', 'Omschrijving', 'Bedrijf']);
    expect(values.slice(1)).toEqual(
      ticketIds.map((id, i) => [id, `${MARK} nummer ${i + 1}; "met" puntkomma`, 'Jansen BV']),
    );

    const mail = await smtp.next(mails);
    expect(mail.subject).toBe('Je export staat klaar');
    expect(mail.text).toContain(`(${ROWS} regels)`);
    expect(mail.text).toMatch(/http:\/\/[^\s]+\/exports\n/);
  });

  it('uses the language asked for, and the list columns when none are sent', async () => {
    const res = await post(b.admin, { userId: adminId, model: 'tickets', filter: FILTER, locale: 'en' });
    expect(res.json().message).toMatch(/^The export has started\./);
    const german = await post(
      b.admin,
      { userId: adminId, model: 'companies', filter: [{ where: ['name', 'like', 'Jansen'] }] },
      { 'accept-language': 'de-DE,de;q=0.9,en;q=0.8' },
    );
    expect(german.json().message).toMatch(/^Der Export wurde gestartet\./);
    const job = await finished(b.admin);
    expect(job.model).toBe('companies');
    const header = (await get(job.csv_url, b.admin)).body.replace(/^\uFEFF/, '').split('\r\n')[0]!;
    // The list's columns under their labels in the export's language (German, from Accept-Language).
    expect(header.split(';')).toContain(registry().get('companies')!.labels.de!.fields!.name);
  });

  it('writes dates, moments, durations and numbers to compute with, under the labels of the language', async () => {
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/time-registrations',
      headers: b.admin,
      // Summer: 12:30 UTC is 14:30 in Amsterdam; 95 minutes.
      payload: { executed_at: '2026-07-01T12:30:00Z', time_spent: 95, description: 'Typed export' },
    });
    expect(created.statusCode, created.body).toBe(201);
    const contract = await t.app.inject({
      method: 'POST',
      url: '/api/contracts',
      headers: b.admin,
      payload: { name: 'Typed export', period: 'month', quantity: 12.5, start_date: '2026-03-29' },
    });
    expect(contract.statusCode, contract.body).toBe(201);
    const exported = async (model: string, id: number, columns: string[], locale: string) => {
      const res = await post(b.admin, {
        userId: adminId,
        model,
        filter: [{ where: ['id', '=', id] }],
        columns,
        locale,
      });
      expect(res.statusCode, res.body).toBe(200);
      const job = await finished(b.admin);
      expect(job.status).toBe('done');
      const csv = (await get(job.csv_url, b.admin)).body.replace(/^\uFEFF/, '').split('\r\n');
      const book = new ExcelJS.Workbook();
      await book.xlsx.load((await get(job.xlsx_url, b.admin)).rawPayload as unknown as ArrayBuffer);
      return { csv, row: book.worksheets[0]!.getRow(2) };
    };

    const time = await exported('time-registrations', created.json().id, ['executed_at', 'time_spent'], 'en');
    expect(time.csv.slice(0, 2)).toEqual(['Executed at;Time spent', '2026-07-01 14:30;01:35']);
    // A date cell of the wall clock and a duration cell of 95 minutes, each with its format.
    expect(time.row.getCell(1).value).toEqual(new Date('2026-07-01T14:30:00Z'));
    expect(time.row.getCell(1).numFmt).toBe('yyyy-mm-dd hh:mm');
    // ExcelJS reads a number with a time format as a moment after its epoch (30 December 1899).
    const duration = time.row.getCell(2).value as Date;
    expect((duration.getTime() - Date.UTC(1899, 11, 30)) / 60_000).toBeCloseTo(95, 6);
    expect(time.row.getCell(2).numFmt).toBe('[h]:mm');

    const nl = await exported('contracts', contract.json().id, ['start_date', 'quantity', 'period'], 'nl');
    // A decimal comma in Dutch, a plain ISO date, the enumeration's Dutch label; the amount a number cell.
    const month = registry().enums.contractPeriods!['x-i18n']!.nl!.month;
    expect(nl.csv[1]).toBe(`2026-03-29;12,5;${month}`);
    expect(nl.row.getCell(1).value).toEqual(new Date('2026-03-29T00:00:00Z'));
    expect(nl.row.getCell(1).numFmt).toBe('yyyy-mm-dd');
    expect(nl.row.getCell(2).value).toBe(12.5);
    const en = await exported('contracts', contract.json().id, ['quantity'], 'en');
    expect(en.csv[1]).toBe('12.5');
  });

  it('lets nobody but its user download a job (404), and answers 404 for a job that is not done', async () => {
    const job = (await get('/api/exports', b.admin)).json().data.find((j: any) => j.status === 'done');
    const operator = await t.as('operator@example.com');
    expect((await get(job.csv_url, operator)).statusCode).toBe(404);
    expect((await get(job.xlsx_url, operator)).statusCode).toBe(404);
    expect((await get(`/api/exports/${job.id}/pdf`, b.admin)).statusCode).toBe(404);
    expect((await get('/api/exports', operator)).json().data.map((j: any) => j.id)).not.toContain(job.id);
    const pending = await t.db
      .insertInto('export_jobs')
      .values({
        tenant_id: b.tenantId,
        user_id: adminId,
        model: 'tickets',
        origin: 'http://x',
        status: 'failed',
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    expect((await get(`/api/exports/${pending.id}/csv`, b.admin)).statusCode).toBe(404);
  });

  it('finishes after a restart: a job queued before the app closed, and one whose worker died', async () => {
    const config = {
      ...configFromEnv({}),
      dataDir: join(tmpdir(), `sd-export-restart-${randomBytes(4).toString('hex')}`),
      jwtSecret: `restart-${randomBytes(8).toString('hex')}`,
    };
    // The first app queues a job but runs none (its worker is off) and is closed.
    const first = await buildApp({ db: t.db, registry: registry(), config, exports: { enabled: false } });
    await first.ready();
    const login = await first.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { username: 'operator@example.com', password: 'demo' },
    });
    const operator = { authorization: `Bearer ${login.json().access_token}` };
    const operatorId = Number(login.json().user.id);
    const queued = await first.inject({
      method: 'POST',
      url: '/api/exports',
      headers: operator,
      payload: { userId: operatorId, model: 'tickets', filter: FILTER, columns: COLUMNS },
    });
    expect(queued.statusCode).toBe(200);
    const [job] = (await first.inject({ method: 'GET', url: '/api/exports', headers: operator })).json().data;
    expect(job.status).toBe('queued');
    // A job another process was running when it died: its lease ran out.
    const orphan = await t.db
      .insertInto('export_jobs')
      .values({
        tenant_id: b.tenantId,
        user_id: operatorId,
        model: 'tickets',
        filter: JSON.stringify(FILTER),
        columns: JSON.stringify(COLUMNS.slice(0, 1)),
        origin: 'http://localhost',
        status: 'running',
        attempts: 1,
        locked_until: sql`now() - interval '1 minute'`,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await first.close();
    expect(
      (
        await t.db
          .selectFrom('export_jobs')
          .select('status')
          .where('id', '=', job.id)
          .executeTakeFirstOrThrow()
      ).status,
    ).toBe('queued');

    // The next app on the same database finishes both.
    const second = await buildApp({ db: t.db, registry: registry(), config, exports: { pageSize: 50 } });
    await second.ready();
    try {
      const deadline = Date.now() + 20_000;
      let rows: { id: number; status: string; row_count: number | null }[] = [];
      while (Date.now() < deadline) {
        rows = await t.db
          .selectFrom('export_jobs')
          .select(['id', 'status', 'row_count'])
          .where('id', 'in', [job.id, orphan.id])
          .execute();
        if (rows.every((r) => r.status === 'done')) break;
        await new Promise((r) => setTimeout(r, 50));
      }
      expect(rows.map((r) => [Number(r.id), r.status, Number(r.row_count)]).sort()).toEqual(
        [
          [job.id, 'done', ROWS],
          [Number(orphan.id), 'done', ROWS],
        ].sort(),
      );
      const done = (await second.inject({ method: 'GET', url: '/api/exports', headers: operator })).json()
        .data;
      const file = await second.inject({
        method: 'GET',
        url: done.find((j: any) => j.id === job.id).csv_url,
        headers: operator,
      });
      expect(file.statusCode).toBe(200);
      expect(file.body.split('\r\n')).toHaveLength(ROWS + 2);
    } finally {
      await second.close();
      rmSync(config.dataDir, { recursive: true, force: true });
    }
  }, 60_000);
});
