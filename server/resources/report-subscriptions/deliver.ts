/**
 * The scheduled reports' background pass (issue 36, item 4): every subscription whose latest period
 * (./schedule.ts) has not been mailed gets its mail, through the outbox, once.
 *
 * Any number of instances run it, and it runs again after any restart. What makes a period one mail is
 * report_deliveries' primary key (subscription, period start): the row is inserted first, in the same
 * transaction as the files and the outbox row; a second instance that found the same subscription
 * waits on that key and, once the first commits, inserts nothing and sends nothing. Whether the
 * operator may still have it is asked then, at send time: a paused subscription, an archived operator
 * or one whose role lost the reports permission gets no mail.
 */
import { sql } from 'kysely';
import type { Db, DbTransaction } from '../../db/database.ts';
import type { FileStore } from '../../files/store.ts';
import { enqueueMail } from '../../mail/enqueue.ts';
import { LANGUAGE_CONFIG } from '../../../common/language-config.ts';
import { REPORTS_PERMISSION } from '../../../common/reports.ts';
import {
  FREQUENCIES,
  reportPageQuery,
  type Delivery,
  type Frequency,
  type SubscribedReport,
  type SubscriptionSettings,
} from '../../../common/report-subscriptions.ts';
import { mailLanguage } from '../notifications/kinds.ts';
import { latestPeriod, type ReportPeriod } from './schedule.ts';
import { reportMailText } from './mail.ts';
import { reportAttachments } from './files.ts';

/** The outbox's name for these mails: their sent files are removed (./index.ts). */
export const REPORT_MAIL_SOURCE = 'report-subscriptions';
/** Subscriptions per look, one transaction each. */
const BATCH = 50;

export interface ReportMailDeps {
  db: Db;
  store: FileStore;
  /** Where the mail's link points: PUBLIC_URL, else a path alone (as the notification mails). */
  origin: string;
  /** A subscription whose mail could not be made: told here, and the others go on. */
  failed?: (error: unknown, subscriptionId: number) => void;
}

/** The subscriptions that may be mailed: not paused, of an operator still active who may read reports. */
function deliverable(db: Db | DbTransaction) {
  return db
    .selectFrom('report_subscriptions as s')
    .innerJoin('users as u', (join) =>
      join.onRef('u.id', '=', 's.user_id').onRef('u.tenant_id', '=', 's.tenant_id'),
    )
    .where('s.paused', '=', false)
    .where('u.archived_at', 'is', null)
    .where('u.is_staff', '=', true)
    .where('u.email', 'is not', null)
    .where(
      // As the sign-in reads a role's permissions (server/auth/user.ts): listed, or every tenant one.
      sql<boolean>`exists (
        select 1 from permissions p
        join roles r on r.id = u.role_id and r.tenant_id = u.tenant_id
        where p.name = ${REPORTS_PERMISSION}
          and (r.grants_all or exists (
            select 1 from permission_role pr where pr.role_id = r.id and pr.permission_id = p.id)))`,
    );
}

/** Mails every subscription due at `now` (epoch ms); answers how many mails were queued. */
export async function sendDueReports(deps: ReportMailDeps, now = Date.now(), stopping = () => false) {
  let sent = 0;
  for (const frequency of FREQUENCIES) {
    const period = latestPeriod(frequency, now);
    let after = 0;
    for (;;) {
      if (stopping()) return sent;
      const due = await deliverable(deps.db)
        .select('s.id')
        .where('s.frequency', '=', frequency)
        .where('s.active_since', '<', period.end)
        .where('s.id', '>', after)
        .where(({ not, exists, selectFrom }) =>
          not(
            exists(
              selectFrom('report_deliveries as d')
                .select('d.subscription_id')
                .whereRef('d.subscription_id', '=', 's.id')
                .where('d.period_start', '=', period.from),
            ),
          ),
        )
        .orderBy('s.id')
        .limit(BATCH)
        .execute();
      for (const { id } of due) {
        try {
          if (await deliver(deps, id, frequency, period)) sent++;
        } catch (error) {
          // Its delivery row rolled back with it: the next look tries again.
          deps.failed?.(error, id);
        }
      }
      if (due.length < BATCH) break;
      after = due[due.length - 1]!.id;
    }
  }
  return sent;
}

/** One subscription's mail for `period`, unless it is no longer due or another instance sent it. */
async function deliver(deps: ReportMailDeps, id: number, frequency: Frequency, period: ReportPeriod) {
  return deps.db.transaction().execute(async (trx) => {
    const sub = await deliverable(trx)
      .leftJoin('user_configs as c', (join) =>
        join
          .onRef('c.user_id', '=', 'u.id')
          .onRef('c.tenant_id', '=', 's.tenant_id')
          .on('c.name', '=', LANGUAGE_CONFIG),
      )
      .select(['s.tenant_id', 's.report', 's.delivery', 's.settings', 'u.email', 'c.value as language'])
      .where('s.id', '=', id)
      .where('s.frequency', '=', frequency)
      .executeTakeFirst();
    if (!sub?.email) return false;
    const claimed = await trx
      .insertInto('report_deliveries')
      .values({ subscription_id: id, period_start: period.from })
      .onConflict((oc) => oc.columns(['subscription_id', 'period_start']).doNothing())
      .returning('subscription_id')
      .executeTakeFirst();
    if (!claimed) return false;

    const language = mailLanguage(sub.language) ?? 'nl';
    const report = sub.report as SubscribedReport;
    const delivery = sub.delivery as Delivery;
    const settings = sub.settings as unknown as SubscriptionSettings;
    const days = { from: period.from, to: period.to };
    const link = `${deps.origin}/reports?${reportPageQuery(report, settings, days)}`;
    const attachments =
      delivery === 'xlsx'
        ? await reportAttachments(trx, deps.store, sub.tenant_id, report, settings, days, language)
        : [];
    const text = reportMailText({ report, frequency, delivery, period: days, link, language });
    const outboxId = await enqueueMail(
      trx,
      { to: sub.email, subject: text.subject, text: text.text, attachments },
      {
        tenantId: sub.tenant_id,
        source: REPORT_MAIL_SOURCE,
        sourceId: id,
        context: { files: attachments.map((a) => a.key) },
      },
    );
    await trx
      .updateTable('report_deliveries')
      .set({ mail_outbox_id: outboxId })
      .where('subscription_id', '=', id)
      .where('period_start', '=', period.from)
      .execute();
    return true;
  });
}
