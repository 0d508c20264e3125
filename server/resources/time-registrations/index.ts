import type { ResourceFolder } from '../folder-contract.ts';
import { timeRegistrationActions } from './actions.ts';
import { timeRegistrationHooks } from './hooks.ts';

export default {
  hooks: { 'time-registrations': timeRegistrationHooks },
  actions: [timeRegistrationActions],
} satisfies ResourceFolder;
