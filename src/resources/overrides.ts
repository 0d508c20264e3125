/**
 * Screens a resource needs beyond the generic ones, per app: each lives in src/resources/<name>/ and is
 * listed here as a lazy chunk. The generic screen serves every resource not listed. What a screen gets
 * (RecordActionsProps, ActionColumn) is in override-contract.ts.
 */
import type { AppKind } from '../custom/appKind.ts';
import { lazyWithTimeout } from '../shell/lazy.ts';
import type { ResourceOverrides } from './override-contract.ts';
import { invoiceDownloadColumn } from './invoices/InvoiceDownloadCell.tsx';

export const overrides: Record<AppKind, Record<string, ResourceOverrides>> = {
  portal: {
    tickets: {
      create: lazyWithTimeout(() => import('./tickets/PortalTicketCreate.tsx')),
      detail: lazyWithTimeout(() => import('./tickets/PortalTicketDetail.tsx')),
    },
    quotes: { detail: lazyWithTimeout(() => import('./quotes/PortalQuoteDetail.tsx')) },
    contracts: { detail: lazyWithTimeout(() => import('./contracts/PortalContractDetail.tsx')) },
    assets: { detail: lazyWithTimeout(() => import('./assets/PortalAssetDetail.tsx')) },
    invoices: {
      detail: lazyWithTimeout(() => import('./invoices/PortalInvoiceDetail.tsx')),
      actionColumn: invoiceDownloadColumn,
    },
    subscriptions: { detail: lazyWithTimeout(() => import('./subscriptions/PortalSubscriptionDetail.tsx')) },
  },
  backoffice: {
    tickets: {
      actions: lazyWithTimeout(() => import('./tickets/TicketActions.tsx')),
      summary: lazyWithTimeout(() => import('./tickets/TicketTimeSummary.tsx')),
    },
    companies: { actions: lazyWithTimeout(() => import('./companies/CompanyActions.tsx')) },
    contracts: { actions: lazyWithTimeout(() => import('./contracts/ContractActions.tsx')) },
    'ticket-groups': { actions: lazyWithTimeout(() => import('./ticket-groups/TicketGroupActions.tsx')) },
    'ticket-templates': {
      path: 'tickets/templates',
      actions: lazyWithTimeout(() => import('./ticket-templates/TemplateActions.tsx')),
    },
    quotes: {
      actions: lazyWithTimeout(() => import('./quotes/QuoteActions.tsx')),
      summary: lazyWithTimeout(() => import('./quotes/QuoteValidity.tsx')),
    },
    invoices: { actions: lazyWithTimeout(() => import('./invoices/BackofficeInvoiceActions.tsx')) },
    'mail-outbox': { actions: lazyWithTimeout(() => import('./mail-outbox/MailOutboxActions.tsx')) },
    'time-registrations': { actions: lazyWithTimeout(() => import('./invoicing/InvoiceLineActions.tsx')) },
    'used-products': { actions: lazyWithTimeout(() => import('./invoicing/InvoiceLineActions.tsx')) },
  },
};
