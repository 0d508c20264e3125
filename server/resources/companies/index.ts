import type { ResourceFolder } from '../folder-contract.ts';
import { governedByCompany, recheckOn } from '../../sla/governed.ts';
import { companyActions } from './actions.ts';

export default {
  // A company's SLA governs its tickets that name none (issue 35).
  hooks: { companies: recheckOn(governedByCompany, ['sla_id']) },
  actions: [companyActions],
} satisfies ResourceFolder;
