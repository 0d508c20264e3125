import { lazyWithTimeout } from '../../shell/lazy.ts';
import type { ResourceFolder } from '../override-contract.ts';

export default {
  backoffice: { companies: { actions: lazyWithTimeout(() => import('./CompanyActions.tsx')) } },
} satisfies ResourceFolder;
