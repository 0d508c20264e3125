/**
 * Queueing a webhook event (issue 38, item 4): one row of `webhook_deliveries` per webhook of the tenant
 * that subscribes to the event, written in the transaction of what caused it, as a mail is queued
 * (server/mail/enqueue.ts): an event rolled back is never delivered, a committed one always is. The
 * payload is fixed here, once, so every attempt sends the same body with the same event id; the
 * unique (webhook, event id) makes an event one delivery per webhook however often it is queued.
 *
 * `data` holds the ids of the records concerned and no content: the receiver reads what it needs
 * through the API with a token of its own, under that token's scopes (docs/webhooks.md).
 */
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import { WEBHOOK_PAYLOAD_VERSION, type WebhookEvent } from '../../../common/webhook-events.ts';

/** The workers of this process (one per app), told that rows were just queued. */
const listeners = new Set<() => void>();
export function onQueued(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function payloadOf(
  type: string,
  tenantId: number,
  data: Record<string, unknown>,
  id: string = randomUUID(),
): { id: string; body: string } {
  const body = JSON.stringify({
    id,
    type,
    version: WEBHOOK_PAYLOAD_VERSION,
    created_at: new Date().toISOString(),
    tenant: tenantId,
    data,
  });
  return { id, body };
}

/** Queues the event for each active webhook of the tenant subscribed to it; in `db`'s transaction. */
export async function webhookEvent(
  db: Db,
  tenantId: number,
  type: WebhookEvent,
  data: Record<string, unknown>,
): Promise<void> {
  const { id, body } = payloadOf(type, tenantId, data);
  // One statement: the subscribed webhooks chosen and their rows written together.
  const result = await sql`
    insert into webhook_deliveries (tenant_id, webhook_id, event_id, event, payload)
    select ${tenantId}, w.id, ${id}, ${type}, ${body}
    from webhooks w
    where w.tenant_id = ${tenantId} and w.active and w.disabled_at is null
      and w.events @> ${JSON.stringify([type])}::jsonb
    on conflict (webhook_id, event_id) do nothing`.execute(db);
  if (Number(result.numAffectedRows ?? 0) > 0) queued();
}

/**
 * The worker looks shortly after: the rows become visible when the caller's transaction commits, which
 * is soon; if it is later, the worker's poll finds them.
 */
function queued(): void {
  for (const listener of listeners) listener();
}
