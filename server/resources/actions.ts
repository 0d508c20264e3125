/**
 * The calls of SPEC 7 beyond the generic CRUD routes (accept a quote, buy a prepaid card, …): each
 * lives in its resource's folder as a Fastify plugin and is listed here, so app.ts registers them all.
 * Their contract (ActionPlugin, ActionOptions) is in action-contract.ts.
 */
import type { FastifyInstance } from 'fastify';
import type { ActionOptions, ActionPlugin } from './action-contract.ts';
import { contractActions } from './contracts/actions.ts';
import { invoiceActions } from './invoices/actions.ts';
import { quoteActions } from './quotes/actions.ts';
import { attachmentActions } from './attachments/actions.ts';
import { messageActions } from './messages/actions.ts';
import { messageSenderActions } from './messages/sender-check.ts';
import { ticketActions } from './tickets/actions.ts';
import { ticketDashboard } from './tickets/dashboard.ts';
import { ticketBulkActions } from './tickets/bulk.ts';
import { companyActions } from './companies/actions.ts';
import { ticketGroupActions } from './ticket-groups/actions.ts';
import { invoiceLineActions } from './invoicing/lines.ts';
import { invoicingActions } from './invoicing/actions.ts';
import { invoicingCollection } from './invoicing/collection.ts';
import { timeRegistrationActions } from './time-registrations/actions.ts';
import { mailOutboxActions } from './mail-outbox/actions.ts';
import { notificationActions } from './notifications/actions.ts';

export const actionPlugins: ActionPlugin[] = [
  quoteActions,
  contractActions,
  invoiceActions,
  attachmentActions,
  messageActions,
  messageSenderActions,
  ticketActions,
  ticketDashboard,
  ticketBulkActions,
  companyActions,
  ticketGroupActions,
  invoiceLineActions,
  invoicingActions,
  invoicingCollection,
  timeRegistrationActions,
  mailOutboxActions,
  notificationActions,
];

export async function resourceActions(app: FastifyInstance, options: ActionOptions): Promise<void> {
  for (const plugin of actionPlugins) await app.register(plugin, options);
}
