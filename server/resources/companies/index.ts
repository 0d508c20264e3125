import type { ResourceFolder } from '../folder-contract.ts';
import { companyActions } from './actions.ts';

export default { actions: [companyActions] } satisfies ResourceFolder;
