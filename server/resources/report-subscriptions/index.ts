import type { ResourceFolder } from '../folder-contract.ts';
import { reportSubscriptionActions } from './actions.ts';

export default { actions: [reportSubscriptionActions] } satisfies ResourceFolder;
