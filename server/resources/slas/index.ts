import type { ResourceFolder } from '../folder-contract.ts';
import { governedBySla, governedBySlaTarget, recheckOn } from '../../sla/governed.ts';

/** An SLA's targets, warnings or calendar changed: the open tickets it governs are measured again. */
export default {
  hooks: {
    slas: recheckOn(governedBySla, [
      'response_time',
      'next_response_time',
      'resolution_time',
      'warning_percentages',
      'business_hour_contract_id',
    ]),
    'sla-targets': recheckOn(governedBySlaTarget),
  },
} satisfies ResourceFolder;
