/**
 * Scheduled reports (issue 36, item 4), the pass that mails them
 * (server/resources/report-subscriptions/deliver.ts): the previous week on Monday morning and the previous
 * month on the 1st in the desk's zone (Europe/Amsterdam), once per period with two passes racing (two
 * instances on PostgreSQL), only to an operator still allowed, with the XLSX the export route gives for
 * that period or a link to the page with those settings, through the real SMTP server. The routes:
 * tests/api/report-subscriptions-routes.test.ts.
 */
import ExcelJS from 'exceljs';
import qs from 'qs';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSecondInstance, targets, type TestApp } from './harness.ts';
import type { BackOffice } from './back-office.ts';
import type { LoopbackSmtp, ParsedMail } from './smtp.ts';
import { at, ORIGIN, subscriptionWorld, type SubscriptionWorld } from './report-subscriptions-world.ts';
import { sendDueReports } from '../../server/resources/report-subscriptions/deliver.ts';
import { latestPeriod } from '../../server/resources/report-subscriptions/schedule.ts';
import { fileStoreFor } from '../../server/files/store.ts';
import { readSettings } from '../../src/custom/reports/settings.ts';
import type { Db } from '../../server/db/database.ts';

type Attachment = { filename: string; content: Buffer };
const attachmentsOf = (mail: ParsedMail) => (mail as ParsedMail & { attachments: Attachment[] }).attachments;

/** Every row of a workbook's first sheet, as values (date and duration cells as ISO moments). */
async function sheetRows(body: Buffer): Promise<unknown[][]> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(body as unknown as ArrayBuffer);
  const rows: unknown[][] = [];
  workbook.worksheets[0]!.eachRow((row) =>
    rows.push(
      (row.values as unknown[])
        .slice(1)
        .map((v) => (v instanceof Date ? v.toISOString() : v === undefined ? null : v)),
    ),
  );
  return rows;
}

describe('the period a subscription mails', () => {
  it('is the previous ISO week from Monday 06:00 in the desk’s zone, before that the one before', () => {
    // Monday 30 November 2026, 05:59 and 06:00 in Amsterdam.
    expect(latestPeriod('weekly', at('2026-11-30T05:59'))).toMatchObject({
      from: '2026-11-16',
      to: '2026-11-22',
    });
    expect(latestPeriod('weekly', at('2026-11-30T06:00'))).toMatchObject({
      from: '2026-11-23',
      to: '2026-11-29',
    });
    // 23:30 UTC on Sunday is Monday 00:30 in Amsterdam: before 06:00, so still the week before last.
    expect(latestPeriod('weekly', Date.parse('2026-11-29T23:30:00Z')).from).toBe('2026-11-16');
    expect(latestPeriod('weekly', at('2026-11-30T06:00')).end.toISOString()).toBe('2026-11-29T23:00:00.000Z');
  });

  it('is the previous calendar month from the 1st 06:00, across the year too', () => {
    expect(latestPeriod('monthly', at('2026-12-01T05:59'))).toMatchObject({
      from: '2026-10-01',
      to: '2026-10-31',
    });
    expect(latestPeriod('monthly', at('2026-12-01T06:00'))).toMatchObject({
      from: '2026-11-01',
      to: '2026-11-30',
    });
    expect(latestPeriod('monthly', at('2027-01-01T06:00'))).toMatchObject({
      from: '2026-12-01',
      to: '2026-12-31',
    });
  });
});

describe.each(targets)('report subscriptions on $name', (target) => {
  let w: SubscriptionWorld | undefined;
  let t: TestApp;
  let b: BackOffice;
  let smtp: LoopbackSmtp;
  let company: number;
  let subscribe: SubscriptionWorld['subscribe'];

  /** Dates a subscription back, as if made long ago: every period after it is due. */
  const madeLongAgo = (db: Db, id: number) =>
    db
      .updateTable('report_subscriptions')
      .set({ active_since: new Date('2026-01-01T00:00:00Z') })
      .where('id', '=', id)
      .execute();

  const pass = (db: Db, now: number) =>
    sendDueReports({ db, store: fileStoreFor(t.config, db), origin: ORIGIN }, now);

  const outboxFor = (id: number) =>
    t.db
      .selectFrom('mail_outbox')
      .select(['id', 'subject', 'recipients'])
      .where('source', '=', 'report-subscriptions')
      .where('source_id', '=', id)
      .orderBy('id')
      .execute();

  /** Only these subscriptions are due: the others (of earlier tests) are paused. */
  const only = async (...ids: number[]) => {
    await t.db.updateTable('report_subscriptions').set({ paused: true }).execute();
    await t.db.updateTable('report_subscriptions').set({ paused: false }).where('id', 'in', ids).execute();
  };

  beforeAll(async () => {
    w = await subscriptionWorld(target);
    ({ t, b, smtp, company, subscribe } = w);
  });
  afterAll(() => w?.close());

  it('mails the previous week on Monday morning with the export’s XLSX, once', async () => {
    const { id } = await subscribe({
      report: 'time',
      frequency: 'weekly',
      delivery: 'xlsx',
      group: 'day',
      by: 'operator_id',
      filters: { company_id: [company] },
    });
    await madeLongAgo(t.db, id);
    await only(id);
    // Monday 23 November 06:30: the week of 16 to 22 November is mailed, once however often it looks.
    const before = smtp.received.length;
    expect(await pass(t.db, at('2026-11-23T06:30'))).toBe(1);
    expect(await pass(t.db, at('2026-11-23T06:31'))).toBe(0);
    expect(await pass(t.db, at('2026-11-29T23:59'))).toBe(0);
    const rows = await outboxFor(id);
    expect(rows).toHaveLength(1);
    t.app.outbox.wake();
    const mail = await smtp.next(before);
    expect(mail.subject).toMatch(/^Urenrapport: week 47 van 2026 \(16 nov\.? – 22 nov\.? 2026\)$/);
    expect(mail.text).toContain(`${ORIGIN}/reports?tab=time&period=custom&from=2026-11-16&to=2026-11-22`);

    // The two files are those of the export route for that week and those settings, in Dutch.
    const files = attachmentsOf(mail);
    expect(files.map((f) => f.filename)).toEqual([
      'time-2026-11-16-2026-11-22.xlsx',
      'time-operator_id-2026-11-16-2026-11-22.xlsx',
    ]);
    const query = {
      from: '2026-11-16',
      to: '2026-11-22',
      group: 'day',
      company_id: [company],
      format: 'xlsx',
      locale: 'nl',
    };
    for (const [file, by] of [
      [files[0]!, undefined],
      [files[1]!, 'operator_id'],
    ] as const) {
      const exported = await t.app.inject({
        method: 'GET',
        url: `/api/reports/time/export?${qs.stringify({ ...query, ...(by ? { by } : {}) })}`,
        headers: b.admin,
      });
      expect(exported.statusCode, exported.body).toBe(200);
      expect(await sheetRows(file.content)).toEqual(await sheetRows(exported.rawPayload));
    }
    // Tuesday's 50 and Sunday's 20 minutes (00:30 on Monday in Amsterdam is the next week's): 70, a
    // duration cell, which ExcelJS reads as a moment after Excel's day zero.
    const total = (await sheetRows(files[0]!.content)).at(-1)!;
    expect(total[0]).toBe('Totaal');
    expect((Date.parse(String(total[2])) - Date.parse('1899-12-30T00:00:00Z')) / 60_000).toBeCloseTo(70, 3);
  });

  it('mails the previous month on the 1st with a link to the page with its settings', async () => {
    const { id } = await subscribe({
      report: 'tickets',
      frequency: 'monthly',
      delivery: 'link',
      group: 'week',
      line: 2,
      by: 'company_id',
      filters: { company_id: [company, 'none'] },
    });
    await madeLongAgo(t.db, id);
    await only(id);
    await t.db
      .insertInto('user_configs')
      .values({
        tenant_id: b.tenantId,
        user_id: sql<number>`(select id from users where email = 'admin@example.com')`,
        name: 'language',
        value: '"en"',
      })
      .execute();
    const before = smtp.received.length;
    // 1 December 05:59 in Amsterdam is still October's turn; 06:00 November's.
    expect(await pass(t.db, at('2026-12-01T05:59'))).toBe(1);
    expect(await pass(t.db, at('2026-12-01T06:00'))).toBe(1);
    expect(await pass(t.db, at('2026-12-15T12:00'))).toBe(0);
    expect((await outboxFor(id)).map((r) => r.subject)).toEqual([
      'Service report: October 2026',
      'Service report: November 2026',
    ]);
    t.app.outbox.wake();
    const mails = [await smtp.next(before), await smtp.next(before + 1)];
    const november = mails.find((m) => m.subject === 'Service report: November 2026')!;
    expect(attachmentsOf(november) ?? []).toEqual([]);
    const link = /https:\/\/\S+/.exec(november.text ?? '')![0];
    const url = new URL(link);
    expect(`${url.origin}${url.pathname}`).toBe(`${ORIGIN}/reports`);
    // The page reads the address as the subscription's report over November.
    expect(readSettings(url.searchParams, new Date(2026, 11, 3))).toMatchObject({
      tab: 'tickets',
      preset: 'custom',
      custom: { from: '2026-11-01', to: '2026-11-30' },
      group: 'week',
      line: '2',
      by: 'company_id',
      filters: { company_id: [company, null] },
    });
  });

  it('sends nothing to an operator who lost the reports’ permission or was archived, nor when paused', async () => {
    const { id } = await subscribe(
      {
        report: 'tickets',
        frequency: 'weekly',
        delivery: 'link',
        group: 'week',
        by: 'operator_id',
        filters: {},
      },
      b.limited,
    );
    await madeLongAgo(t.db, id);
    await only(id);
    const limitedRole = sql<number>`(select role_id from users where email = 'limited@example.com')`;
    const reportsPermission = sql<number>`(select id from permissions where name = 'tenant.reports.index')`;
    await t.db
      .deleteFrom('permission_role')
      .where('role_id', '=', limitedRole)
      .where('permission_id', '=', reportsPermission)
      .execute();
    expect(await pass(t.db, at('2026-11-23T07:00'))).toBe(0);
    await t.db
      .insertInto('permission_role')
      .values({ role_id: limitedRole, permission_id: reportsPermission })
      .execute();
    await t.db
      .updateTable('users')
      .set({ archived_at: new Date() })
      .where('email', '=', 'limited@example.com')
      .execute();
    expect(await pass(t.db, at('2026-11-23T07:00'))).toBe(0);
    await t.db
      .updateTable('users')
      .set({ archived_at: null })
      .where('email', '=', 'limited@example.com')
      .execute();
    await t.db.updateTable('report_subscriptions').set({ paused: true }).where('id', '=', id).execute();
    expect(await pass(t.db, at('2026-11-23T07:00'))).toBe(0);
    expect(await outboxFor(id)).toEqual([]);
    // Allowed and active again: the week is mailed (to the operator's own address).
    await t.db.updateTable('report_subscriptions').set({ paused: false }).where('id', '=', id).execute();
    expect(await pass(t.db, at('2026-11-23T07:00'))).toBe(1);
    expect((await outboxFor(id)).map((r) => r.recipients)).toEqual(['limited@example.com']);
  });

  it('does not mail a period that ended before it was made or resumed; after a long outage, the latest once', async () => {
    const { id } = await subscribe({
      report: 'tickets',
      frequency: 'weekly',
      delivery: 'link',
      group: 'week',
      by: 'operator_id',
      filters: {},
    });
    await only(id);
    await t.db
      .updateTable('report_subscriptions')
      .set({ active_since: new Date(at('2026-11-25T10:00')) })
      .where('id', '=', id)
      .execute();
    // Made on Wednesday 25 November: that week's mail comes on Monday 30, not the week before's.
    expect(await pass(t.db, at('2026-11-25T11:00'))).toBe(0);
    // Down from then until Tuesday 15 December: only the week of 7 December is mailed.
    expect(await pass(t.db, at('2026-12-15T09:00'))).toBe(1);
    expect(await pass(t.db, at('2026-12-15T09:05'))).toBe(0);
    const periods = await t.db
      .selectFrom('report_deliveries')
      .select('period_start')
      .where('subscription_id', '=', id)
      .execute();
    expect(periods.map((p) => p.period_start)).toEqual(['2026-12-07']);
  });

  it('mails each subscription once when two passes race', async () => {
    const ids: number[] = [];
    for (let i = 0; i < 6; i++) {
      const { id } = await subscribe({
        report: i % 2 ? 'time' : 'tickets',
        frequency: 'weekly',
        delivery: i % 3 ? 'link' : 'xlsx',
        group: 'week',
        by: 'operator_id',
        filters: {},
      });
      await madeLongAgo(t.db, id);
      ids.push(id);
    }
    await only(...ids);
    const now = at('2026-11-30T08:00');
    // On PostgreSQL a second instance on the same database, each pass on its own connections.
    const second = t.connection ? await buildSecondInstance(t) : undefined;
    try {
      const sent = await Promise.all([pass(t.db, now), pass(second?.db ?? t.db, now), pass(t.db, now)]);
      expect(sent.reduce((a, n) => a + n, 0)).toBe(ids.length);
      for (const id of ids) expect(await outboxFor(id), `subscription ${id}`).toHaveLength(1);
    } finally {
      await second?.close();
    }
  });
});
