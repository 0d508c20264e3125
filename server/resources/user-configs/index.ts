import type { ResourceFolder } from '../folder-contract.ts';
import { userConfigHooks } from './hooks.ts';

export default { hooks: { 'user-configs': userConfigHooks } } satisfies ResourceFolder;
