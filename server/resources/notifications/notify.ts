/**
 * What an operator is told (issue 19, item 3), decided here and written in the transaction of its
 * cause, so a message or ticket made by any path (the API, a mail fetched from a mailbox, a bulk
 * change) notifies the same way:
 *
 * - `client_reply`: a client's message on a ticket: to its operator, or, when it has none, to every
 *   first-line operator (the first line takes what nobody holds; second line only when the tenant has
 *   no first-line operator);
 * - `mention`: an operator's message that mentions an operator with '@' (the editor's
 *   `<span data-type="mention" data-id="…">`), to each one mentioned but the writer;
 * - `assigned`: a ticket given to an operator by someone else (created so, or its operator changed);
 * - `deadline_soon` / `deadline_passed`: the periodic check (deadlines.ts), once per ticket, kind and
 *   deadline value (`dedupe_key`), however many instances look.
 *
 * In the app always (the bell's count is a live event); by e-mail when the operator chose so for that
 * kind (notification_preferences), through the mail outbox in the same transaction.
 */
import { sql } from 'kysely';
import type { DbTransaction } from '../../db/database.ts';
import { enqueueMail } from '../../mail/enqueue.ts';
import { ticketMessageId } from '../../mail/reply-token.ts';
import { LANGUAGE_CONFIG } from '../../../common/language-config.ts';
import { recordEvent } from '../../live/events.ts';
import type { StoredMessage } from '../messages/stored.ts';
import type { AuthContext } from '../../auth/context.ts';
import type { Resource } from '../../../common/schema/types.ts';
import { readableFieldsFor } from '../../../common/schema/fields.ts';
import { mailLanguage, NOTIFICATION_KINDS, type NotificationKind, notificationMailText } from './kinds.ts';

export { NOTIFICATION_KINDS, type NotificationKind };

export interface NewNotification {
  tenantId: number;
  userId: number;
  kind: NotificationKind;
  ticketId: number;
  messageId?: number;
  actorId?: number | null;
  /** Makes the notification one row however often it is made (the deadline check). */
  dedupeKey?: string;
  /** Its own words, where its kind has none fixed (a rule's `notify` action). */
  text?: string;
}

/** Where links in notification mails point: PUBLIC_URL when set (the plugin sets it), else a path. */
let linkOrigin = '';
export function setNotificationLinkOrigin(origin: string | undefined): void {
  linkOrigin = origin ?? '';
}

/** Writes the notifications (the ones already made are skipped), their count events and mails. */
export async function notify(trx: DbTransaction, notifications: NewNotification[]): Promise<number> {
  let made = 0;
  for (const n of notifications) {
    const row = await trx
      .insertInto('notifications')
      .values({
        tenant_id: n.tenantId,
        user_id: n.userId,
        kind: n.kind,
        ticket_id: n.ticketId,
        message_id: n.messageId ?? null,
        actor_id: n.actorId ?? null,
        dedupe_key: n.dedupeKey ?? null,
        text: n.text ?? null,
      })
      .onConflict((oc) => oc.columns(['tenant_id', 'user_id', 'dedupe_key']).doNothing())
      .returning('id')
      .executeTakeFirst();
    if (!row) continue;
    made++;
    await recordEvent(trx, { tenantId: n.tenantId, kind: 'notifications', userId: n.userId });
    await mailIfChosen(trx, n);
  }
  return made;
}

async function mailIfChosen(trx: DbTransaction, n: NewNotification): Promise<void> {
  const chosen = await trx
    .selectFrom('notification_preferences as p')
    .innerJoin('users as u', 'u.id', 'p.user_id')
    .innerJoin('tickets as t', (join) => join.on('t.id', '=', n.ticketId).on('t.tenant_id', '=', n.tenantId))
    .leftJoin('user_configs as c', (join) =>
      join
        .onRef('c.user_id', '=', 'u.id')
        .on('c.tenant_id', '=', n.tenantId)
        .on('c.name', '=', LANGUAGE_CONFIG),
    )
    .select(['u.email', 't.reference', 't.description', 'c.value as language'])
    .where('p.tenant_id', '=', n.tenantId)
    .where('p.user_id', '=', n.userId)
    .where('p.kind', '=', n.kind)
    .where('p.email', '=', true)
    .where('u.archived_at', 'is', null)
    .executeTakeFirst();
  if (!chosen?.email) return;
  const reference = String(chosen.reference ?? n.ticketId);
  const link = `${linkOrigin}/tickets/${n.ticketId}`;
  const text = notificationMailText(
    n.kind,
    reference,
    String(chosen.description ?? ''),
    link,
    mailLanguage(chosen.language),
    n.text,
  );
  await enqueueMail(
    trx,
    {
      to: String(chosen.email),
      subject: text.subject,
      text: text.body,
      // The ticket's reply token (issue 31): the operator's answer by mail joins the ticket as a note.
      messageId: await ticketMessageId(trx, n.tenantId, n.ticketId, String(chosen.email)),
    },
    { tenantId: n.tenantId, source: 'notifications' },
  );
}

const OPERATOR = { first: 1, second: 2 };

/** The operators a client's reply on an unassigned ticket goes to: the first line, else the second. */
export async function lineOperators(trx: DbTransaction, tenantId: number): Promise<number[]> {
  const rows = await trx
    .selectFrom('users')
    .select(['id', 'is_operator'])
    .where('tenant_id', '=', tenantId)
    .where('is_staff', '=', true)
    .where('archived_at', 'is', null)
    .where('is_operator', 'in', [OPERATOR.first, OPERATOR.second])
    .execute();
  const first = rows.filter((r) => Number(r.is_operator) === OPERATOR.first);
  return (first.length ? first : rows).map((r) => Number(r.id));
}

/** The operator ids a message's HTML mentions (the editor's mention spans), as written. */
export function mentionedIds(html: string): number[] {
  const ids = new Set<number>();
  for (const span of html.matchAll(/<span\b[^>]*>/g)) {
    const tag = span[0];
    if (!/data-type="mention"/.test(tag)) continue;
    const id = /data-id="(\d{1,10})"/.exec(tag);
    if (id) ids.add(Number(id[1]));
  }
  return [...ids];
}

/**
 * A message was stored (any path): it is announced to the streams, its ticket too (the list shows
 * the latest activity), and the operators it concerns are notified. An internal note changes its
 * ticket for operators only: a client's stream is not even told that the ticket changed.
 */
export async function messageStored(
  trx: DbTransaction,
  auth: AuthContext,
  message: StoredMessage,
): Promise<void> {
  const tenantId = auth.tenantId;
  const id = Number(message.id);
  await recordEvent(trx, { tenantId, kind: 'message.created', recordId: id });
  if (message.morphable_type !== 'ticket') return;
  const ticketId = Number(message.morphable_id);
  const ticket = await trx
    .selectFrom('tickets')
    .select(['operator_id'])
    .where('tenant_id', '=', tenantId)
    .where('id', '=', ticketId)
    .executeTakeFirst();
  if (!ticket) return;
  await ticketsChanged(trx, tenantId, [ticketId], message.visible_to_client ? 'everyone' : 'operators');
  const actorId = message.actor_id === null ? auth.userId : Number(message.actor_id);
  const base = { tenantId, ticketId, messageId: id, actorId };
  if (message.is_from_client) {
    const to =
      ticket.operator_id === null ? await lineOperators(trx, tenantId) : [Number(ticket.operator_id)];
    await notify(
      trx,
      to.map((userId) => ({ ...base, userId, kind: 'client_reply' as const })),
    );
    return;
  }
  const mentioned = mentionedIds(String(message.message)).filter((m) => m !== actorId);
  if (mentioned.length === 0) return;
  // Only this tenant's operators can be mentioned: an id of anyone else is ignored.
  const operators = await trx
    .selectFrom('users')
    .select('id')
    .where('tenant_id', '=', tenantId)
    .where('is_staff', '=', true)
    .where('archived_at', 'is', null)
    .where('id', 'in', mentioned)
    .execute();
  await notify(
    trx,
    operators.map((o) => ({ ...base, userId: Number(o.id), kind: 'mention' as const })),
  );
}

/**
 * A ticket was created with operator `operatorId` (as its insert stored it): announced, and its
 * operator told when someone else gave it to them.
 */
export async function ticketStored(
  trx: DbTransaction,
  auth: AuthContext,
  id: number,
  operatorId: unknown,
): Promise<void> {
  await recordEvent(trx, { tenantId: auth.tenantId, kind: 'ticket.created', recordId: id });
  await assigned(trx, auth, id, operatorId);
}

/** Tickets `ids` are about to get operator `operatorId` (an update, a bulk change): who is told. */
export async function operatorChanging(
  trx: DbTransaction,
  auth: AuthContext,
  ids: number[],
  operatorId: unknown,
): Promise<void> {
  if (ids.length === 0 || operatorId === null || operatorId === undefined) return;
  const next = Number(operatorId);
  if (!Number.isSafeInteger(next)) return;
  const changing = await trx
    .selectFrom('tickets')
    .select('id')
    .where('tenant_id', '=', auth.tenantId)
    .where('id', 'in', ids)
    .where(sql<boolean>`operator_id is distinct from ${next}`)
    .execute();
  for (const t of changing) await assigned(trx, auth, Number(t.id), next);
}

async function assigned(trx: DbTransaction, auth: AuthContext, ticketId: number, operatorId: unknown) {
  if (operatorId === null || operatorId === undefined) return;
  const userId = Number(operatorId);
  if (userId === auth.userId || !Number.isSafeInteger(userId)) return;
  // Not one of this tenant's operators: the change itself is refused (422) by its own checks.
  const operator = await trx
    .selectFrom('users')
    .select('id')
    .where('tenant_id', '=', auth.tenantId)
    .where('id', '=', userId)
    .where('is_staff', '=', true)
    .executeTakeFirst();
  if (!operator) return;
  await notify(trx, [{ tenantId: auth.tenantId, userId, kind: 'assigned', ticketId, actorId: auth.userId }]);
}

/**
 * Tickets `ids` changed: announced to the streams of everyone who may read them, or, for a change only
 * operators see (an internal note, a field the portal does not show), to operators' streams only.
 */
export async function ticketsChanged(
  trx: DbTransaction,
  tenantId: number,
  ids: number[],
  seenBy: 'everyone' | 'operators' = 'everyone',
): Promise<void> {
  const kind = seenBy === 'everyone' ? 'ticket.changed' : 'ticket.changed.internal';
  for (const id of ids) await recordEvent(trx, { tenantId, kind, recordId: id });
}

/**
 * Who sees a change of these columns of `resource`'s record: everyone who may read it when the portal
 * reads one of them (or nothing says which changed), else operators only.
 */
export function changeSeenBy(resource: Resource, columns: string[]): 'everyone' | 'operators' {
  if (columns.length === 0) return 'everyone';
  if (!resource.portal) return 'operators';
  const shown = new Set(readableFieldsFor(resource, true).map((f) => f.column));
  return columns.some((c) => shown.has(c)) ? 'everyone' : 'operators';
}
