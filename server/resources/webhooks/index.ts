/**
 * Signed webhooks (issue 38, item 4): the create, rotate and test calls and the deliverer (actions.ts),
 * the URL check on save (hooks.ts), and the events of the desk turned into deliveries (events.ts, hooked
 * into the automation's event point here, once).
 */
import type { ResourceFolder } from '../folder-contract.ts';
import { webhookActions } from './actions.ts';
import { listenToDeskEvents } from './events.ts';
import { webhookHooks } from './hooks.ts';

listenToDeskEvents();

export default { hooks: { webhooks: webhookHooks }, actions: [webhookActions] } satisfies ResourceFolder;
