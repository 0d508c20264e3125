/**
 * Satisfaction surveys (issue 39, item 3): resolving a ticket mails its client a survey whose links work
 * without a login, once, for 30 days; a forged or altered link opens nothing; one survey per ticket,
 * also with two instances on one database; opted-out clients and other ticket types get none; a bad
 * rating shows on the ticket and in its history and tells the operator.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { buildSecondInstance, buildTestApp, targets, type TestApp } from './harness.ts';
import type { Db } from '../../server/db/database.ts';
import { surveysOnStatusChange } from '../../server/resources/satisfaction-surveys/send.ts';

const ADMIN = 'admin@example.com';
const CLIENT = 'client@example.com';
const ORIGIN = 'http://survey.test';
const LINK = new RegExp(`${ORIGIN}/app/survey/([A-Za-z0-9_-]{43})\\?rating=(\\d)`, 'g');

describe.each(targets)('satisfaction surveys on $name', (target) => {
  let t: TestApp;
  let tenantId: number;
  let clientId: number;
  let companyId: number;
  let adminId: number;
  let openStatus: number;
  let closedStatus: number;
  let serial = 0;

  beforeAll(async () => {
    t = await buildTestApp(target, { config: { publicUrl: ORIGIN } });
    const client = await t.db
      .selectFrom('users')
      .innerJoin('company_user', 'company_user.user_id', 'users.id')
      .select(['users.id', 'users.tenant_id', 'company_user.company_id'])
      .where('users.email', '=', CLIENT)
      .executeTakeFirstOrThrow();
    [clientId, tenantId, companyId] = [Number(client.id), client.tenant_id, Number(client.company_id)];
    const admin = await t.db
      .selectFrom('users')
      .select('id')
      .where('email', '=', ADMIN)
      .executeTakeFirstOrThrow();
    adminId = Number(admin.id);
    const status = async (type: number) =>
      Number(
        (
          await t.db
            .selectFrom('ticket_statuses')
            .select('id')
            .where('tenant_id', '=', tenantId)
            .where('internal_type', '=', type)
            .orderBy('order')
            .orderBy('id')
            .executeTakeFirstOrThrow()
        ).id,
      );
    [openStatus, closedStatus] = [await status(1), await status(2)];
    await setting('satisfaction_survey', 'on');
  });
  afterAll(() => t?.close());

  async function setting(name: string, value: string | null) {
    await t.db
      .deleteFrom('tenant_configs')
      .where('tenant_id', '=', tenantId)
      .where('name', '=', name)
      .execute();
    if (value !== null)
      await t.db.insertInto('tenant_configs').values({ tenant_id: tenantId, name, value }).execute();
  }

  async function makeTicket(options: { typeId?: number | null } = {}): Promise<number> {
    serial += 1;
    const row = await t.db
      .insertInto('tickets')
      .values({
        tenant_id: tenantId,
        reference: `SURVEY-${serial}`,
        description: `Printer ${serial} doet het niet`,
        status_id: openStatus,
        company_id: companyId,
        client_id: clientId,
        operator_id: adminId,
        ticket_type_id: options.typeId ?? null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return Number(row.id);
  }

  const close = async (id: number) => {
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/tickets/${id}/close`,
      headers: await t.as(ADMIN),
      payload: {},
    });
    expect(res.statusCode, res.body).toBe(200);
  };

  /** The survey mails queued for the ticket's survey, with the links they hold. */
  async function surveyMails(db: Db, ticketId: number) {
    const rows = await db
      .selectFrom('mail_outbox as m')
      .innerJoin('satisfaction_surveys as s', (j) => j.onRef('s.id', '=', 'm.source_id'))
      .select(['m.mail', 'm.recipients'])
      .where('m.source', '=', 'satisfaction-surveys')
      .where('s.ticket_id', '=', ticketId)
      .execute();
    return rows.map((r) => {
      const mail = (typeof r.mail === 'string' ? JSON.parse(r.mail) : r.mail) as {
        text: string;
        subject: string;
        html: string;
      };
      const links = [...mail.text.matchAll(LINK)].map((m) => ({ token: m[1]!, rating: Number(m[2]) }));
      return { ...mail, recipients: r.recipients, links };
    });
  }

  const view = (token: string) => t.app.inject({ method: 'GET', url: `/api/surveys/${token}` });
  const rate = (token: string, payload: object) =>
    t.app.inject({ method: 'POST', url: `/api/surveys/${token}`, payload });

  it('mails the client one link per rating on resolving; the link works without a login, once', async () => {
    const id = await makeTicket();
    await close(id);
    const [mail, ...more] = await surveyMails(t.db, id);
    expect(more).toHaveLength(0);
    expect(mail!.recipients).toBe(CLIENT);
    expect(mail!.subject).toBe(`Hoe hebben we ticket SURVEY-${serial} opgelost?`);
    expect(mail!.links.map((l) => l.rating)).toEqual([3, 2, 1]);
    const token = mail!.links[0]!.token;
    expect(new Set(mail!.links.map((l) => l.token)).size).toBe(1);

    // No Authorization header anywhere below.
    const shown = await view(token);
    expect(shown.statusCode, shown.body).toBe(200);
    expect(shown.json()).toMatchObject({
      reference: `SURVEY-${serial}`,
      scale: 3,
      rated: false,
      rating: null,
    });
    // Looking changes nothing (a mail scanner's fetch rates nothing).
    expect((await view(token)).json().rated).toBe(false);

    const rated = await rate(token, { rating: 1, comment: 'Duurde lang' });
    expect(rated.statusCode, rated.body).toBe(200);
    expect(rated.json()).toMatchObject({ rated: true, rating: 1 });

    const again = await rate(token, { rating: 3 });
    expect(again.statusCode).toBe(422);
    expect(again.json()).toEqual({
      message: 'This survey has already been answered.',
      errors: { token: ['This survey has already been answered.'] },
    });
    const stored = await t.db
      .selectFrom('satisfaction_surveys')
      .select(['rating', 'sentiment', 'comment'])
      .where('ticket_id', '=', id)
      .executeTakeFirstOrThrow();
    expect(stored).toEqual({ rating: 1, sentiment: 'bad', comment: 'Duurde lang' });

    // On the ticket, in its history (by its client), and the operator told.
    const ticket = await t.app.inject({
      method: 'GET',
      url: `/api/tickets/${id}`,
      headers: await t.as(ADMIN),
    });
    expect(ticket.json().satisfaction).toBe('bad');
    const history = await t.db
      .selectFrom('ticket_changes')
      .select(['field', 'to_value', 'to_label', 'user_id'])
      .where('ticket_id', '=', id)
      .where('field', '=', 'satisfaction')
      .execute();
    expect(history).toEqual([
      { field: 'satisfaction', to_value: 'bad', to_label: 'Slecht', user_id: clientId },
    ]);
    const told = await t.db
      .selectFrom('notifications')
      .select('user_id')
      .where('ticket_id', '=', id)
      .where('kind', '=', 'survey_bad')
      .execute();
    expect(told.map((n) => Number(n.user_id))).toContain(adminId);
  });

  it('refuses a forged or altered link with 404, and a rating off the scale with 422', async () => {
    const id = await makeTicket();
    await close(id);
    const token = (await surveyMails(t.db, id))[0]!.links[0]!.token;
    const altered = (token[0] === 'A' ? 'B' : 'A') + token.slice(1);
    for (const bad of [altered, token.slice(0, -1), 'x'.repeat(43)]) {
      expect((await view(bad)).statusCode).toBe(404);
      const res = await rate(bad, { rating: 3 });
      expect(res.statusCode).toBe(404);
      expect(res.json().message).toBe('This survey link is invalid or has expired.');
    }
    expect((await view('not/a/token')).statusCode).toBe(404);
    const off = await rate(token, { rating: 4 });
    expect(off.statusCode).toBe(422);
    expect(off.json().errors).toEqual({ rating: ['Choose one of the ratings of this survey.'] });
    expect((await rate(token, { rating: 'good' })).statusCode).toBe(422);
    // Still unanswered after all that.
    expect((await view(token)).json().rated).toBe(false);
  });

  it('expires after 30 days', async () => {
    const id = await makeTicket();
    await close(id);
    const token = (await surveyMails(t.db, id))[0]!.links[0]!.token;
    const survey = await t.db
      .selectFrom('satisfaction_surveys')
      .select(['sent_at', 'expires_at'])
      .where('ticket_id', '=', id)
      .executeTakeFirstOrThrow();
    const days = (new Date(survey.expires_at).getTime() - new Date(survey.sent_at).getTime()) / 86_400_000;
    expect(Math.round(days)).toBe(30);
    await t.db
      .updateTable('satisfaction_surveys')
      .set({ expires_at: sql<Date>`now() - interval '1 minute'` })
      .where('ticket_id', '=', id)
      .execute();
    expect((await view(token)).statusCode).toBe(404);
    expect((await rate(token, { rating: 3 })).statusCode).toBe(404);
  });

  it('sends at most one survey per ticket: resolved again after reopening, none', async () => {
    const id = await makeTicket();
    await close(id);
    const restore = await t.app.inject({
      method: 'POST',
      url: `/api/tickets/${id}/restore`,
      headers: await t.as(ADMIN),
      payload: {},
    });
    expect(restore.statusCode, restore.body).toBe(200);
    // Another path to a finished status: the edit form's PUT.
    const put = await t.app.inject({
      method: 'PUT',
      url: `/api/tickets/${id}`,
      headers: await t.as(ADMIN),
      payload: { status_id: closedStatus },
    });
    expect(put.statusCode, put.body).toBe(200);
    expect(await surveyMails(t.db, id)).toHaveLength(1);
  });

  it('sends one survey per ticket with two instances resolving it at once', async () => {
    const id = await makeTicket();
    const second = t.connection ? await buildSecondInstance(t) : undefined;
    try {
      const resolve = (db: Db) =>
        db.transaction().execute(async (trx) => {
          const sent = await surveysOnStatusChange(trx, tenantId, [{ ticketId: id, statusId: closedStatus }]);
          // Both transactions are open together: the later insert waits for the first commit.
          await new Promise((r) => setTimeout(r, 150));
          return sent;
        });
      const sent = await Promise.all([resolve(t.db), resolve(second?.db ?? t.db)]);
      expect(sent.reduce((a, n) => a + n, 0)).toBe(1);
      expect(await surveyMails(t.db, id)).toHaveLength(1);
    } finally {
      await second?.close();
    }
  });

  it('mails nobody who opted out, no other ticket type, and nothing when off', async () => {
    await t.db.updateTable('users').set({ survey_opt_out: true }).where('id', '=', clientId).execute();
    const optedOut = await makeTicket();
    await close(optedOut);
    expect(await surveyMails(t.db, optedOut)).toHaveLength(0);
    await t.db.updateTable('users').set({ survey_opt_out: false }).where('id', '=', clientId).execute();

    const types = await t.db
      .selectFrom('ticket_types')
      .select('id')
      .where('tenant_id', '=', tenantId)
      .orderBy('id')
      .limit(2)
      .execute();
    const [wanted, other] = types.map((r) => Number(r.id)) as [number, number];
    await setting('satisfaction_survey', String(wanted));
    const ofOther = await makeTicket({ typeId: other });
    const ofWanted = await makeTicket({ typeId: wanted });
    await close(ofOther);
    await close(ofWanted);
    expect(await surveyMails(t.db, ofOther)).toHaveLength(0);
    expect(await surveyMails(t.db, ofWanted)).toHaveLength(1);

    await setting('satisfaction_survey', 'uit');
    const off = await makeTicket();
    await close(off);
    expect(await surveyMails(t.db, off)).toHaveLength(0);
    await setting('satisfaction_survey', 'on');
  });

  it('rates 1 to 5 on the tenant scale of 5, in the language of the client', async () => {
    await setting('satisfaction_scale', '5');
    await t.db
      .deleteFrom('user_configs')
      .where('user_id', '=', clientId)
      .where('name', '=', 'language')
      .execute();
    await t.db
      .insertInto('user_configs')
      .values({ tenant_id: tenantId, user_id: clientId, name: 'language', value: '"en"' })
      .execute();
    const id = await makeTicket();
    await close(id);
    const [mail] = await surveyMails(t.db, id);
    expect(mail!.subject).toBe(`How did we resolve ticket SURVEY-${serial}?`);
    expect(mail!.text).toContain('The links are valid for 30 days and work once. No login is needed.');
    expect(mail!.links.map((l) => l.rating)).toEqual([5, 4, 3, 2, 1]);
    const token = mail!.links[0]!.token;
    expect((await rate(token, { rating: 4 })).json()).toMatchObject({ scale: 5, rating: 4, rated: true });
    const ticket = await t.db
      .selectFrom('tickets')
      .select('satisfaction')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(ticket.satisfaction).toBe('good');
    await setting('satisfaction_scale', null);
  });
  it('reports the ratings per month and operator or company, to report readers only', async () => {
    // Two rated surveys of this month (one good, one bad) and one of an earlier month, stored as rated.
    const month = new Date().toISOString().slice(0, 7);
    const ids = [await makeTicket(), await makeTicket(), await makeTicket()];
    for (const id of ids) await close(id);
    const rows = [
      { id: ids[0]!, sentiment: 'good', rating: 3, at: sql<Date>`now()` },
      { id: ids[1]!, sentiment: 'bad', rating: 1, at: sql<Date>`now()` },
      { id: ids[2]!, sentiment: 'good', rating: 3, at: sql<Date>`now() - interval '3 months'` },
    ];
    for (const r of rows)
      await t.db
        .updateTable('satisfaction_surveys')
        .set({ sentiment: r.sentiment, rating: r.rating, rated_at: r.at })
        .where('ticket_id', '=', r.id)
        .execute();
    const from = `${month}-01`;
    const to = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    const report = (query: string, who = ADMIN) =>
      t
        .as(who)
        .then((headers) =>
          t.app.inject({ method: 'GET', url: `/api/reports/satisfaction?${query}`, headers }),
        );
    const byOperator = await report(`from=${from}&to=${to}`);
    expect(byOperator.statusCode, byOperator.body).toBe(200);
    const mine = byOperator.json().rows.find((r: { key: number }) => r.key === adminId);
    // This month's ratings of the earlier tests count too: at least these two, one of each.
    expect(mine).toMatchObject({ month: from });
    expect(mine.good).toBeGreaterThanOrEqual(1);
    expect(mine.bad).toBeGreaterThanOrEqual(1);
    expect(mine.rated).toBe(mine.good + mine.neutral + mine.bad);
    expect(byOperator.json().rows.every((r: { month: string }) => r.month === from)).toBe(true);

    const halfAYearAgo = new Date(Date.now() - 183 * 86_400_000).toISOString().slice(0, 10);
    const byCompany = await report(`from=${halfAYearAgo}&to=${to}&by=company`);
    expect(byCompany.statusCode, byCompany.body).toBe(200);
    const months = byCompany.json().rows.filter((r: { key: number }) => r.key === companyId);
    expect(months.length).toBeGreaterThanOrEqual(2);

    expect((await report(`from=${to}&to=${from}`)).statusCode).toBe(422);
    expect((await report(`from=${from}&to=${to}&by=priority`)).statusCode).toBe(422);
    expect((await report(`from=${from}&to=${to}`, CLIENT)).statusCode).toBe(403);
    const anonymous = await t.app.inject({
      method: 'GET',
      url: `/api/reports/satisfaction?from=${from}&to=${to}`,
    });
    expect(anonymous.statusCode).toBe(401);
  });
  it('starts a survey_rated trigger that can reopen on a bad rating, and the tenant may reopen by itself', async () => {
    const rule = await t.app.inject({
      method: 'POST',
      url: '/api/automation-rules',
      headers: await t.as(ADMIN),
      payload: {
        kind: 'trigger',
        name: 'Slecht beoordeeld: heropenen',
        event: 'survey_rated',
        conditions: [{ where: ['satisfaction', '=', 'bad'] }],
        actions: [{ type: 'set', field: 'status_id', value: openStatus }],
      },
    });
    expect(rule.statusCode, rule.body).toBe(201);
    const statusOf = async (id: number) =>
      Number(
        (await t.db.selectFrom('tickets').select('status_id').where('id', '=', id).executeTakeFirstOrThrow())
          .status_id,
      );
    const tokenOf = async (id: number) => (await surveyMails(t.db, id))[0]!.links[0]!.token;
    const [good, bad] = [await makeTicket(), await makeTicket()];
    await close(good);
    await close(bad);
    expect((await rate(await tokenOf(good), { rating: 3 })).statusCode).toBe(200);
    expect((await rate(await tokenOf(bad), { rating: 1 })).statusCode).toBe(200);
    expect(await statusOf(good)).toBe(closedStatus);
    expect(await statusOf(bad)).toBe(openStatus);
    await t.db
      .updateTable('automation_rules')
      .set({ active: false })
      .where('id', '=', rule.json().id)
      .execute();

    // Without a rule: the tenant's setting reopens a badly rated ticket, and leaves a neutral one.
    await setting('satisfaction_reopen', 'ja');
    const [neutral, worse] = [await makeTicket(), await makeTicket()];
    await close(neutral);
    await close(worse);
    await rate(await tokenOf(neutral), { rating: 2 });
    await rate(await tokenOf(worse), { rating: 1 });
    expect(await statusOf(neutral)).toBe(closedStatus);
    expect(await statusOf(worse)).not.toBe(closedStatus);
    const reopened = await t.db
      .selectFrom('ticket_statuses')
      .select('internal_type')
      .where('id', '=', await statusOf(worse))
      .executeTakeFirstOrThrow();
    expect(reopened.internal_type).not.toBe(2);
    await setting('satisfaction_reopen', null);
  });
});
