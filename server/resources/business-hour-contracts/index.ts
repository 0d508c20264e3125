import type { ResourceFolder } from '../folder-contract.ts';
import { bothHooks, governedByCalendar, recheckOn } from '../../sla/governed.ts';
import { businessHourContractHooks } from './hooks.ts';

export default {
  hooks: {
    // A changed calendar: the open tickets of the SLAs that count in it are measured again (issue 35).
    'business-hour-contracts': bothHooks(
      businessHourContractHooks,
      recheckOn(governedByCalendar, ['schedule', 'timezone', 'holidays']),
    ),
  },
} satisfies ResourceFolder;
