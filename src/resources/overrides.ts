/**
 * Screens a resource needs beyond the generic ones, per app: each lives in src/resources/<name>/ and is
 * listed here as a lazy chunk. The generic screen serves every resource not listed.
 */
import type { ComponentType, LazyExoticComponent } from 'react';
import type { RaRecord } from 'react-admin';
import type { AppKind } from '../custom/appKind.ts';
import { lazyWithTimeout } from '../shell/lazy.ts';
import { invoiceDownloadColumn } from './invoices/InvoiceDownloadCell.tsx';

/** A last column of the list with a per-row action (an invoice's download link). */
export interface ActionColumn {
  /** i18n key of the column header. */
  label: string;
  Cell: ComponentType<{ record: RaRecord }>;
}

/** What a record's action buttons get: the record shown and a way to load it again after an action. */
export interface RecordActionsProps {
  record: RaRecord;
  refetch: () => unknown;
}

export interface ResourceOverrides {
  detail?: LazyExoticComponent<ComponentType>;
  /**
   * The record's own action buttons (close, merge, archive, invoice…), shown in the generic detail
   * screen's header before Edit and Delete; each button checks its own permission.
   */
  actions?: LazyExoticComponent<ComponentType<RecordActionsProps>>;
  create?: LazyExoticComponent<ComponentType>;
  actionColumn?: ActionColumn;
  /**
   * Where the spec puts the record's detail when it is not /{resource}/{id}: a path under another
   * resource (SPEC 2: template tickets at /tickets/templates/{id}); /{resource}/{id} leads there.
   */
  path?: string;
}

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
    },
    companies: { actions: lazyWithTimeout(() => import('./companies/CompanyActions.tsx')) },
    contracts: { actions: lazyWithTimeout(() => import('./contracts/ContractActions.tsx')) },
    'ticket-groups': { actions: lazyWithTimeout(() => import('./ticket-groups/TicketGroupActions.tsx')) },
    'ticket-templates': { path: 'tickets/templates' },
    quotes: { actions: lazyWithTimeout(() => import('./quotes/QuoteActions.tsx')) },
    invoices: { actions: lazyWithTimeout(() => import('./invoices/BackofficeInvoiceActions.tsx')) },
    'mail-outbox': { actions: lazyWithTimeout(() => import('./mail-outbox/MailOutboxActions.tsx')) },
    'time-registrations': { actions: lazyWithTimeout(() => import('./invoicing/InvoiceLineActions.tsx')) },
    'used-products': { actions: lazyWithTimeout(() => import('./invoicing/InvoiceLineActions.tsx')) },
  },
};
