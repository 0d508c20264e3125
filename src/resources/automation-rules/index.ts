import { lazyWithTimeout } from '../../shell/lazy.ts';
import type { ResourceFolder } from '../override-contract.ts';

export default {
  backoffice: {
    'automation-rules': {
      panel: lazyWithTimeout(() => import('./RulePreviewPanel.tsx')),
    },
  },
} satisfies ResourceFolder;
