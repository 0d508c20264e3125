import { lazyWithTimeout } from '../../shell/lazy.ts';
import type { ResourceFolder } from '../override-contract.ts';

export default {
  backoffice: { 'ticket-groups': { actions: lazyWithTimeout(() => import('./TicketGroupActions.tsx')) } },
} satisfies ResourceFolder;
