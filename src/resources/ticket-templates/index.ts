import { lazyWithTimeout } from '../../shell/lazy.ts';
import type { ResourceFolder } from '../override-contract.ts';

export default {
  backoffice: {
    'ticket-templates': {
      // SPEC 2: template tickets live at /tickets/templates/{id}.
      path: 'tickets/templates',
      actions: lazyWithTimeout(() => import('./TemplateActions.tsx')),
    },
  },
} satisfies ResourceFolder;
