import type { ResourceFolder } from '../folder-contract.ts';
import { roleAssignment } from './assignment.ts';
import { roleHooks } from './hooks.ts';

export default {
  hooks: {
    roles: roleHooks,
    // Who may be given which role: the two views on users check the role_id they write.
    clients: roleAssignment(false),
    operators: roleAssignment(true),
  },
} satisfies ResourceFolder;
