import type { ResourceFolder } from '../folder-contract.ts';
import { articleHooks } from './hooks.ts';
import { articleRoutes } from './routes.ts';
import { publicPages } from './public.ts';

/** The knowledge base (issue 39, item 4): tidy tags, article images, search, deflections, public pages. */
export default {
  hooks: { 'knowledge-articles': articleHooks },
  actions: [articleRoutes, publicPages],
} satisfies ResourceFolder;
