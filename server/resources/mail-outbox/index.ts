import type { ResourceFolder } from '../folder-contract.ts';
import { mailOutboxActions } from './actions.ts';

export default { actions: [mailOutboxActions] } satisfies ResourceFolder;
