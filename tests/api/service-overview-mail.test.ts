/**
 * The monthly service overview mail (issue 36, item 3; server/reports/service-overview-mail.ts): the
 * previous month in the desk's zone at the month's boundary, once per client and month however many
 * passes and instances run, only to clients who opted in before the month, hold the permission, are
 * not deactivated and whose company role sees the company's tickets (not a member), in their language, with the figures of ./service-overview-world.ts, through the
 * outbox to a real SMTP server.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSecondInstance, buildTestApp, targets, type TestApp } from './harness.ts';
import { waitFor } from './processes.ts';
import { startSmtp, type LoopbackSmtp } from './smtp.ts';
import { newClient, overviewWorld, type OverviewWorld } from './service-overview-world.ts';
import { sendServiceOverviews } from '../../server/reports/service-overview-mail.ts';
import { SERVICE_OVERVIEW_MAIL_CONFIG, SERVICE_OVERVIEW_PERMISSION } from '../../common/service-overview.ts';

/** The last minute of 30 November and the first of 1 December 2026 in Amsterdam (UTC+1). */
const NOV_30_2359 = Date.parse('2026-11-30T22:59:00Z');
const DEC_1_0000 = Date.parse('2026-11-30T23:00:00Z');
/** Half an hour into 1 January 2027 in Amsterdam. */
const JAN_1_0030 = Date.parse('2026-12-31T23:30:00Z');
/** When the opt-ins were set: in October, before every month the tests send. */
const OPTED_IN = new Date('2026-10-15T12:00:00Z');

describe.each(targets)('the monthly service overview mail on $name', (target) => {
  let t: TestApp;
  let w: OverviewWorld;
  let smtp: LoopbackSmtp;

  const mailsTo = (email: string) =>
    t.db
      .selectFrom('mail_outbox')
      .select(['subject', 'mail'])
      .where('source', '=', 'service_overview')
      .where('recipients', '=', email)
      .orderBy('id')
      .execute();

  /** Opts `email` in (or out) through the portal's own call, then dates the choice `when`. */
  async function optIn(email: string, value: boolean, language?: string, when = OPTED_IN) {
    const headers = await t.as(email);
    const configs: { name: string; value: unknown }[] = [{ name: SERVICE_OVERVIEW_MAIL_CONFIG, value }];
    if (language) configs.push({ name: 'language', value: language });
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/me',
      headers,
      payload: { relationships: { configs } },
    });
    expect(res.statusCode, res.body).toBe(200);
    await t.db
      .updateTable('user_configs')
      .set({ updated_at: when })
      .where('name', '=', SERVICE_OVERVIEW_MAIL_CONFIG)
      .where('user_id', '=', (eb) => eb.selectFrom('users').select('id').where('email', '=', email))
      .execute();
  }

  beforeAll(async () => {
    smtp = await startSmtp();
    t = await buildTestApp(target, { config: { deadlineCheckMs: 0, smtpUrl: smtp.url } });
    w = await overviewWorld(t);
    // November's own period of a contract of A, whatever month the tests run in.
    const contract = await t.db
      .insertInto('contracts')
      .values({ tenant_id: w.tenantId, name: 'Beheer November', period: 'month', start_date: '2026-01-01' })
      .returning('id')
      .executeTakeFirstOrThrow();
    await t.db
      .insertInto('company_contract')
      .values({ contract_id: contract.id, company_id: w.companies.A })
      .execute();
    await t.db
      .insertInto('contract_periods')
      .values({
        tenant_id: w.tenantId,
        contract_id: contract.id,
        period_start: '2026-11-01',
        period_end: '2026-11-30',
        minutes_total: 600,
        registered_time: 540,
        minutes_remaining: 60,
      })
      .execute();
    await optIn(w.clientEmail, true, 'en');
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  it("sends the previous month in the desk's zone, once, with its figures, in the client's language", async () => {
    // 23:59 on 30 November in Amsterdam (UTC says the same day either way): October's overview.
    expect(await sendServiceOverviews(t.db, NOV_30_2359)).toBe(1);
    expect(await sendServiceOverviews(t.db, NOV_30_2359)).toBe(0);
    // A minute later it is 1 December there: November's.
    expect(await sendServiceOverviews(t.db, DEC_1_0000, { origin: 'https://desk.example' })).toBe(1);
    expect(await sendServiceOverviews(t.db, DEC_1_0000)).toBe(0);
    const rows = await mailsTo(w.clientEmail);
    expect(rows.map((r) => r.subject)).toEqual([
      'Service overview October 2026',
      'Service overview November 2026',
    ]);
    const keys = await t.db
      .selectFrom('service_overview_mails')
      .select(sql<string>`to_char(month, 'YYYY-MM-DD')`.as('month'))
      .where('user_id', '=', w.clientId)
      .orderBy('month')
      .execute();
    expect(keys.map((k) => k.month)).toEqual(['2026-10-01', '2026-11-01']);

    // Through the outbox to the SMTP server: November's mail as the client reads it.
    t.app.outbox.wake();
    await waitFor(
      'both mails sent',
      async () => smtp.received.filter((m) => m.subject?.startsWith('Service overview')).length >= 2,
    );
    const november = smtp.received.find((m) => m.subject === 'Service overview November 2026')!;
    const lines = november.text!.split('\n');
    const english = await t.db
      .selectFrom('priorities')
      .select(['id', sql<string>`coalesce(label_en, label)`.as('label')])
      .where('id', 'in', [w.priorities.P1.id, w.priorities.P2.id])
      .execute();
    const label = (id: number) => english.find((p) => Number(p.id) === id)!.label;
    expect(lines[0]).toBe('The service overview of November 2026 for Alfa Overzicht BV, Beta Overzicht BV.');
    // Answered in November: 600 and 10 minutes; solved: 2000 and 60; outcomes as the page says them.
    expect(lines).toEqual(
      expect.arrayContaining([
        'Tickets opened: 3',
        'Tickets solved: 2',
        'Median first response (business time): 5:05',
        'Median resolution time (business time): 17:10',
        'First response within the SLA target: 1 of 2 (50%)',
        'Resolution within the SLA target: 0 of 1 (0%)',
        `- ${label(w.priorities.P1.id)}: 0:30 / 4:00`,
        `- ${label(w.priorities.P2.id)}: 1:00 / 8:00`,
        '- Beheer November (2026-11-01 – 2026-11-30): 9:00 / 1:00',
        '- Strippenkaart Beta (prepaid card): 5:00 / 15:00',
        'The whole overview in the portal: https://desk.example/app/service-overview',
      ]),
    );
    expect(november.text).not.toContain('Omega');
    const october = smtp.received.find((m) => m.subject === 'Service overview October 2026')!;
    expect(october.text).toContain(
      'Tickets opened: 1\nTickets solved: 1\nMedian first response (business time): 0:30',
    );
  });

  it('leaves out clients who opted out, opted in after the month began, lost the permission or were deactivated', async () => {
    const role = await t.db
      .insertInto('roles')
      .values({ tenant_id: w.tenantId, name: 'Klant zonder mail', is_operator: false })
      .returning('id')
      .executeTakeFirstOrThrow();
    await t.db
      .insertInto('permission_role')
      .columns(['role_id', 'permission_id'])
      .expression((eb) =>
        eb
          .selectFrom('permissions')
          .select([eb.val(role.id).as('role_id'), 'id'])
          .where('name', 'like', 'portal.%')
          .where('name', '!=', SERVICE_OVERVIEW_PERMISSION),
      )
      .execute();
    const emails = {
      out: 'uit@example.com',
      late: 'laat@example.com',
      unpermitted: 'geen-recht@example.com',
      archived: 'gearchiveerd@example.com',
      dutch: 'nederlands@example.com',
      member: 'lid@example.com',
    };
    for (const email of Object.values(emails))
      await newClient(
        t,
        w.tenantId,
        email,
        [w.companies.A],
        email === emails.unpermitted ? Number(role.id) : undefined,
      );
    await optIn(emails.out, true);
    await optIn(emails.out, false);
    await optIn(emails.late, true, undefined, new Date(DEC_1_0000 + 60_000));
    await optIn(emails.unpermitted, true);
    await optIn(emails.archived, true);
    await optIn(emails.dutch, true);
    await optIn(emails.member, true);
    // A member's role sees her own tickets only (issue 39): the company's figures are not hers.
    await t.db
      .updateTable('company_user')
      .set((eb) => ({
        company_role_id: eb
          .selectFrom('company_roles')
          .select('id')
          .where('tenant_id', '=', w.tenantId)
          .where('is_default', '=', true)
          .where('grants_all', '=', false),
      }))
      .where('user_id', '=', (eb) => eb.selectFrom('users').select('id').where('email', '=', emails.member))
      .execute();
    await t.db
      .updateTable('users')
      .set({ archived_at: new Date() })
      .where('email', '=', emails.archived)
      .execute();

    expect(await sendServiceOverviews(t.db, DEC_1_0000)).toBe(1);
    for (const email of [emails.out, emails.late, emails.unpermitted, emails.archived, emails.member])
      expect(await mailsTo(email), email).toEqual([]);
    // Without a language of their own: Dutch, the portal's default.
    const [dutch] = await mailsTo(emails.dutch);
    expect(dutch!.subject).toBe('Serviceoverzicht november 2026');
    const queued = (typeof dutch!.mail === 'string' ? JSON.parse(dutch!.mail) : dutch!.mail) as {
      text: string;
    };
    expect(queued.text).toContain('Tickets geopend: 1\nTickets opgelost: 1');
  });

  it('sends each client one mail a month with two instances at once', async () => {
    const second = target.url ? await buildSecondInstance(t) : t;
    try {
      const [a, b] = await Promise.all([
        sendServiceOverviews(t.db, JAN_1_0030),
        sendServiceOverviews(second.db, JAN_1_0030),
      ]);
      // The main client, the Dutch one and the one who opted in on 1 December: each queued by exactly
      // one of the two.
      expect(a + b).toBe(3);
      const december = await t.db
        .selectFrom('service_overview_mails')
        .select(({ fn }) => fn.countAll<number>().as('n'))
        .where('month', '=', '2026-12-01')
        .executeTakeFirstOrThrow();
      // And the member's month, claimed without a mail so that later passes leave her be.
      expect(Number(december.n)).toBe(4);
      expect(await mailsTo('lid@example.com')).toEqual([]);
      expect((await mailsTo(w.clientEmail)).map((r) => r.subject)).toEqual([
        'Service overview October 2026',
        'Service overview November 2026',
        'Service overview December 2026',
      ]);
    } finally {
      if (second !== t) await second.close();
    }
  });
});
