import { lazyWithTimeout } from '../../shell/lazy.ts';
import type { ResourceFolder } from '../override-contract.ts';

/** API tokens (issue 38): a create screen that shows the new token once, and revoking on the detail. */
export default {
  backoffice: {
    'api-tokens': {
      create: lazyWithTimeout(() => import('./ApiTokenCreate.tsx')),
      actions: lazyWithTimeout(() => import('./ApiTokenActions.tsx')),
    },
  },
} satisfies ResourceFolder;
