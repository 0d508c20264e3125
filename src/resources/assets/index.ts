import { lazyWithTimeout } from '../../shell/lazy.ts';
import type { ResourceFolder } from '../override-contract.ts';

export default {
  portal: { assets: { detail: lazyWithTimeout(() => import('./PortalAssetDetail.tsx')) } },
} satisfies ResourceFolder;
