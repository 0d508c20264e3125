import type { ResourceFolder } from '../folder-contract.ts';
import { quoteActions } from './actions.ts';
import { quoteHooks, quoteLineHooks } from './hooks.ts';

export default {
  hooks: { quotes: quoteHooks, 'quote-lines': quoteLineHooks },
  actions: [quoteActions],
} satisfies ResourceFolder;
