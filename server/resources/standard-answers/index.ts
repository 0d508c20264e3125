import type { ResourceFolder } from '../folder-contract.ts';
import { standardAnswerHooks } from './hooks.ts';

export default { hooks: { 'standard-answers': standardAnswerHooks } } satisfies ResourceFolder;
