import type { ResourceFolder } from '../folder-contract.ts';
import { contractActions } from './actions.ts';

export default { actions: [contractActions] } satisfies ResourceFolder;
