/**
 * Low-balance alerts (issue 39, item 2; server/reports/balance-alerts.ts): when a contract's current
 * period falls below its threshold and again when it is used up, each client whose company role sees the contract (admin, finance) gets one
 * mail (in their language, with the link to the portal's upgrade form) and each operator a notification,
 * exactly once per period and level with two instances at once; hours bought re-arm the alert. And the
 * ticket detail's balance (GET /api/tickets/{id}/contract-balance) in the caller's scope.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSecondInstance, buildTestApp, targets, type TestApp } from './harness.ts';
import { backOffice, type BackOffice } from './back-office.ts';
import { sendBalanceAlerts } from '../../server/reports/balance-alerts.ts';
import { waitFor } from './processes.ts';
import { recipients as recipientsOf, startSmtp, type LoopbackSmtp } from './smtp.ts';

const TOTAL = 600;

describe.each(targets)('low-balance alerts on $name', (target) => {
  let t: TestApp;
  let b: BackOffice;
  let contractId: number;
  let periodId: number;
  let ticketId: number;
  let otherTicketId: number;
  let recipients: string[];
  let smtp: LoopbackSmtp;

  /** Both instances look at once (PGlite: the one instance twice); answers how many alerts were told. */
  async function lookTwice(): Promise<number> {
    const second = target.url ? await buildSecondInstance(t) : t;
    try {
      const [a, c] = await Promise.all([
        sendBalanceAlerts(t.db, Date.now(), { origin: 'https://desk.example' }),
        sendBalanceAlerts(second.db, Date.now(), { origin: 'https://desk.example' }),
      ]);
      return a + c;
    } finally {
      if (second !== t) await second.close();
    }
  }

  const mails = () =>
    t.db
      .selectFrom('mail_outbox')
      .select(['recipients', 'subject'])
      .where('source', '=', 'balance_alert')
      .where('source_id', '=', periodId)
      .orderBy('id')
      .execute();
  const subjectsTo = async (email: string) =>
    (await mails()).filter((m) => m.recipients === email).map((m) => m.subject);
  const notificationsOf = (email: string) =>
    t.db
      .selectFrom('notifications as n')
      .innerJoin('users as u', 'u.id', 'n.user_id')
      .select(['n.kind', 'n.text'])
      .where('u.email', '=', email)
      .where('n.kind', 'in', ['balance_low', 'balance_empty'])
      .where('n.text', 'like', 'Strippenkaart saldo%')
      .orderBy('n.id')
      .execute();
  const book = async (minutes: number) => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/time-registrations',
      headers: b.admin,
      payload: {
        ticket_id: ticketId,
        contract_period_id: periodId,
        time_spent: minutes,
        executed_at: '2026-06-02T10:00:00.000Z',
      },
    });
    expect(res.statusCode, res.body).toBe(201);
    return Number(res.json().id);
  };

  beforeAll(async () => {
    smtp = await startSmtp();
    t = await buildTestApp(target, { config: { deadlineCheckMs: 0, smtpUrl: smtp.url } });
    b = await backOffice(t, []);
    const contract = await t.db
      .insertInto('contracts')
      .values({
        tenant_id: b.tenantId,
        name: 'Strippenkaart saldo',
        period: 'none',
        quantity: 10,
        minutes_remaining: TOTAL,
        start_date: '2026-01-01',
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    contractId = Number(contract.id);
    await t.db
      .insertInto('company_contract')
      .values({ company_id: b.ownCompanyId, contract_id: contractId })
      .execute();
    periodId = Number(
      (
        await t.db
          .insertInto('contract_periods')
          .values({
            tenant_id: b.tenantId,
            contract_id: contractId,
            period_start: '2026-01-01',
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
    const ticket = (companyId: number) =>
      t.db
        .insertInto('tickets')
        .values({ tenant_id: b.tenantId, company_id: companyId, status_id: status.id, description: 'Saldo' })
        .returning('id')
        .executeTakeFirstOrThrow();
    ticketId = Number((await ticket(b.ownCompanyId)).id);
    otherTicketId = Number((await ticket(b.otherCompanyId)).id);
    // The client of the company reads English; the alert must come in it.
    await t.app.inject({
      method: 'POST',
      url: '/api/auth/me',
      headers: b.client,
      payload: { relationships: { configs: [{ name: 'language', value: 'en' }] } },
    });
    // A deactivated client of the company: no mail for them.
    const gone = await t.db
      .insertInto('users')
      .values({
        tenant_id: b.tenantId,
        first_name: 'Oud',
        last_name: 'Medewerker',
        email: 'gone@example.com',
        archived_at: new Date(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await t.db
      .insertInto('company_user')
      .values({ tenant_id: b.tenantId, company_id: b.ownCompanyId, user_id: gone.id })
      .execute();
    // A finance client of the company: told, as the company admin is; Lotte, a member, is not.
    const finance = await t.db
      .selectFrom('company_roles')
      .select('id')
      .where('tenant_id', '=', b.tenantId)
      .where('name_en', '=', 'Finance')
      .executeTakeFirstOrThrow();
    const treasurer = await t.db
      .insertInto('users')
      .values({ tenant_id: b.tenantId, first_name: 'Fenna', last_name: 'Geld', email: 'finance@example.com' })
      .returning('id')
      .executeTakeFirstOrThrow();
    await t.db
      .insertInto('company_user')
      .values({
        tenant_id: b.tenantId,
        company_id: b.ownCompanyId,
        user_id: treasurer.id,
        company_role_id: finance.id,
      })
      .execute();
    recipients = ['client@example.com', 'finance@example.com'];
    // The demo's own contracts are told (or not) first: what follows counts this contract alone.
    await sendBalanceAlerts(t.db);
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  it('tells nothing while the balance is above the threshold', async () => {
    await book(60 * 7); // 7 of 10 hours used: 3 remain, 30 % > 20 %
    expect(await lookTwice()).toBe(0);
    expect(await mails()).toEqual([]);
  });

  it('below the threshold: one mail per client and one notification per operator, with two instances', async () => {
    await book(60 * 2); // 9 of 10 used: 1 hour remains, 10 % < 20 %
    expect(await lookTwice()).toBe(1);
    expect(await lookTwice()).toBe(0);
    expect(await subjectsTo('lotte.smit@jansenbv.nl')).toEqual([]);
    expect(await subjectsTo('other@example.com')).toEqual([]);
    expect(recipients).not.toContain('gone@example.com');
    expect(await subjectsTo('gone@example.com')).toEqual([]);
    const sent = await mails();
    expect(sent.map((m) => m.recipients).sort()).toEqual(recipients);
    expect(await subjectsTo('client@example.com')).toEqual([
      'The hours of Strippenkaart saldo are running low',
    ]);
    // Through the outbox to a real SMTP server: the mail as the client reads it.
    t.app.outbox.wake();
    await waitFor('the mail to the client sent', async () =>
      smtp.received.some((m) => recipientsOf(m) === 'client@example.com'),
    );
    const body = smtp.received.find((m) => recipientsOf(m) === 'client@example.com')!.text!;
    expect(body).toContain('Period 01-01-2026 – open end: 9:00 of 10:00 hours used, 1:00 hours remaining.');
    expect(body).toContain(`https://desk.example/app/contracts/${contractId}?upgrade=1`);
    expect(await notificationsOf('admin@example.com')).toEqual([
      { kind: 'balance_low', text: 'Strippenkaart saldo: 01:00 / 10:00' },
    ]);
    expect(await notificationsOf('client@example.com')).toEqual([]);
  });

  it('used up: one more mail each, once', async () => {
    await book(60);
    expect(await lookTwice()).toBe(1);
    expect(await lookTwice()).toBe(0);
    expect(await subjectsTo('client@example.com')).toEqual([
      'The hours of Strippenkaart saldo are running low',
      'The hours of Strippenkaart saldo are used up',
    ]);
    expect((await mails()).length).toBe(recipients.length * 2);
    expect((await notificationsOf('admin@example.com')).map((n) => n.kind)).toEqual([
      'balance_low',
      'balance_empty',
    ]);
  });

  it('hours bought re-arm the alerts: falling below again tells again; straight to empty tells empty only', async () => {
    const card = await t.db
      .selectFrom('prepaid_cards')
      .select(['id', 'hours'])
      .where('tenant_id', '=', b.tenantId)
      .where('description', '=', 'Strippenkaart 10 uur')
      .executeTakeFirstOrThrow();
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/contracts/${contractId}/buy`,
      headers: b.client,
      payload: { prepaid_card_id: Number(card.id) },
    });
    expect(res.statusCode, res.body).toBe(200);
    // 20 hours in the period now, 10 remaining: above the threshold, both levels forgotten.
    expect(await lookTwice()).toBe(0);
    expect(
      await t.db
        .selectFrom('balance_alerts')
        .select('level')
        .where('contract_period_id', '=', periodId)
        .execute(),
    ).toEqual([]);
    await book(60 * 10); // all 20 used at once
    expect(await lookTwice()).toBe(1);
    expect(await subjectsTo('client@example.com')).toEqual([
      'The hours of Strippenkaart saldo are running low',
      'The hours of Strippenkaart saldo are used up',
      'The hours of Strippenkaart saldo are used up',
    ]);
    const levels = await t.db
      .selectFrom('balance_alerts')
      .select('level')
      .where('contract_period_id', '=', periodId)
      .orderBy('level')
      .execute();
    expect(levels.map((l) => l.level)).toEqual(['empty', 'low']);
  });

  it('the threshold is set per contract in the back office, 0 to 100', async () => {
    const put = (value: unknown) =>
      t.app.inject({
        method: 'PUT',
        url: `/api/contracts/${contractId}`,
        headers: b.admin,
        payload: { balance_threshold: value },
      });
    const bad = await put(101);
    expect(bad.statusCode).toBe(422);
    expect(Object.keys(bad.json().errors)).toEqual(['balance_threshold']);
    const ok = await put(50);
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().balance_threshold).toBe(50);
    const created = await t.db
      .selectFrom('contracts')
      .select('balance_threshold')
      .where('name', '=', 'Strippenkaart saldo')
      .executeTakeFirstOrThrow();
    expect(created.balance_threshold).toBe(50);
  });

  it("the ticket detail's balance: the company's contracts in the caller's scope", async () => {
    const get = (id: number, headers: Record<string, string>) =>
      t.app.inject({ method: 'GET', url: `/api/tickets/${id}/contract-balance`, headers });
    const mine = await get(ticketId, b.client);
    expect(mine.statusCode, mine.body).toBe(200);
    const row = (mine.json().data as { contract_id: number }[]).find((r) => r.contract_id === contractId);
    expect(row).toMatchObject({
      contract_name: 'Strippenkaart saldo',
      prepaid: true,
      balance_threshold: 50,
      period_id: periodId,
      minutes_total: 2 * TOTAL,
      registered_time: 2 * TOTAL,
      minutes_remaining: 0,
      level: 'empty',
    });
    expect((await get(otherTicketId, b.client)).statusCode).toBe(404);
    const operator = await get(otherTicketId, b.admin);
    expect(operator.statusCode).toBe(200);
    expect((operator.json().data as { contract_id: number }[]).map((r) => r.contract_id)).not.toContain(
      contractId,
    );
  });
});
