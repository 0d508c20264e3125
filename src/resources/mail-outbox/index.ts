import { lazyWithTimeout } from '../../shell/lazy.ts';
import type { ResourceFolder } from '../override-contract.ts';

export default {
  backoffice: { 'mail-outbox': { actions: lazyWithTimeout(() => import('./MailOutboxActions.tsx')) } },
} satisfies ResourceFolder;
