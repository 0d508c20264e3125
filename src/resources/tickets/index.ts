import { lazyWithTimeout } from '../../shell/lazy.ts';
import type { ResourceFolder } from '../override-contract.ts';

export default {
  portal: {
    tickets: {
      create: lazyWithTimeout(() => import('./PortalTicketCreate.tsx')),
      detail: lazyWithTimeout(() => import('./PortalTicketDetail.tsx')),
      panel: lazyWithTimeout(() => import('./sla/PortalSlaPromise.tsx')),
    },
  },
  backoffice: {
    tickets: {
      actions: lazyWithTimeout(() => import('./TicketActions.tsx')),
      summary: lazyWithTimeout(() => import('./TicketTimeSummary.tsx')),
      panel: lazyWithTimeout(() => import('./sla/TicketSlaPanel.tsx')),
      bulk: lazyWithTimeout(() => import('./TicketBulkMacros.tsx')),
    },
  },
} satisfies ResourceFolder;
