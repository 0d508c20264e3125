import { lazyWithTimeout } from '../../shell/lazy.ts';
import type { ResourceFolder } from '../override-contract.ts';

/** Time and used products become lines of their company's draft invoice with the same buttons. */
const actions = lazyWithTimeout(() => import('./InvoiceLineActions.tsx'));

export default {
  backoffice: { 'time-registrations': { actions }, 'used-products': { actions } },
} satisfies ResourceFolder;
