import { lazyWithTimeout } from '../../shell/lazy.ts';
import type { ResourceFolder } from '../override-contract.ts';

/**
 * The portal's colleagues screen (issue 39): a company admin's list of the company's clients, each with
 * its company role chosen in place. Offered only where the user's role manages colleagues' access (the
 * schema's x-portal.ability).
 */
export default {
  portal: { 'company-user': { list: lazyWithTimeout(() => import('./PortalColleagues.tsx')) } },
} satisfies ResourceFolder;
