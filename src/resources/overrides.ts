/**
 * Screens a resource needs beyond the generic ones, per app: each lives in src/resources/<name>/ and is
 * listed here as a lazy chunk. The generic screen serves every resource not listed.
 */
import type { ComponentType, LazyExoticComponent } from 'react';
import type { AppKind } from '../custom/appKind.ts';
import { lazyWithTimeout } from '../shell/lazy.ts';

export interface ResourceOverrides {
  detail?: LazyExoticComponent<ComponentType>;
  create?: LazyExoticComponent<ComponentType>;
}

export const overrides: Record<AppKind, Record<string, ResourceOverrides>> = {
  portal: {
    quotes: { detail: lazyWithTimeout(() => import('./quotes/PortalQuoteDetail.tsx')) },
    contracts: { detail: lazyWithTimeout(() => import('./contracts/PortalContractDetail.tsx')) },
    assets: { detail: lazyWithTimeout(() => import('./assets/PortalAssetDetail.tsx')) },
    invoices: { detail: lazyWithTimeout(() => import('./invoices/PortalInvoiceDetail.tsx')) },
    subscriptions: { detail: lazyWithTimeout(() => import('./subscriptions/PortalSubscriptionDetail.tsx')) },
  },
  backoffice: {},
};
