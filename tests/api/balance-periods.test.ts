/**
 * Low-balance alerts of a contract with periods (issue 39, item 2), beside the prepaid card of
 * tests/api/balance-alerts.test.ts: a monthly contract made through the API gets the default threshold
 * of 20 %, the alert fires only once less than 20 % of the month's hours remain (not at 21 %, not at
 * exactly 20 %), its mail asks the client to get in touch instead of offering to buy (such a contract is
 * not bought in the portal) and links the contract's page, and the ticket's balance answer says it is no
 * prepaid card.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, targets, type TestApp } from './harness.ts';
import { backOffice, type BackOffice } from './back-office.ts';
import { sendBalanceAlerts } from '../../server/reports/balance-alerts.ts';
import { DEFAULT_BALANCE_THRESHOLD } from '../../common/balance.ts';
import { waitFor } from './processes.ts';
import { startSmtp, type LoopbackSmtp } from './smtp.ts';

/** 100 hours a month: whole quarters of an hour (the demo rounds up to 15 minutes) land on the percentages. */
const HOURS = 100;
const TOTAL = HOURS * 60;
const ORIGIN = 'https://desk.example';

describe.each(targets)('balance of a contract with periods on $name', (target) => {
  let t: TestApp;
  let b: BackOffice;
  let contractId: number;
  let periodId: number;
  let ticketId: number;
  let smtp: LoopbackSmtp;

  const look = () => sendBalanceAlerts(t.db, Date.now(), { origin: ORIGIN });
  const mails = () =>
    t.db
      .selectFrom('mail_outbox')
      .select(['recipients', 'subject'])
      .where('source', '=', 'balance_alert')
      .where('source_id', '=', periodId)
      .orderBy('id')
      .execute();
  /** The mail with this subject as the client's mail server received it (the outbox clears a sent body). */
  const received = async (subject: string) => {
    t.app.outbox.wake();
    await waitFor(`the mail "${subject}" sent`, async () => smtp.received.some((m) => m.subject === subject));
    return smtp.received.find((m) => m.subject === subject)!.text!;
  };
  const book = async (minutes: number) => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/time-registrations',
      headers: b.admin,
      payload: {
        ticket_id: ticketId,
        contract_period_id: periodId,
        time_spent: minutes,
        executed_at: '2026-12-02T10:00:00.000Z',
      },
    });
    expect(res.statusCode, res.body).toBe(201);
  };

  beforeAll(async () => {
    smtp = await startSmtp();
    t = await buildTestApp(target, { config: { deadlineCheckMs: 0, smtpUrl: smtp.url } });
    b = await backOffice(t, []);
    // Made as an operator makes it, without a threshold: the default is the 20 %.
    const made = await t.app.inject({
      method: 'POST',
      url: '/api/contracts',
      headers: b.admin,
      payload: { name: 'Maandcontract saldo', period: 'month', quantity: HOURS, start_date: '2026-01-01' },
    });
    expect(made.statusCode, made.body).toBe(201);
    contractId = Number(made.json().id);
    expect(made.json().balance_threshold).toBe(20);
    await t.db
      .insertInto('company_contract')
      .values({ company_id: b.ownCompanyId, contract_id: contractId })
      .execute();
    // Two months: the latest is the current one, which the alert and the balance read.
    for (const [start, end] of [
      ['2026-11-01', '2026-11-30'],
      ['2026-12-01', '2026-12-31'],
    ] as const)
      periodId = Number(
        (
          await t.db
            .insertInto('contract_periods')
            .values({
              tenant_id: b.tenantId,
              contract_id: contractId,
              period_start: start,
              period_end: end,
              minutes_total: TOTAL,
              minutes_remaining: TOTAL,
            })
            .returning('id')
            .executeTakeFirstOrThrow()
        ).id,
      );
    const status = await t.db
      .selectFrom('ticket_statuses')
      .select('id')
      .where('tenant_id', '=', b.tenantId)
      .orderBy('id')
      .executeTakeFirstOrThrow();
    ticketId = Number(
      (
        await t.db
          .insertInto('tickets')
          .values({
            tenant_id: b.tenantId,
            company_id: b.ownCompanyId,
            status_id: status.id,
            description: 'Maandsaldo',
          })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id,
    );
    await t.app.inject({
      method: 'POST',
      url: '/api/auth/me',
      headers: b.client,
      payload: { relationships: { configs: [{ name: 'language', value: 'en' }] } },
    });
    // The demo's own contracts are told (or not) first: what follows counts this contract alone.
    await sendBalanceAlerts(t.db);
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  it('the default threshold is the shared constant, and a prepaid card made without one gets it too', async () => {
    expect(DEFAULT_BALANCE_THRESHOLD).toBe(20);
    const card = await t.app.inject({
      method: 'POST',
      url: '/api/contracts',
      headers: b.admin,
      payload: { name: 'Kaart zonder drempel', period: 'none', quantity: 10, start_date: '2026-01-01' },
    });
    expect(card.statusCode, card.body).toBe(201);
    expect(card.json().balance_threshold).toBe(DEFAULT_BALANCE_THRESHOLD);
  });

  it('21 % and exactly 20 % left tell nothing; just under 20 % tells once', async () => {
    await book(TOTAL - 1260); // 1260 of 6000 minutes left: 21 %
    expect(await look()).toBe(0);
    await book(60); // 1200 left: 20 %, not below it
    expect(await look()).toBe(0);
    expect(await mails()).toEqual([]);
    await book(15); // 1185 left: 19.75 %
    expect(await look()).toBe(1);
    expect(await look()).toBe(0);
    expect((await mails()).map((m) => m.recipients)).toEqual(['client@example.com']);
  });

  it('the mail asks to get in touch and links the contract page, not the upgrade form', async () => {
    const body = await received('The hours of Maandcontract saldo are running low');
    expect(body).toContain(
      'Period 01-12-2026 – 31-12-2026: 80:15 of 100:00 hours used, 19:45 hours remaining.',
    );
    expect(body).toContain('Less than 20% of the hours remain.');
    expect(body).toContain(
      `Get in touch with us for more hours; the contract in the portal: ${ORIGIN}/app/contracts/${contractId}`,
    );
    expect(body).not.toContain('?upgrade=1');
    expect(body).not.toContain('Buy more hours');
  });

  it("the ticket's balance answer: the current month, no prepaid card, low", async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/tickets/${ticketId}/contract-balance`,
      headers: b.client,
    });
    expect(res.statusCode, res.body).toBe(200);
    const row = (res.json().data as { contract_id: number }[]).find((r) => r.contract_id === contractId);
    expect(row).toEqual({
      contract_id: contractId,
      contract_name: 'Maandcontract saldo',
      prepaid: false,
      balance_threshold: 20,
      period_id: periodId,
      period_start: '2026-12-01',
      period_end: '2026-12-31',
      minutes_total: TOTAL,
      registered_time: TOTAL - 1185,
      minutes_remaining: 1185,
      level: 'low',
    });
  });

  it('used up: the empty mail, again with the way to get in touch', async () => {
    await book(1185);
    expect(await look()).toBe(1);
    const sent = await mails();
    expect(sent.map((m) => m.subject)).toEqual([
      'The hours of Maandcontract saldo are running low',
      'The hours of Maandcontract saldo are used up',
    ]);
    const body = await received('The hours of Maandcontract saldo are used up');
    expect(body).toContain('All hours of this period are used.');
    expect(body).toContain(
      `Get in touch with us for more hours; the contract in the portal: ${ORIGIN}/app/contracts/${contractId}`,
    );
  });
});
