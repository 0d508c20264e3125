import { lazyWithTimeout } from '../../shell/lazy.ts';
import type { ResourceFolder } from '../override-contract.ts';

export default {
  portal: { contracts: { detail: lazyWithTimeout(() => import('./PortalContractDetail.tsx')) } },
  backoffice: { contracts: { actions: lazyWithTimeout(() => import('./ContractActions.tsx')) } },
} satisfies ResourceFolder;
