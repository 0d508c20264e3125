import type { ResourceFolder } from '../folder-contract.ts';
import { notificationActions } from './actions.ts';

export default { actions: [notificationActions] } satisfies ResourceFolder;
