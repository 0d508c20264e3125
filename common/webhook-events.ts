/**
 * The events a webhook may subscribe to (issue 38, item 4): the one list. schemas/webhooks.json's
 * `events` enum and webhook-deliveries' `event` enum repeat it (a schema is data, it cannot import
 * this); tests/unit/webhook-events.test.ts fails when they differ. `ping` is the "send test event"
 * action's event: delivered to the one webhook it is sent to, never subscribed to.
 */
export const WEBHOOK_EVENTS = [
  'ticket.created',
  'ticket.updated',
  'message.created',
  'sla.warning',
  'sla.breached',
  'quote.accepted',
  'invoice.created',
] as const;

export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

export const WEBHOOK_TEST_EVENT = 'ping';

/** The payload's `version`: a receiver can tell a later shape of `data` from this one. */
export const WEBHOOK_PAYLOAD_VERSION = 1;
