/**
 * A webhook that failed WEBHOOK_MAX_FAILURES times in a row is disabled (issue 38, item 4): no event is
 * queued for it and its queued deliveries wait, until someone sets `active` again (hooks.ts clears the
 * state). Second-line operators, who manage webhooks, each get a notification in the app, once per
 * disabling (its dedupe key), in the transaction that disables it.
 */
import { sql } from 'kysely';
import type { DbTransaction } from '../../db/database.ts';
import { recordEvent } from '../../live/events.ts';

const SECOND_LINE = 2;

export async function disableWebhook(
  trx: DbTransaction,
  tenantId: number,
  webhookId: number,
  failures: number,
  lastError: string,
): Promise<void> {
  const reason = `Disabled after ${failures} failed attempts in a row; the last: ${lastError}`.slice(0, 500);
  const disabled = await trx
    .updateTable('webhooks')
    .set({ active: false, disabled_at: sql`now()`, disabled_reason: reason, updated_at: sql`now()` })
    .where('id', '=', webhookId)
    .where('disabled_at', 'is', null)
    .returning('name')
    .executeTakeFirst();
  if (!disabled) return;
  const operators = await trx
    .selectFrom('users')
    .select('id')
    .where('tenant_id', '=', tenantId)
    .where('is_staff', '=', true)
    .where('is_operator', '=', SECOND_LINE)
    .where('archived_at', 'is', null)
    .execute();
  // The update above succeeds once per disabling: the moment tells one disabling from the next.
  const at = Date.now();
  for (const { id } of operators) {
    await trx
      .insertInto('notifications')
      .values({
        tenant_id: tenantId,
        user_id: Number(id),
        kind: 'webhook_disabled',
        text: `${disabled.name}: ${reason}`.slice(0, 1000),
        dedupe_key: `webhook-disabled:${webhookId}:${at}`,
      })
      .onConflict((oc) => oc.columns(['tenant_id', 'user_id', 'dedupe_key']).doNothing())
      .execute();
    await recordEvent(trx, { tenantId, kind: 'notifications', userId: Number(id) });
  }
}
