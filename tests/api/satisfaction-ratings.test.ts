/**
 * What a satisfaction rating sets going (issue 39, item 3): the report per month and operator or
 * company, a `survey_rated` trigger and the tenant's reopening of a badly rated ticket, and a client's
 * opt-out through the link.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { targets } from './harness.ts';
import { ADMIN, CLIENT, openSurveyDesk, type SurveyDesk } from './satisfaction-desk.ts';

describe.each(targets)('satisfaction ratings at work on $name', (target) => {
  let d: SurveyDesk;
  beforeAll(async () => {
    d = await openSurveyDesk(target);
  });
  afterAll(() => d?.t.close());

  it('reports the ratings per month and operator or company, to report readers only', async () => {
    // Two rated surveys of this month (one good, one bad) and one of an earlier month, stored as rated.
    const month = new Date().toISOString().slice(0, 7);
    const ids = [await d.makeTicket(), await d.makeTicket(), await d.makeTicket()];
    for (const id of ids) await d.close(id);
    const rows = [
      { id: ids[0]!, sentiment: 'good', rating: 3, at: sql<Date>`now()` },
      { id: ids[1]!, sentiment: 'bad', rating: 1, at: sql<Date>`now()` },
      { id: ids[2]!, sentiment: 'good', rating: 3, at: sql<Date>`now() - interval '3 months'` },
    ];
    for (const r of rows)
      await d.t.db
        .updateTable('satisfaction_surveys')
        .set({ sentiment: r.sentiment, rating: r.rating, rated_at: r.at })
        .where('ticket_id', '=', r.id)
        .execute();
    const from = `${month}-01`;
    const to = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    const report = (query: string, who = ADMIN) =>
      d.t
        .as(who)
        .then((headers) =>
          d.t.app.inject({ method: 'GET', url: `/api/reports/satisfaction?${query}`, headers }),
        );
    const byOperator = await report(`from=${from}&to=${to}`);
    expect(byOperator.statusCode, byOperator.body).toBe(200);
    const mine = byOperator.json().rows.find((r: { key: number }) => r.key === d.adminId);
    // This month's ratings of the earlier tests count too: at least these two, one of each.
    expect(mine).toMatchObject({ month: from });
    expect(mine.good).toBeGreaterThanOrEqual(1);
    expect(mine.bad).toBeGreaterThanOrEqual(1);
    expect(mine.rated).toBe(mine.good + mine.neutral + mine.bad);
    expect(byOperator.json().rows.every((r: { month: string }) => r.month === from)).toBe(true);
    expect(mine).toMatchObject({ rated_on_5: 0, average: null });

    // Ratings on the 1 to 5 scale (the scale of their mail) are averaged beside the words; the other
    // scale's are not in the average. An operator of their own: the row holds exactly these.
    const other = await d.t.db
      .selectFrom('users')
      .select('id')
      .where('tenant_id', '=', d.tenantId)
      .where('is_operator', '>', 0)
      .where('id', '!=', d.adminId)
      .orderBy('id')
      .executeTakeFirstOrThrow();
    const fives = [await d.makeTicket(), await d.makeTicket(), await d.makeTicket()];
    for (const id of fives) await d.close(id);
    for (const [i, rating] of [5, 4, 2].entries())
      await d.t.db
        .updateTable('satisfaction_surveys')
        .set({
          scale: 5,
          rating,
          sentiment: rating >= 4 ? 'good' : 'bad',
          rated_at: sql<Date>`now()`,
          operator_id: Number(other.id),
        })
        .where('ticket_id', '=', fives[i]!)
        .execute();
    const again = await report(`from=${from}&to=${to}`);
    const theirs = again.json().rows.find((r: { key: number }) => r.key === Number(other.id));
    expect(theirs).toMatchObject({ rated: 3, good: 2, neutral: 0, bad: 1, rated_on_5: 3, average: 3.7 });
    expect(theirs.satisfied).toBe(66.7);

    const halfAYearAgo = new Date(Date.now() - 183 * 86_400_000).toISOString().slice(0, 10);
    const byCompany = await report(`from=${halfAYearAgo}&to=${to}&by=company`);
    expect(byCompany.statusCode, byCompany.body).toBe(200);
    const months = byCompany.json().rows.filter((r: { key: number }) => r.key === d.companyId);
    expect(months.length).toBeGreaterThanOrEqual(2);

    expect((await report(`from=${to}&to=${from}`)).statusCode).toBe(422);
    expect((await report(`from=${from}&to=${to}&by=priority`)).statusCode).toBe(422);
    expect((await report(`from=${from}&to=${to}`, CLIENT)).statusCode).toBe(403);
    const anonymous = await d.t.app.inject({
      method: 'GET',
      url: `/api/reports/satisfaction?from=${from}&to=${to}`,
    });
    expect(anonymous.statusCode).toBe(401);
  });
  it('starts a survey_rated trigger that can reopen on a bad rating, and the tenant may reopen by itself', async () => {
    const rule = await d.t.app.inject({
      method: 'POST',
      url: '/api/automation-rules',
      headers: await d.t.as(ADMIN),
      payload: {
        kind: 'trigger',
        name: 'Slecht beoordeeld: heropenen',
        event: 'survey_rated',
        conditions: [{ where: ['satisfaction', '=', 'bad'] }],
        actions: [{ type: 'set', field: 'status_id', value: d.openStatus }],
      },
    });
    expect(rule.statusCode, rule.body).toBe(201);
    const statusOf = async (id: number) =>
      Number(
        (
          await d.t.db
            .selectFrom('tickets')
            .select('status_id')
            .where('id', '=', id)
            .executeTakeFirstOrThrow()
        ).status_id,
      );
    const tokenOf = async (id: number) => (await d.surveyMails(d.t.db, id))[0]!.links[0]!.token;
    const [good, bad] = [await d.makeTicket(), await d.makeTicket()];
    await d.close(good);
    await d.close(bad);
    expect((await d.rate(await tokenOf(good), { rating: 3 })).statusCode).toBe(200);
    expect((await d.rate(await tokenOf(bad), { rating: 1 })).statusCode).toBe(200);
    expect(await statusOf(good)).toBe(d.closedStatus);
    expect(await statusOf(bad)).toBe(d.openStatus);
    await d.t.db
      .updateTable('automation_rules')
      .set({ active: false })
      .where('id', '=', rule.json().id)
      .execute();

    // Without a rule: the tenant's d.setting reopens a badly rated ticket, and leaves a neutral one.
    await d.setting('satisfaction_reopen', 'ja');
    const [neutral, worse] = [await d.makeTicket(), await d.makeTicket()];
    await d.close(neutral);
    await d.close(worse);
    await d.rate(await tokenOf(neutral), { rating: 2 });
    await d.rate(await tokenOf(worse), { rating: 1 });
    expect(await statusOf(neutral)).toBe(d.closedStatus);
    expect(await statusOf(worse)).not.toBe(d.closedStatus);
    const reopened = await d.t.db
      .selectFrom('ticket_statuses')
      .select('internal_type')
      .where('id', '=', await statusOf(worse))
      .executeTakeFirstOrThrow();
    expect(reopened.internal_type).not.toBe(2);
    await d.setting('satisfaction_reopen', null);
  });
  it('opts the client out through the link, so the next resolved ticket mails nothing', async () => {
    const first = await d.makeTicket();
    await d.close(first);
    const token = await d.tokenOf(first);
    const altered = (token[0] === 'A' ? 'B' : 'A') + token.slice(1);
    const optOut = (tk: string) =>
      d.t.app.inject({ method: 'POST', url: `/api/surveys/${tk}/opt-out`, payload: {} });
    expect((await optOut(altered)).statusCode).toBe(404);
    const res = await optOut(token);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ opted_out: true });
    const client = await d.t.app.inject({
      method: 'GET',
      url: `/api/clients/${d.clientId}`,
      headers: await d.t.as(ADMIN),
    });
    expect(client.json().survey_opt_out).toBe(true);
    const next = await d.makeTicket();
    await d.close(next);
    expect(await d.surveyMails(d.t.db, next)).toHaveLength(0);
    // The survey itself still takes its rating.
    expect((await d.rate(token, { rating: 2 })).statusCode).toBe(200);
    await d.t.db.updateTable('users').set({ survey_opt_out: false }).where('id', '=', d.clientId).execute();
  });
});
