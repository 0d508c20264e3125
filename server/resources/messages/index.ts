import type { ResourceFolder } from '../folder-contract.ts';
import { messageActions } from './actions.ts';
import { messageHooks } from './hooks.ts';
import { messageSenderActions } from './sender-check.ts';

export default {
  hooks: { messages: messageHooks },
  actions: [messageActions, messageSenderActions],
} satisfies ResourceFolder;
