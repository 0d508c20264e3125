import type { ResourceFolder } from '../folder-contract.ts';
import { ticketChangeHooks } from './hooks.ts';

export default { hooks: { 'ticket-changes': ticketChangeHooks } } satisfies ResourceFolder;
