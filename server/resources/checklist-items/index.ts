import type { ResourceFolder } from '../folder-contract.ts';
import { checklistItemHooks } from './hooks.ts';

/** A ticket's checklist: ticking with who and when (hooks.ts); closing.ts keeps a ticket from closing. */
export default {
  hooks: { 'checklist-items': checklistItemHooks },
  actions: [],
} satisfies ResourceFolder;
