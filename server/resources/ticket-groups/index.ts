import type { ResourceFolder } from '../folder-contract.ts';
import { ticketGroupActions } from './actions.ts';

export default { actions: [ticketGroupActions] } satisfies ResourceFolder;
