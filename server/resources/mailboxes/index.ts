import type { ResourceFolder } from '../folder-contract.ts';
import { mailboxHooks } from './hooks.ts';

export default { hooks: { mailboxes: mailboxHooks } } satisfies ResourceFolder;
