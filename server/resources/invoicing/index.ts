/** Invoicing across resources (SPEC 7): time and products as invoice lines, the draft invoices, the collection. */
import type { ResourceFolder } from '../folder-contract.ts';
import { invoicingActions } from './actions.ts';
import { invoicingCollection } from './collection.ts';
import { invoiceLineActions } from './lines.ts';

export default {
  actions: [invoiceLineActions, invoicingActions, invoicingCollection],
} satisfies ResourceFolder;
