import type { ResourceFolder } from '../folder-contract.ts';
import { governedByAnySla, recheckOn } from '../../sla/governed.ts';

/** Whether a status pauses the SLA clock, or closes a ticket: every governed ticket is measured again. */
export default {
  hooks: { 'ticket-statuses': recheckOn(governedByAnySla, ['pauses_sla', 'internal_type']) },
} satisfies ResourceFolder;
