/**
 * Where the desk's events meet its triggers (issue 37): the paths that make an event (a ticket stored or
 * changed, a message, an inbound mail, an SLA warning or breach) call `automationEvent` in their own
 * transaction, and the engine (server/automation/triggers.ts) is plugged in here when the
 * automation-rules folder loads. A leaf module on purpose: the ticket and message hooks import this, the
 * engine imports the tickets' and messages' functions, and an import of the engine from the hooks would
 * close that circle (tests/unit/import-cycles.test.ts).
 */
import type { DbTransaction } from '../db/database.ts';
import type { StoredMessage } from '../resources/messages/stored.ts';

export const AUTOMATION_EVENTS = [
  'ticket_created',
  'ticket_updated',
  'client_message',
  'operator_message',
  'mail_received',
  'sla_warning',
  'sla_breach',
  'survey_rated',
] as const;

export type AutomationEvent = (typeof AUTOMATION_EVENTS)[number];

export interface EventFacts {
  tenantId: number;
  event: AutomationEvent;
  ticketId: number;
  /** ticket_updated: the ticket fields the change set. */
  fields?: readonly string[];
  /** client_message, operator_message: the message. */
  messageId?: number;
}

type Engine = (trx: DbTransaction, facts: EventFacts) => Promise<void>;

let engine: Engine | undefined;

/**
 * The ticket fields an update is setting, noted before the update (the hook that sees them) for the
 * event after it (the hook that sees the stored ticket): per transaction, so nothing outlives it.
 */
const settingFields = new WeakMap<DbTransaction, Map<number, Set<string>>>();

/** Notes the fields an update of the ticket sets (before it), for its ticket_updated event. */
export function noteTicketFields(trx: DbTransaction, ticketId: number, fields: readonly string[]): void {
  const byTicket = settingFields.get(trx) ?? new Map<number, Set<string>>();
  settingFields.set(trx, byTicket);
  byTicket.set(ticketId, new Set([...(byTicket.get(ticketId) ?? []), ...fields]));
}

/** The ticket_updated event of an update whose fields were noted (and forgets them). */
export async function ticketUpdated(trx: DbTransaction, tenantId: number, ticketId: number): Promise<void> {
  const byTicket = settingFields.get(trx);
  const fields = [...(byTicket?.get(ticketId) ?? [])];
  byTicket?.delete(ticketId);
  await automationEvent(trx, { tenantId, event: 'ticket_updated', ticketId, fields });
}

/**
 * The ticket_updated events of a change made beside the generic update (the bulk bar, a macro): one per
 * ticket, in id order, with the fields the change set on it, as an edit of that ticket would fire.
 */
export async function ticketsUpdated(
  trx: DbTransaction,
  tenantId: number,
  changes: readonly { ticketId: number; field?: string }[],
): Promise<void> {
  const byTicket = new Map<number, Set<string>>();
  for (const { ticketId, field } of changes) {
    if (!field) continue;
    byTicket.set(ticketId, (byTicket.get(ticketId) ?? new Set()).add(field));
  }
  for (const [ticketId, fields] of [...byTicket].sort(([a], [b]) => a - b))
    await automationEvent(trx, { tenantId, event: 'ticket_updated', ticketId, fields: [...fields] });
}

/** The engine that runs the triggers; set once, at start. */
export function setAutomationEngine(run: Engine): void {
  engine = run;
}

/** Others that hear every event in its transaction (the webhooks queue their deliveries): set at start. */
const listeners = new Set<Engine>();
export function listenToEvents(listener: Engine): void {
  listeners.add(listener);
}

/** Runs the tenant's triggers for the event, in the caller's transaction (nothing before the engine is set). */
export async function automationEvent(trx: DbTransaction, facts: EventFacts): Promise<void> {
  await engine?.(trx, facts);
  for (const listener of listeners) await listener(trx, facts);
}

/**
 * The event of a message just stored on a ticket through the messages' hooks: a client's message or an
 * operator's (a status-changed line of the thread is no message anyone wrote: no event).
 */
export async function messageAdded(
  trx: DbTransaction,
  tenantId: number,
  message: StoredMessage,
): Promise<void> {
  if (message.morphable_type !== 'ticket' || message.type !== 'normal') return;
  const event = message.is_from_client ? 'client_message' : 'operator_message';
  const messageId = Number(message.id);
  await automationEvent(trx, { tenantId, event, ticketId: Number(message.morphable_id), messageId });
}
