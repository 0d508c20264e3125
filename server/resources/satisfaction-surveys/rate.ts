/**
 * A client's rating through the survey link (issue 39, item 3). The link is single use: the rating is
 * set by an update that claims the unanswered, unexpired row (`rated_at is null and expires_at > now()`),
 * so of two submits racing one wins and the other is told the survey was answered. In that transaction:
 * the ticket shows the rating (tickets.satisfaction), its history records it (by its client), a trigger
 * may act on it (automation event `survey_rated`), and a bad rating tells the ticket's operator and their
 * line (notification `survey_bad`) and, when the tenant chose so (`satisfaction_reopen`), reopens it.
 */
import { sql } from 'kysely';
import type { Db, DbTransaction } from '../../db/database.ts';
import type { Registry } from '../../schema/registry.ts';
import { systemContext } from '../../auth/context.ts';
import { tokenHash } from '../../auth/tokens.ts';
import { HttpError, ValidationError } from '../../http/errors.ts';
import { serverText } from '../../../common/server-texts.ts';
import { automationEvent } from '../../automation/events.ts';
import { lineOperators, notify } from '../notifications/notify.ts';
import { changeTickets } from '../tickets/change.ts';
import { userName } from '../tickets/history.ts';
import { defaultStatusId } from '../tickets/start.ts';
import { CLOSED, ARCHIVED } from '../tickets/resolved.ts';
import { reopenOnBadRating, sentimentOf, type SurveyScale } from './settings.ts';

export const SURVEY_LINK_INVALID = serverText('survey_link_invalid');
export const SURVEY_ANSWERED = serverText('survey_answered');
export const SURVEY_RATING_INVALID = serverText('survey_rating_invalid');

/** What the survey page shows: the ticket it is about, the scale, and the rating once given. */
export interface SurveyView {
  reference: string;
  description: string;
  tenant: string;
  scale: SurveyScale;
  language: string;
  rating: number | null;
  rated: boolean;
}

/** An unknown (forged, altered) or expired link: 404, the same for both, so neither tells which. */
const invalidLink = () => new HttpError(404, SURVEY_LINK_INVALID);

async function surveyByToken(db: Db, tenantId: number, token: string) {
  return db
    .selectFrom('satisfaction_surveys as s')
    .innerJoin('tickets as t', (join) =>
      join.onRef('t.id', '=', 's.ticket_id').on('t.tenant_id', '=', tenantId),
    )
    .innerJoin('tenants as n', 'n.id', 's.tenant_id')
    .select([
      's.id',
      's.scale',
      's.language',
      's.rating',
      's.rated_at',
      's.expires_at',
      't.reference',
      't.id as ticket_id',
      't.description',
      'n.name as tenant',
    ])
    .where('s.tenant_id', '=', tenantId)
    .where('s.token_hash', '=', tokenHash(token))
    .executeTakeFirst();
}

export async function viewSurvey(db: Db, tenantId: number, token: string): Promise<SurveyView> {
  const survey = await surveyByToken(db, tenantId, token);
  if (!survey) throw invalidLink();
  const rated = survey.rated_at !== null;
  // An answered survey still says so (the page thanks its holder); an unanswered one that expired is gone.
  if (!rated && new Date(survey.expires_at).getTime() <= Date.now()) throw invalidLink();
  return {
    reference: String(survey.reference ?? survey.ticket_id),
    description: survey.description,
    tenant: survey.tenant,
    scale: survey.scale === 5 ? 5 : 3,
    language: survey.language,
    rating: survey.rating,
    rated,
  };
}

export interface RatingInput {
  rating: number;
  comment?: string | null;
}

/** Rates the survey of `token`; answers its view. 404 for an unknown or expired link, 422 when answered. */
export async function rateSurvey(
  db: Db,
  registry: Registry,
  tenantId: number,
  token: string,
  input: RatingInput,
): Promise<SurveyView> {
  const found = await surveyByToken(db, tenantId, token);
  if (!found) throw invalidLink();
  const scale: SurveyScale = found.scale === 5 ? 5 : 3;
  if (!Number.isInteger(input.rating) || input.rating < 1 || input.rating > scale)
    throw new ValidationError({ rating: [SURVEY_RATING_INVALID] }, SURVEY_RATING_INVALID);
  const sentiment = sentimentOf(scale, input.rating);
  const comment = input.comment?.trim() ? input.comment.trim() : null;
  await db.transaction().execute(async (trx) => {
    const claimed = await trx
      .updateTable('satisfaction_surveys')
      .set({ rating: input.rating, sentiment, comment, rated_at: sql`now()` })
      .where('id', '=', found.id)
      .where('tenant_id', '=', tenantId)
      .where('rated_at', 'is', null)
      .where('expires_at', '>', sql<Date>`now()`)
      .returning(['ticket_id', 'client_id'])
      .executeTakeFirst();
    if (!claimed) {
      const again = await surveyByToken(trx, tenantId, token);
      if (again?.rated_at) throw new ValidationError({ token: [SURVEY_ANSWERED] }, SURVEY_ANSWERED);
      throw invalidLink();
    }
    await ratedTicket(trx, registry, tenantId, Number(claimed.ticket_id), claimed.client_id, {
      rating: input.rating,
      scale,
      sentiment,
    });
  });
  return viewSurvey(db, tenantId, token);
}

const SENTIMENT_NL = { good: 'Goed', neutral: 'Neutraal', bad: 'Slecht' } as const;

async function ratedTicket(
  trx: DbTransaction,
  registry: Registry,
  tenantId: number,
  ticketId: number,
  clientId: number | null,
  rated: { rating: number; scale: SurveyScale; sentiment: 'good' | 'neutral' | 'bad' },
): Promise<void> {
  const ticket = await trx
    .updateTable('tickets')
    .set({ satisfaction: rated.sentiment })
    .where('tenant_id', '=', tenantId)
    .where('id', '=', ticketId)
    .returning(['operator_id', 'status_id'])
    .executeTakeFirst();
  if (!ticket) return;
  // The history names the rating as the scale has it (like a status's name, kept in Dutch).
  const label = rated.scale === 3 ? SENTIMENT_NL[rated.sentiment] : `${rated.rating} / 5`;
  await trx
    .insertInto('ticket_changes')
    .values({
      tenant_id: tenantId,
      ticket_id: ticketId,
      user_id: clientId,
      user_label: userName(trx, clientId),
      field: 'satisfaction',
      from_value: null,
      to_value: rated.sentiment,
      from_label: null,
      to_label: label,
    })
    .execute();
  if (rated.sentiment === 'bad') {
    await notifyBadRating(trx, tenantId, ticketId, ticket.operator_id);
    if (await reopenOnBadRating(trx, tenantId))
      await reopen(trx, registry, tenantId, ticketId, ticket.status_id);
  }
  await automationEvent(trx, { tenantId, event: 'survey_rated', ticketId });
}

/**
 * The ticket's operator and the active operators of their line (first or second); an operator who has
 * left (archived) is not told, their line still is. A ticket without an operator tells the line that
 * takes unassigned work (the first, else the second), as a client's reply on such a ticket does.
 */
async function notifyBadRating(
  trx: DbTransaction,
  tenantId: number,
  ticketId: number,
  operatorId: number | null,
): Promise<void> {
  let to: number[];
  const operator =
    operatorId === null
      ? undefined
      : await trx
          .selectFrom('users')
          .select(['id', 'is_operator', 'archived_at'])
          .where('tenant_id', '=', tenantId)
          .where('id', '=', operatorId)
          .where('is_staff', '=', true)
          .executeTakeFirst();
  if (operator) {
    const line = await trx
      .selectFrom('users')
      .select('id')
      .where('tenant_id', '=', tenantId)
      .where('is_staff', '=', true)
      .where('archived_at', 'is', null)
      .where('is_operator', '=', operator.is_operator)
      .execute();
    to = [...(operator.archived_at === null ? [Number(operator.id)] : []), ...line.map((u) => Number(u.id))];
  } else to = await lineOperators(trx, tenantId);
  await notify(
    trx,
    [...new Set(to)].map((userId) => ({
      tenantId,
      userId,
      kind: 'survey_bad' as const,
      ticketId,
      dedupeKey: `survey_bad:${ticketId}`,
    })),
  );
}

/** Back to the status a new ticket starts in, as `restore` does, by no one (the tenant's rule). */
async function reopen(
  trx: DbTransaction,
  registry: Registry,
  tenantId: number,
  ticketId: number,
  statusId: number,
): Promise<void> {
  const type = await trx
    .selectFrom('ticket_statuses')
    .select('internal_type')
    .where('tenant_id', '=', tenantId)
    .where('id', '=', statusId)
    .executeTakeFirst();
  if (type?.internal_type !== CLOSED && type?.internal_type !== ARCHIVED) return;
  const auth = systemContext(tenantId);
  const status = await defaultStatusId({ trx, auth });
  if (status === null) return;
  await changeTickets(trx, registry, auth, registry.require('tickets'), [ticketId], { status_id: status });
}

/**
 * The link's holder asks for no more surveys: its client is opted out (users.survey_opt_out), for as long
 * as the link works (answered or not). 404 as for viewing.
 */
export async function optOut(db: Db, tenantId: number, token: string): Promise<{ opted_out: true }> {
  const done = await db
    .updateTable('users')
    .set({ survey_opt_out: true, updated_at: sql`now()` })
    .where('tenant_id', '=', tenantId)
    .where('id', '=', (eb) =>
      eb
        .selectFrom('satisfaction_surveys')
        .select('client_id')
        .where('tenant_id', '=', tenantId)
        .where('token_hash', '=', tokenHash(token))
        .where('expires_at', '>', sql<Date>`now()`),
    )
    .returning('id')
    .executeTakeFirst();
  if (!done) throw invalidLink();
  return { opted_out: true };
}
