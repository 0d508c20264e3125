/**
 * A standard answer's body (issue 18, item 6) is message HTML: it is cleaned with the messages' allow
 * list when stored and on every update, so what the picker inserts into the editor is already what a
 * message may hold (the message is cleaned again when it is saved). Placeholders such as
 * {{client.name}} are text and pass through unchanged.
 */
import { cleanMessage } from '../messages/hooks.ts';
import type { ResourceHooks } from '../hook-contract.ts';
import { ValidationError } from '../../http/errors.ts';
import { serverText } from '../../../common/server-texts.ts';

function cleanBody(html: unknown): string {
  try {
    return cleanMessage(html);
  } catch {
    throw new ValidationError({ body: [serverText('field_required', { field: 'body' })] });
  }
}

export const standardAnswerHooks: ResourceHooks = {
  beforeStore(row) {
    row.body = cleanBody(row.body);
  },
  beforeUpdate(_id, changes) {
    if ('body' in changes) changes.body = cleanBody(changes.body);
  },
};
