import type { ResourceFolder } from '../folder-contract.ts';
import { businessHourContractHooks } from './hooks.ts';

export default { hooks: { 'business-hour-contracts': businessHourContractHooks } } satisfies ResourceFolder;
