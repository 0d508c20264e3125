import type { ResourceFolder } from '../folder-contract.ts';
import { ticketActions } from './actions.ts';
import { ticketBulkActions } from './bulk.ts';
import { ticketDashboard } from './dashboard.ts';
import { ticketHooks } from './hooks.ts';
import { ticketSlaRoute } from './sla.ts';

export default {
  // Templates are written through the tickets' hooks too (default status and the same checks).
  hooks: { tickets: ticketHooks, 'ticket-templates': ticketHooks },
  actions: [ticketActions, ticketDashboard, ticketBulkActions, ticketSlaRoute],
} satisfies ResourceFolder;
