/**
 * Mailing the satisfaction survey when a ticket is resolved (issue 39, item 3). Every path that sets a
 * ticket's status (an edit, close, a bulk change, a macro, an automation rule, an SLA escalation, a
 * merge) writes the change to the ticket's history first (tickets/history.ts `writeHistory`, in its own
 * transaction, before its update); that one place calls `surveysOnStatusChange` here. A ticket whose new
 * status is of a finished type (closed, archived) while it is not resolved yet is being resolved.
 *
 * At most one survey per ticket, with any number of instances: the row is unique per tenant and ticket,
 * and the mail is queued only by the insert that made the row (a second insert waits for the first's
 * commit and then does nothing). The mail goes in the same transaction as the status, so a change that
 * rolls back mails nothing. No survey for a ticket without a client with an address, nor to a client
 * who opted out (users.survey_opt_out), nor for a template.
 */
import type { DbTransaction } from '../../db/database.ts';
import { randomToken, tokenHash } from '../../auth/tokens.ts';
import { enqueueMail } from '../../mail/enqueue.ts';
import { LANGUAGE_CONFIG } from '../../../common/language-config.ts';
import { mailLanguage } from '../notifications/kinds.ts';
import { FINISHED } from '../tickets/resolved.ts';
import { tenantSurveySettings } from './settings.ts';
import { surveyMail } from './mail-text.ts';

/** How long a survey's links work (the issue: 30 days). */
export const SURVEY_LINK_DAYS = 30;

/** Where the links in survey mails point: PUBLIC_URL (the folder's plugin sets it at start). */
let linkOrigin: string | undefined;
export function setSurveyLinkOrigin(origin: string | undefined): void {
  linkOrigin = origin;
}

/** Mails the surveys of the tickets whose status becomes `statusId` now, where due. Answers how many. */
export async function surveysOnStatusChange(
  trx: DbTransaction,
  tenantId: number,
  changes: readonly { ticketId: number; statusId: number }[],
): Promise<number> {
  // Without a public address no link in a mail could reach this server: nothing to send.
  if (changes.length === 0 || !linkOrigin) return 0;
  const { mode, scale } = await tenantSurveySettings(trx, tenantId);
  if (mode.kind === 'off') return 0;
  const statusIds = [...new Set(changes.map((c) => c.statusId))];
  const finished = await trx
    .selectFrom('ticket_statuses')
    .select('id')
    .where('tenant_id', '=', tenantId)
    .where('id', 'in', statusIds)
    .where('internal_type', 'in', [...FINISHED])
    .execute();
  const finishing = new Set(finished.map((s) => Number(s.id)));
  const ticketIds = changes.filter((c) => finishing.has(c.statusId)).map((c) => c.ticketId);
  if (ticketIds.length === 0) return 0;
  let query = trx
    .selectFrom('tickets as t')
    .innerJoin('users as u', (join) =>
      join.onRef('u.id', '=', 't.client_id').on('u.tenant_id', '=', tenantId),
    )
    .innerJoin('tenants as n', 'n.id', 't.tenant_id')
    .leftJoin('user_configs as c', (join) =>
      join
        .onRef('c.user_id', '=', 'u.id')
        .on('c.tenant_id', '=', tenantId)
        .on('c.name', '=', LANGUAGE_CONFIG),
    )
    .select([
      't.id',
      't.reference',
      't.description',
      't.operator_id',
      't.company_id',
      'u.id as client_id',
      'u.email',
      'u.full_name',
      'n.name as tenant_name',
      'c.value as language',
    ])
    .where('t.tenant_id', '=', tenantId)
    .where('t.id', 'in', [...new Set(ticketIds)])
    // Resolved already (closed to archived): it had its moment.
    .where('t.resolved_at', 'is', null)
    .where('t.is_template', '=', false)
    .where('u.email', 'is not', null)
    .where('u.archived_at', 'is', null)
    .where('u.is_staff', '=', false)
    .where('u.survey_opt_out', '=', false);
  if (mode.kind === 'types') query = query.where('t.ticket_type_id', 'in', mode.typeIds);
  const tickets = await query.orderBy('t.id').execute();
  let sent = 0;
  for (const ticket of tickets) {
    const token = randomToken();
    const language = mailLanguage(ticket.language) ?? 'nl';
    const made = await trx
      .insertInto('satisfaction_surveys')
      .values({
        tenant_id: tenantId,
        ticket_id: ticket.id,
        client_id: ticket.client_id,
        operator_id: ticket.operator_id,
        company_id: ticket.company_id,
        token_hash: tokenHash(token),
        scale,
        language,
        expires_at: new Date(Date.now() + SURVEY_LINK_DAYS * 86_400_000),
      })
      .onConflict((oc) => oc.columns(['tenant_id', 'ticket_id']).doNothing())
      .returning('id')
      .executeTakeFirst();
    if (!made) continue;
    const reference = String(ticket.reference ?? ticket.id);
    await enqueueMail(
      trx,
      surveyMail({
        to: String(ticket.email),
        name: ticket.full_name || String(ticket.email),
        tenantName: ticket.tenant_name,
        reference,
        about: ticket.description,
        scale,
        language,
        link: `${linkOrigin}/app/survey/${token}`,
        days: SURVEY_LINK_DAYS,
      }),
      { tenantId, source: 'satisfaction-surveys', sourceId: Number(made.id) },
    );
    sent++;
  }
  return sent;
}

/**
 * A merge closes the tickets it merges away, and that closing passed here as any other: those tickets
 * were not resolved for their client (their thread goes on in the kept ticket), so the merge takes back
 * their unanswered surveys and the mails not sent yet, in its own transaction (tickets/history.ts).
 */
export async function withdrawSurveys(
  trx: DbTransaction,
  tenantId: number,
  ticketIds: number[],
): Promise<void> {
  if (ticketIds.length === 0) return;
  const withdrawn = await trx
    .deleteFrom('satisfaction_surveys')
    .where('tenant_id', '=', tenantId)
    .where('ticket_id', 'in', ticketIds)
    .where('rated_at', 'is', null)
    .returning('id')
    .execute();
  if (withdrawn.length === 0) return;
  await trx
    .deleteFrom('mail_outbox')
    .where('tenant_id', '=', tenantId)
    .where('source', '=', 'satisfaction-surveys')
    .where(
      'source_id',
      'in',
      withdrawn.map((w) => w.id),
    )
    .where('status', '=', 'queued')
    .execute();
}
