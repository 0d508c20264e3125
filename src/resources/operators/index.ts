import { lazyWithTimeout } from '../../shell/lazy.ts';
import type { ResourceFolder } from '../override-contract.ts';

/** Operators' detail actions; the reset of a second factor serves `clients` (the other view on users) too. */
const ResetTwoFactor = lazyWithTimeout(() => import('./ResetTwoFactor.tsx'));

export default {
  backoffice: { operators: { actions: ResetTwoFactor }, clients: { actions: ResetTwoFactor } },
} satisfies ResourceFolder;
