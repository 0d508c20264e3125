import type { ResourceFolder } from '../folder-contract.ts';
import { attachmentActions } from './actions.ts';
import { attachmentHooks } from './hooks.ts';

export default {
  hooks: { attachments: attachmentHooks },
  actions: [attachmentActions],
} satisfies ResourceFolder;
