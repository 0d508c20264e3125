import type { ResourceFolder } from '../folder-contract.ts';
import { governedByContract, recheckOn } from '../../sla/governed.ts';
import { contractActions } from './actions.ts';
import { ticketBalanceRoute } from './balance.ts';

export default {
  // A running contract's SLA governs its companies' tickets that name none (issue 35).
  hooks: { contracts: recheckOn(governedByContract) },
  actions: [contractActions, ticketBalanceRoute],
} satisfies ResourceFolder;
