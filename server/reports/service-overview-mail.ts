/**
 * The monthly service overview mail (issue 36, item 3): from the 1st of each month (the desk's zone),
 * each client who opted in gets the previous month's overview of all their companies
 * (./service-overview.ts) in their language, through the outbox.
 *
 * Who: a client (not staff), not deactivated (archived), with an address, at least one company whose
 * tickets their company role sees company-wide (issue 39: a member gets none), a role
 * holding the portal's `portal.reports.index`, and the opt-in (the user config `service_overview_mail`
 * true) set before the month began: a client who opts in on the 15th gets their first overview on the
 * next 1st, not last month's at once. A client who lost the permission, was deactivated or opted out is
 * not sent one. A pass that runs later in the month (the desk was down on the 1st) still sends it.
 *
 * Exactly once per client and month with any number of instances: the mail is queued in the
 * transaction that inserts the client's row of service_overview_mails (migration 0042); the key is
 * the primary key, so a second instance's insert waits for the first's commit and then does nothing.
 */
import { DateTime } from 'luxon';
import { DEFAULT_TIME_ZONE } from '../../common/sla/calendar.ts';
import { LANGUAGE_CONFIG } from '../../common/language-config.ts';
import { SERVICE_OVERVIEW_MAIL_CONFIG, SERVICE_OVERVIEW_PERMISSION } from '../../common/service-overview.ts';
import { companyRolesOf, reachOf, toCompanyRoles } from '../auth/company-roles.ts';
import type { Db } from '../db/database.ts';
import { enqueueMail } from '../mail/enqueue.ts';
import { mailLanguage } from '../resources/notifications/kinds.ts';
import { serviceOverview } from './service-overview.ts';
import { overviewMailText } from './service-overview-mail-text.ts';

/** Clients per statement that finds them. */
const BATCH = 50;

/**
 * How often an instance looks for clients due their overview (the deadline loop runs every minute):
 * the look is one statement, and on the 1st the mails leave within minutes of midnight.
 */
export const SERVICE_OVERVIEW_EVERY_MS = 5 * 60_000;

/** The month before `now`'s in the desk's zone: its first and last day, and when `now`'s month began. */
export function previousMonth(now: number): { from: string; to: string; monthStart: Date } {
  const month = DateTime.fromMillis(now, { zone: DEFAULT_TIME_ZONE }).startOf('month');
  const previous = month.minus({ months: 1 });
  return {
    from: previous.toISODate()!,
    to: previous.endOf('month').toISODate()!,
    monthStart: month.toJSDate(),
  };
}

/** The clients due their overview of the month before `now`'s, at most BATCH. */
function dueClients(db: Db, from: string, monthStart: Date, after: number) {
  return (
    db
      .selectFrom('users as u')
      .innerJoin('user_configs as opt', (join) =>
        join
          .onRef('opt.user_id', '=', 'u.id')
          .onRef('opt.tenant_id', '=', 'u.tenant_id')
          .on('opt.name', '=', SERVICE_OVERVIEW_MAIL_CONFIG),
      )
      .leftJoin('user_configs as lang', (join) =>
        join
          .onRef('lang.user_id', '=', 'u.id')
          .onRef('lang.tenant_id', '=', 'u.tenant_id')
          .on('lang.name', '=', LANGUAGE_CONFIG),
      )
      .select(['u.id', 'u.tenant_id', 'u.email', 'lang.value as language'])
      // The client's role per company (issue 39), as the portal's own overview reads it.
      .select(companyRolesOf().as('company_roles'))
      .where('u.id', '>', after)
      .where('u.is_staff', '=', false)
      .where('u.archived_at', 'is', null)
      .where('u.email', 'is not', null)
      // The opt-in as the portal writes it (POST /api/auth/me stores JSON text), set before the month.
      .where('opt.value', '=', 'true')
      .where('opt.updated_at', '<', monthStart)
      .where(({ exists, selectFrom }) =>
        exists(
          selectFrom('permission_role as pr')
            .innerJoin('permissions as p', 'p.id', 'pr.permission_id')
            .select('pr.role_id')
            .whereRef('pr.role_id', '=', 'u.role_id')
            .where('p.name', '=', SERVICE_OVERVIEW_PERMISSION),
        ),
      )
      .where(({ exists, selectFrom }) =>
        exists(
          selectFrom('company_user as cu')
            .select('cu.user_id')
            .whereRef('cu.user_id', '=', 'u.id')
            .whereRef('cu.tenant_id', '=', 'u.tenant_id'),
        ),
      )
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('service_overview_mails as m')
              .select('m.user_id')
              .whereRef('m.tenant_id', '=', 'u.tenant_id')
              .whereRef('m.user_id', '=', 'u.id')
              .where('m.month', '=', from),
          ),
        ),
      )
      .orderBy('u.id')
      .limit(BATCH)
      .execute()
  );
}

/**
 * Queues the overview of the month before `now`'s to every client due it; answers how many this
 * instance queued. `origin` is the public address the mail links the portal's page at, if known;
 * `stopping` is asked before each client (a shutdown waits for the one in hand).
 */
export async function sendServiceOverviews(
  db: Db,
  now = Date.now(),
  options: {
    origin?: string;
    stopping?: () => boolean;
    failed?: (error: unknown, userId: number) => void;
  } = {},
): Promise<number> {
  const { from, to, monthStart } = previousMonth(now);
  let sent = 0;
  let after = 0;
  for (;;) {
    const due = await dueClients(db, from, monthStart, after);
    for (const client of due) {
      if (options.stopping?.()) return sent;
      after = Number(client.id);
      // One client's overview that cannot be made (its key rolled back) holds up nobody else's: it is
      // tried again at the next pass.
      try {
        if (await sendOne(db, client, { from, to }, options.origin)) sent++;
      } catch (error) {
        options.failed?.(error, Number(client.id));
      }
    }
    // A full batch may leave clients for the next; those another instance took are left out of it.
    if (due.length < BATCH) return sent;
  }
}

type DueClient = Awaited<ReturnType<typeof dueClients>>[number];

/** Queues one client's overview; false when another instance queued it first. */
async function sendOne(
  db: Db,
  client: DueClient,
  { from, to }: { from: string; to: string },
  origin: string | undefined,
): Promise<boolean> {
  const tenantId = Number(client.tenant_id);
  // The companies whose tickets the client's role sees company-wide, as the portal's page shows them
  // (service-overview-routes.ts): the figures are of all of a company's tickets, none a member's to read.
  const companyIds = reachOf(toCompanyRoles(client.company_roles), 'tickets').company;
  const language = mailLanguage(client.language) ?? 'nl';
  // Computed before the transaction: the key's row lock is held only while the mail is queued.
  if (companyIds.length === 0) return claimMonth(db, tenantId, client, from, undefined);
  const [overview, companies] = await Promise.all([
    serviceOverview(db, tenantId, { companyIds, from, to, contractsOn: to, locale: language }),
    db
      .selectFrom('companies')
      .select(['id', 'name'])
      .where('tenant_id', '=', tenantId)
      .where('id', 'in', companyIds)
      .orderBy('name')
      .orderBy('id')
      .execute(),
  ]);
  const text = overviewMailText(
    { ...overview, companies: companies.map((c) => ({ id: Number(c.id), name: c.name })) },
    language,
    origin ? `${origin}/app/service-overview` : undefined,
  );
  return claimMonth(db, tenantId, client, from, text);
}

/**
 * Claims the client's month and, with a text, queues its mail in the same transaction; false when
 * another instance claimed it first. Without a text (no company the role shows figures of) the month
 * is claimed with no mail, so that later passes do not look at the client again this month.
 */
function claimMonth(
  db: Db,
  tenantId: number,
  client: DueClient,
  from: string,
  text: { subject: string; body: string } | undefined,
): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const key = await trx
      .insertInto('service_overview_mails')
      .values({ tenant_id: tenantId, user_id: Number(client.id), month: from })
      .onConflict((oc) => oc.doNothing())
      .returning('user_id')
      .executeTakeFirst();
    if (!key || !text) return false;
    await enqueueMail(
      trx,
      { to: String(client.email), subject: text.subject, text: text.body },
      { tenantId, source: 'service_overview' },
    );
    return true;
  });
}
