import { lazyWithTimeout } from '../../shell/lazy.ts';
import type { ResourceFolder } from '../override-contract.ts';

export default {
  portal: {
    tickets: {
      create: lazyWithTimeout(() => import('./PortalTicketCreate.tsx')),
      detail: lazyWithTimeout(() => import('./PortalTicketDetail.tsx')),
      panel: lazyWithTimeout(() => import('./PortalTicketPanels.tsx')),
    },
  },
  backoffice: {
    tickets: {
      actions: lazyWithTimeout(() => import('./TicketActions.tsx')),
      summary: lazyWithTimeout(() => import('./TicketTimeSummary.tsx')),
      panel: lazyWithTimeout(() => import('./TicketPanels.tsx')),
      bulk: lazyWithTimeout(() => import('./TicketBulkMacros.tsx')),
    },
  },
} satisfies ResourceFolder;
