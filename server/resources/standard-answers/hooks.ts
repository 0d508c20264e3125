/**
 * A standard answer's body (issue 18, item 6) is message HTML: rich text (`format: html` in its schema),
 * cleaned with the messages' allow list when stored and on every update by the generic write
 * (server/html/rich-text.ts), so what the picker inserts into the editor is already what a message may
 * hold (the message is cleaned again when it is saved). Placeholders such as {{client.name}} are text
 * and pass through unchanged. Nothing is left for a hook to do.
 */
import type { ResourceHooks } from '../hook-contract.ts';

export const standardAnswerHooks: ResourceHooks = {};
