import { lazyWithTimeout } from '../../shell/lazy.ts';
import type { ResourceFolder } from '../override-contract.ts';

export default {
  portal: { quotes: { detail: lazyWithTimeout(() => import('./PortalQuoteDetail.tsx')) } },
  backoffice: {
    quotes: {
      actions: lazyWithTimeout(() => import('./QuoteActions.tsx')),
      summary: lazyWithTimeout(() => import('./QuoteValidity.tsx')),
    },
  },
} satisfies ResourceFolder;
