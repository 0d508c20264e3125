import { lazyWithTimeout } from '../../shell/lazy.ts';
import type { ResourceFolder } from '../override-contract.ts';

/** The knowledge base (issue 39, item 4): the portal shows an article as a page, its text as HTML. */
export default {
  portal: {
    'knowledge-articles': {
      detail: lazyWithTimeout(() => import('./PortalArticleDetail.tsx')),
    },
  },
} satisfies ResourceFolder;
