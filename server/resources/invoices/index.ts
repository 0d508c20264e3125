import type { ResourceFolder } from '../folder-contract.ts';
import { webhookEvent } from '../webhooks/enqueue.ts';
import { invoiceActions } from './actions.ts';

export default {
  // An invoice made through the API; a draft made by invoicing lines is queued where it is made.
  hooks: {
    invoices: {
      async afterStore(id, { trx, auth }) {
        await webhookEvent(trx, auth.tenantId, 'invoice.created', { invoice_id: id });
      },
    },
  },
  actions: [invoiceActions],
} satisfies ResourceFolder;
