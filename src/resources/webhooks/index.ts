import { lazyWithTimeout } from '../../shell/lazy.ts';
import type { ResourceFolder } from '../override-contract.ts';

export default {
  backoffice: { webhooks: { actions: lazyWithTimeout(() => import('./WebhookActions.tsx')) } },
} satisfies ResourceFolder;
