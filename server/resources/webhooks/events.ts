/**
 * Which desk events become which webhook events. The ticket, message and SLA events are heard where
 * the automation hears them (server/automation/events.ts: every path that makes one calls it, in its
 * own transaction), so a ticket made by the API, a mail or a bulk change is one event either way. A
 * quote accepted and an invoice created are queued by the code that does them (quotes/decide.ts,
 * invoices' hooks and invoicing/lines.ts), with `webhookEvent` of enqueue.ts.
 */
import { listenToEvents, type EventFacts } from '../../automation/events.ts';
import type { WebhookEvent } from '../../../common/webhook-events.ts';
import { webhookEvent } from './enqueue.ts';

const BY_AUTOMATION: Partial<Record<EventFacts['event'], WebhookEvent>> = {
  ticket_created: 'ticket.created',
  ticket_updated: 'ticket.updated',
  client_message: 'message.created',
  operator_message: 'message.created',
  sla_warning: 'sla.warning',
  sla_breach: 'sla.breached',
};

let listening = false;

export function listenToDeskEvents(): void {
  if (listening) return;
  listening = true;
  listenToEvents(async (trx, facts) => {
    const type = BY_AUTOMATION[facts.event];
    if (!type) return;
    const data: Record<string, unknown> = { ticket_id: facts.ticketId };
    if (type === 'ticket.updated') data.fields = [...(facts.fields ?? [])];
    if (type === 'message.created') {
      data.message_id = facts.messageId ?? null;
      data.from_client = facts.event === 'client_message';
    }
    await webhookEvent(trx, facts.tenantId, type, data);
  });
}
