/**
 * What an operator does to a message stays visible (issue 18, item 5). An edit that changes its text or
 * subject sets `edited_at`, which the thread shows as "edited" with the time (updated_at is no such
 * mark: the mail outbox moves it too). A client's message is never deleted by an operator: the delete
 * is refused (docs/decisions.md), since a removal would leave no trace of what the client wrote; what
 * may not stay (a password a client pasted) is edited out instead, and shows as edited. Any other
 * message deleted from a ticket leaves an entry in the ticket's history: whose message it was, its
 * opening words.
 */
import { sql } from 'kysely';
import type { DbTransaction } from '../../db/database.ts';
import type { AuthContext } from '../../auth/context.ts';
import { ValidationError } from '../../http/errors.ts';
import { isPortalCaller } from '../../query/visibility.ts';
import { registry } from '../../schema/registry.ts';
import type { HookContext } from '../hook-contract.ts';
import { MESSAGE_DELETED, writeHistory } from '../tickets/history.ts';
import { serverText } from '../../../common/server-texts.ts';

/** The opening words a deleted message leaves in the history. */
const EXCERPT_LENGTH = 120;

/** The text of a message's HTML, its whitespace collapsed, cut at EXCERPT_LENGTH. */
export function excerpt(html: string): string {
  const text = html
    .replace(/<[^>]*>/g, ' ')
    .replace(/&nbsp;/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .trim();
  return text.length > EXCERPT_LENGTH ? `${text.slice(0, EXCERPT_LENGTH - 1)}…` : text;
}

/** Sets `edited_at` when an update changes the message's text or subject (not when it sends the same). */
export async function markEdited(
  trx: DbTransaction,
  auth: AuthContext,
  id: number,
  changes: Record<string, unknown>,
): Promise<void> {
  if (!('message' in changes) && !('description' in changes)) return;
  const current = await trx
    .selectFrom('messages')
    .select(['message', 'description'])
    .where('tenant_id', '=', auth.tenantId)
    .where('id', '=', id)
    .executeTakeFirst();
  const differs = (name: 'message' | 'description') =>
    name in changes && (changes[name] ?? null) !== (current?.[name] ?? null);
  if (differs('message') || differs('description')) changes.edited_at = sql`now()`;
}

/** beforeDestroy: a client's message stays (422); another message on a ticket leaves a history entry. */
export async function keepClientMessages(id: number, { trx, auth }: HookContext): Promise<void> {
  const message = await trx
    .selectFrom('messages as m')
    .leftJoin('users as u', 'u.id', 'm.actor_id')
    .select(['m.is_from_client', 'm.morphable_type', 'm.morphable_id', 'm.message', 'u.full_name'])
    .where('m.tenant_id', '=', auth.tenantId)
    .where('m.id', '=', id)
    .executeTakeFirst();
  if (!message) return;
  if (message.is_from_client && !isPortalCaller(auth)) {
    throw new ValidationError(
      { is_from_client: [serverText('client_message_kept')] },
      serverText('client_message_kept'),
    );
  }
  if (message.morphable_type !== 'ticket') return;
  const author = message.full_name ? `${String(message.full_name)}: ` : '';
  await writeHistory(trx, registry(), auth, [
    {
      ticketId: Number(message.morphable_id),
      field: MESSAGE_DELETED,
      from: String(id),
      to: null,
      fromLabel: `${author}${excerpt(String(message.message ?? ''))}`,
      toLabel: null,
    },
  ]);
}
