/**
 * Before a merge moves the merged tickets' messages and history to the kept ticket, each row notes the
 * ticket it came from (`merged_from`, migration 0033), once: a row moved again by a later merge keeps
 * its first origin. The SLA clock reads a ticket's own rows by it (./ticket-events.ts), so the kept
 * ticket's clock does not replay what happened on the others, and theirs still knows their replies.
 */
import { sql } from 'kysely';
import type { DbTransaction } from '../db/database.ts';

export async function noteMergedOrigins(
  trx: DbTransaction,
  tenantId: number,
  merged: number[],
): Promise<void> {
  if (merged.length === 0) return;
  await trx
    .updateTable('messages')
    .set({ merged_from: sql`morphable_id` })
    .where('tenant_id', '=', tenantId)
    .where('morphable_type', '=', 'ticket')
    .where('morphable_id', 'in', merged)
    .where('merged_from', 'is', null)
    .execute();
  await trx
    .updateTable('ticket_changes')
    .set({ merged_from: sql`ticket_id` })
    .where('tenant_id', '=', tenantId)
    .where('ticket_id', 'in', merged)
    .where('merged_from', 'is', null)
    .execute();
}
