import type { ResourceFolder } from '../folder-contract.ts';
import { invoiceActions } from './actions.ts';

export default { actions: [invoiceActions] } satisfies ResourceFolder;
