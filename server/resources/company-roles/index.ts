import type { ResourceFolder } from '../folder-contract.ts';
import { companyRoleHooks, companyUserHooks, ticketShareHooks } from './hooks.ts';

export default {
  hooks: {
    'company-roles': companyRoleHooks,
    'company-user': companyUserHooks,
    'ticket-shares': ticketShareHooks,
  },
} satisfies ResourceFolder;
