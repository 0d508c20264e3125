/**
 * The demo desk of the satisfaction survey tests (issue 39, item 3): an app with PUBLIC_URL (no survey
 * without it), the survey turned on, the demo client's company and the admin as operator, and the calls
 * the tests make: a ticket of the client, its closing, the survey mails queued for it with their links,
 * and the link's calls without a login.
 */
import { expect } from 'vitest';
import { buildTestApp, type Target, type TestApp } from './harness.ts';
import type { Db } from '../../server/db/database.ts';

export const ADMIN = 'admin@example.com';
export const CLIENT = 'client@example.com';
const ORIGIN = 'http://survey.test';
const LINK = new RegExp(`${ORIGIN}/app/survey/([A-Za-z0-9_-]{43})\\?rating=(\\d)`, 'g');

export type SurveyDesk = Awaited<ReturnType<typeof openSurveyDesk>>;

export async function openSurveyDesk(target: Target) {
  const t: TestApp = await buildTestApp(target, { config: { publicUrl: ORIGIN } });
  // The mails stay queued with their bodies: the tests read the survey links from the outbox, and a
  // mail the sender has sent keeps no body (a race the sender won on a loaded machine).
  await t.app.outbox.stop();
  const client = await t.db
    .selectFrom('users')
    .innerJoin('company_user', 'company_user.user_id', 'users.id')
    .select(['users.id', 'users.tenant_id', 'company_user.company_id'])
    .where('users.email', '=', CLIENT)
    .executeTakeFirstOrThrow();
  const [clientId, tenantId, companyId] = [Number(client.id), client.tenant_id, Number(client.company_id)];
  const admin = await t.db
    .selectFrom('users')
    .select('id')
    .where('email', '=', ADMIN)
    .executeTakeFirstOrThrow();
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
  let serial = 0;

  const desk = {
    t,
    tenantId,
    clientId,
    companyId,
    adminId: Number(admin.id),
    openStatus: await status(1),
    closedStatus: await status(2),
    /** The reference of the last ticket made. */
    get reference() {
      return `SURVEY-${serial}`;
    },

    async setting(name: string, value: string | null) {
      await t.db
        .deleteFrom('tenant_configs')
        .where('tenant_id', '=', tenantId)
        .where('name', '=', name)
        .execute();
      if (value !== null)
        await t.db.insertInto('tenant_configs').values({ tenant_id: tenantId, name, value }).execute();
    },

    /** An open ticket of the demo client, the admin its operator. */
    async makeTicket(options: { typeId?: number | null } = {}): Promise<number> {
      serial += 1;
      const row = await t.db
        .insertInto('tickets')
        .values({
          tenant_id: tenantId,
          reference: `SURVEY-${serial}`,
          description: `Printer ${serial} doet het niet`,
          status_id: desk.openStatus,
          company_id: companyId,
          client_id: clientId,
          operator_id: desk.adminId,
          ticket_type_id: options.typeId ?? null,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      return Number(row.id);
    },

    async close(id: number) {
      const res = await t.app.inject({
        method: 'POST',
        url: `/api/tickets/${id}/close`,
        headers: await t.as(ADMIN),
        payload: {},
      });
      expect(res.statusCode, res.body).toBe(200);
    },

    /** The survey mails queued for the ticket's survey, with the links they hold. */
    async surveyMails(db: Db, ticketId: number) {
      const rows = await db
        .selectFrom('mail_outbox as m')
        .innerJoin('satisfaction_surveys as s', (j) => j.onRef('s.id', '=', 'm.source_id'))
        .select(['m.mail', 'm.recipients'])
        .where('m.source', '=', 'satisfaction-surveys')
        .where('s.ticket_id', '=', ticketId)
        .execute();
      return rows.map((r) => {
        // A mail another instance has sent keeps no body (the two-instance test counts them only).
        const mail = ((typeof r.mail === 'string' ? JSON.parse(r.mail) : r.mail) ?? {
          text: '',
          subject: '',
          html: '',
        }) as { text: string; subject: string; html: string };
        const links = [...mail.text.matchAll(LINK)].map((m) => ({ token: m[1]!, rating: Number(m[2]) }));
        return { ...mail, recipients: r.recipients, links };
      });
    },

    /** The token of the ticket's survey mail. */
    async tokenOf(ticketId: number) {
      return (await desk.surveyMails(t.db, ticketId))[0]!.links[0]!.token;
    },

    view: (token: string) => t.app.inject({ method: 'GET', url: `/api/surveys/${token}` }),
    rate: (token: string, payload: object) =>
      t.app.inject({ method: 'POST', url: `/api/surveys/${token}`, payload }),
  };
  await desk.setting('satisfaction_survey', 'on');
  return desk;
}
