/**
 * What the write paths call to keep a ticket's stored SLA clock equal to its full recompute (issue 35,
 * item 3), in their own transaction and after their writes: the ticket hooks (create, update), the
 * status moves, merges and bulk changes (server/resources/tickets), a released held mail, and a
 * message stored, edited or deleted on a ticket (server/resources/messages). What a change makes due
 * (a breach at once after a priority was raised) is told and acted on at once too (./measure.ts).
 */
import { sql } from 'kysely';
import type { DbTransaction } from '../db/database.ts';
import { markForRecheck } from './recheck.ts';
import { measureTickets } from './measure.ts';
import type { StoredMessage } from '../resources/messages/stored.ts';

/** Measures and stores the clocks of tickets `ids` of the tenant now, and tells what they reached. */
export async function keepTicketClocks(
  trx: DbTransaction,
  tenantId: number,
  ids: readonly number[],
): Promise<void> {
  await measureTickets(trx, tenantId, ids, Date.now());
}

/** Where a message is: the ticket's id when it is on one. */
type MessagePlace = Pick<StoredMessage, 'morphable_type' | 'morphable_id'>;
const ticketOf = (message: MessagePlace | undefined) =>
  message?.morphable_type === 'ticket' ? Number(message.morphable_id) : null;

async function ticketOfMessage(
  trx: DbTransaction,
  tenantId: number,
  messageId: number,
): Promise<number | null> {
  const message = await trx
    .selectFrom('messages')
    .select(['morphable_type', 'morphable_id'])
    .where('tenant_id', '=', tenantId)
    .where('id', '=', messageId)
    .executeTakeFirst();
  return ticketOf(message);
}

/** A message was stored (as its insert returned it): its ticket's clock (a reply may meet or start a target). */
export async function keepStoredMessageClock(
  trx: DbTransaction,
  tenantId: number,
  message: MessagePlace,
): Promise<void> {
  const ticketId = ticketOf(message);
  if (ticketId !== null) await keepTicketClocks(trx, tenantId, [ticketId]);
}

/** A message was changed (shown to the client or not): its ticket's clock. */
export async function keepMessageClock(
  trx: DbTransaction,
  tenantId: number,
  messageId: number,
): Promise<void> {
  const ticketId = await ticketOfMessage(trx, tenantId, messageId);
  if (ticketId !== null) await keepTicketClocks(trx, tenantId, [ticketId]);
}

/**
 * A message is about to be deleted (it still counts until it is gone): its ticket is marked for the
 * background pass, which measures it without the message.
 */
export async function markMessageClock(
  trx: DbTransaction,
  tenantId: number,
  messageId: number,
): Promise<void> {
  const ticketId = await ticketOfMessage(trx, tenantId, messageId);
  if (ticketId !== null) await markForRecheck(trx, tenantId, sql<boolean>`id = ${ticketId}`);
}
