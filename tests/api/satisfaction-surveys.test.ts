/**
 * Satisfaction surveys (issue 39, item 3): resolving a ticket mails its client a survey whose links work
 * without a login, once, for 30 days; a forged or altered link opens nothing; one survey per ticket,
 * also with two instances on one database; opted-out clients and other ticket types get none; a bad
 * rating shows on the ticket and in its history and tells the operator.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { buildSecondInstance, targets } from './harness.ts';
import type { Db } from '../../server/db/database.ts';
import { surveysOnStatusChange } from '../../server/resources/satisfaction-surveys/send.ts';
import { ADMIN, CLIENT, openSurveyDesk, type SurveyDesk } from './satisfaction-desk.ts';

describe.each(targets)('satisfaction surveys on $name', (target) => {
  let d: SurveyDesk;
  beforeAll(async () => {
    d = await openSurveyDesk(target);
  });
  afterAll(() => d?.t.close());

  it('mails the client one link per rating on resolving; the link works without a login, once', async () => {
    const id = await d.makeTicket();
    await d.close(id);
    const [mail, ...more] = await d.surveyMails(d.t.db, id);
    expect(more).toHaveLength(0);
    expect(mail!.recipients).toBe(CLIENT);
    expect(mail!.subject).toBe(`Hoe hebben we ticket ${d.reference} opgelost?`);
    expect(mail!.links.map((l) => l.rating)).toEqual([3, 2, 1]);
    const token = mail!.links[0]!.token;
    expect(new Set(mail!.links.map((l) => l.token)).size).toBe(1);

    // No Authorization header anywhere below.
    const shown = await d.view(token);
    expect(shown.statusCode, shown.body).toBe(200);
    expect(shown.json()).toMatchObject({
      reference: `${d.reference}`,
      scale: 3,
      rated: false,
      rating: null,
    });
    // Looking changes nothing (a mail scanner's fetch rates nothing).
    expect((await d.view(token)).json().rated).toBe(false);

    const rated = await d.rate(token, { rating: 1, comment: 'Duurde lang' });
    expect(rated.statusCode, rated.body).toBe(200);
    expect(rated.json()).toMatchObject({ rated: true, rating: 1 });

    const again = await d.rate(token, { rating: 3 });
    expect(again.statusCode).toBe(422);
    expect(again.json()).toEqual({
      message: 'This survey has already been answered.',
      errors: { token: ['This survey has already been answered.'] },
    });
    const stored = await d.t.db
      .selectFrom('satisfaction_surveys')
      .select(['rating', 'sentiment', 'comment'])
      .where('ticket_id', '=', id)
      .executeTakeFirstOrThrow();
    expect(stored).toEqual({ rating: 1, sentiment: 'bad', comment: 'Duurde lang' });

    // On the ticket, in its history (by its client), and the operator told.
    const ticket = await d.t.app.inject({
      method: 'GET',
      url: `/api/tickets/${id}`,
      headers: await d.t.as(ADMIN),
    });
    expect(ticket.json().satisfaction).toBe('bad');
    const history = await d.t.db
      .selectFrom('ticket_changes')
      .select(['field', 'to_value', 'to_label', 'user_id', 'user_label'])
      .where('ticket_id', '=', id)
      .where('field', '=', 'satisfaction')
      .execute();
    // The client is named in the history too, as operators are.
    const client = await d.t.db
      .selectFrom('users')
      .select('full_name')
      .where('id', '=', d.clientId)
      .executeTakeFirstOrThrow();
    expect(history).toEqual([
      {
        field: 'satisfaction',
        to_value: 'bad',
        to_label: 'Slecht',
        user_id: d.clientId,
        user_label: client.full_name,
      },
    ]);
    const told = await d.t.db
      .selectFrom('notifications')
      .select('user_id')
      .where('ticket_id', '=', id)
      .where('kind', '=', 'survey_bad')
      .execute();
    expect(told.map((n) => Number(n.user_id))).toContain(d.adminId);
  });

  it('refuses a forged or altered link with 404, and a rating off the scale with 422', async () => {
    const id = await d.makeTicket();
    await d.close(id);
    const token = (await d.surveyMails(d.t.db, id))[0]!.links[0]!.token;
    const altered = (token[0] === 'A' ? 'B' : 'A') + token.slice(1);
    for (const bad of [altered, token.slice(0, -1), 'x'.repeat(43)]) {
      expect((await d.view(bad)).statusCode).toBe(404);
      const res = await d.rate(bad, { rating: 3 });
      expect(res.statusCode).toBe(404);
      expect(res.json().message).toBe('This survey link is invalid or has expired.');
    }
    expect((await d.view('not/a/token')).statusCode).toBe(404);
    const off = await d.rate(token, { rating: 4 });
    expect(off.statusCode).toBe(422);
    expect(off.json().errors).toEqual({ rating: ['Choose one of the ratings of this survey.'] });
    expect((await d.rate(token, { rating: 'good' })).statusCode).toBe(422);
    // Still unanswered after all that.
    expect((await d.view(token)).json().rated).toBe(false);
  });

  it('expires after 30 days', async () => {
    const id = await d.makeTicket();
    await d.close(id);
    const token = (await d.surveyMails(d.t.db, id))[0]!.links[0]!.token;
    const survey = await d.t.db
      .selectFrom('satisfaction_surveys')
      .select(['sent_at', 'expires_at'])
      .where('ticket_id', '=', id)
      .executeTakeFirstOrThrow();
    const days = (new Date(survey.expires_at).getTime() - new Date(survey.sent_at).getTime()) / 86_400_000;
    expect(Math.round(days)).toBe(30);
    await d.t.db
      .updateTable('satisfaction_surveys')
      .set({ expires_at: sql<Date>`now() - interval '1 minute'` })
      .where('ticket_id', '=', id)
      .execute();
    expect((await d.view(token)).statusCode).toBe(404);
    expect((await d.rate(token, { rating: 3 })).statusCode).toBe(404);
  });

  it('sends at most one survey per ticket: resolved again after reopening, none', async () => {
    const id = await d.makeTicket();
    await d.close(id);
    const restore = await d.t.app.inject({
      method: 'POST',
      url: `/api/tickets/${id}/restore`,
      headers: await d.t.as(ADMIN),
      payload: {},
    });
    expect(restore.statusCode, restore.body).toBe(200);
    // Another path to a finished status: the edit form's PUT.
    const put = await d.t.app.inject({
      method: 'PUT',
      url: `/api/tickets/${id}`,
      headers: await d.t.as(ADMIN),
      payload: { status_id: d.closedStatus },
    });
    expect(put.statusCode, put.body).toBe(200);
    expect(await d.surveyMails(d.t.db, id)).toHaveLength(1);
  });

  it('sends one survey per ticket with two instances resolving it at once', async () => {
    const id = await d.makeTicket();
    const second = d.t.connection ? await buildSecondInstance(d.t) : undefined;
    try {
      const resolve = (db: Db) =>
        db.transaction().execute(async (trx) => {
          const sent = await surveysOnStatusChange(trx, d.tenantId, [
            { ticketId: id, statusId: d.closedStatus },
          ]);
          // Both transactions are open together: the later insert waits for the first commit.
          await new Promise((r) => setTimeout(r, 150));
          return sent;
        });
      const sent = await Promise.all([resolve(d.t.db), resolve(second?.db ?? d.t.db)]);
      expect(sent.reduce((a, n) => a + n, 0)).toBe(1);
      expect(await d.surveyMails(d.t.db, id)).toHaveLength(1);
    } finally {
      await second?.close();
    }
  });

  it('mails nobody who opted out, no other ticket type, and nothing when off', async () => {
    await d.t.db.updateTable('users').set({ survey_opt_out: true }).where('id', '=', d.clientId).execute();
    const optedOut = await d.makeTicket();
    await d.close(optedOut);
    expect(await d.surveyMails(d.t.db, optedOut)).toHaveLength(0);
    await d.t.db.updateTable('users').set({ survey_opt_out: false }).where('id', '=', d.clientId).execute();

    const types = await d.t.db
      .selectFrom('ticket_types')
      .select('id')
      .where('tenant_id', '=', d.tenantId)
      .orderBy('id')
      .limit(2)
      .execute();
    const [wanted, other] = types.map((r) => Number(r.id)) as [number, number];
    await d.setting('satisfaction_survey', String(wanted));
    const ofOther = await d.makeTicket({ typeId: other });
    const ofWanted = await d.makeTicket({ typeId: wanted });
    await d.close(ofOther);
    await d.close(ofWanted);
    expect(await d.surveyMails(d.t.db, ofOther)).toHaveLength(0);
    expect(await d.surveyMails(d.t.db, ofWanted)).toHaveLength(1);

    await d.setting('satisfaction_survey', 'uit');
    const off = await d.makeTicket();
    await d.close(off);
    expect(await d.surveyMails(d.t.db, off)).toHaveLength(0);
    await d.setting('satisfaction_survey', 'on');
  });

  it('rates 1 to 5 on the tenant scale of 5, in the language of the client', async () => {
    await d.setting('satisfaction_scale', '5');
    await d.t.db
      .deleteFrom('user_configs')
      .where('user_id', '=', d.clientId)
      .where('name', '=', 'language')
      .execute();
    await d.t.db
      .insertInto('user_configs')
      .values({ tenant_id: d.tenantId, user_id: d.clientId, name: 'language', value: '"en"' })
      .execute();
    const id = await d.makeTicket();
    await d.close(id);
    const [mail] = await d.surveyMails(d.t.db, id);
    expect(mail!.subject).toBe(`How did we resolve ticket ${d.reference}?`);
    expect(mail!.text).toContain('The links are valid for 30 days and work once. No login is needed.');
    expect(mail!.links.map((l) => l.rating)).toEqual([5, 4, 3, 2, 1]);
    const token = mail!.links[0]!.token;
    expect((await d.rate(token, { rating: 4 })).json()).toMatchObject({ scale: 5, rating: 4, rated: true });
    const ticket = await d.t.db
      .selectFrom('tickets')
      .select('satisfaction')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(ticket.satisfaction).toBe('good');
    await d.setting('satisfaction_scale', null);
  });
  it('sends no survey for a ticket merged into another (its thread goes on there)', async () => {
    const [kept, merged] = [await d.makeTicket(), await d.makeTicket()];
    const res = await d.t.app.inject({
      method: 'POST',
      url: '/api/tickets/merge',
      headers: await d.t.as(ADMIN),
      payload: { ids: [kept, merged] },
    });
    expect(res.statusCode, res.body).toBe(200);
    const closed = await d.t.db
      .selectFrom('tickets')
      .select('resolved_at')
      .where('id', '=', merged)
      .executeTakeFirstOrThrow();
    expect(closed.resolved_at).not.toBeNull();
    expect(await d.surveyMails(d.t.db, merged)).toHaveLength(0);
    const rows = await d.t.db
      .selectFrom('satisfaction_surveys')
      .select('id')
      .where('ticket_id', '=', merged)
      .execute();
    expect(rows).toHaveLength(0);
    // The kept ticket, resolved later, gets its survey.
    await d.close(kept);
    expect(await d.surveyMails(d.t.db, kept)).toHaveLength(1);
  });
});
