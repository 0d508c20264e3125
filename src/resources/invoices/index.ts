import { lazyWithTimeout } from '../../shell/lazy.ts';
import type { ResourceFolder } from '../override-contract.ts';
import { invoiceDownloadColumn } from './InvoiceDownloadCell.tsx';

export default {
  portal: {
    invoices: {
      detail: lazyWithTimeout(() => import('./PortalInvoiceDetail.tsx')),
      // In the list's first paint: not lazy.
      actionColumn: invoiceDownloadColumn,
    },
  },
  backoffice: { invoices: { actions: lazyWithTimeout(() => import('./BackofficeInvoiceActions.tsx')) } },
} satisfies ResourceFolder;
