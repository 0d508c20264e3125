import { lazyWithTimeout } from '../../shell/lazy.ts';
import type { ResourceFolder } from '../override-contract.ts';

export default {
  portal: { subscriptions: { detail: lazyWithTimeout(() => import('./PortalSubscriptionDetail.tsx')) } },
} satisfies ResourceFolder;
