/**
 * The rules of a message that hold on every write path (issue 5): its HTML is sanitised before it is
 * stored, on create and again on every update (the field is rich text, `format: html`: the generic
 * write does it, server/html/rich-text.ts, and refuses a body with nothing left); a client's message is always from the client and
 * visible to the client (the portal's fixed condition writes visible_to_client, this writes
 * is_from_client); a message stays on the record it was written on.
 */
import { ValidationError } from '../../http/errors.ts';
import { isPortalCaller } from '../../query/visibility.ts';
import type { ResourceHooks } from '../hook-contract.ts';
import { actorColumn, addActors, addRecipientGravatars, signImages } from './present.ts';
import { statusColumn, statusNames } from '../tickets/status-log.ts';
import { keepClientMessages, markEdited } from './edits.ts';
import { messageStored } from '../notifications/notify.ts';
import { keepMessageClock, keepStoredMessageClock, markMessageClock } from '../../sla/keep.ts';
import type { StoredMessage } from './stored.ts';
import { messageAdded } from '../../automation/events.ts';

export const messageHooks: ResourceHooks = {
  beforeStore(row, { auth }) {
    if (isPortalCaller(auth)) {
      row.is_from_client = true;
      row.visible_to_client = true;
    }
  },
  /**
   * Announced to the live streams and notified (issue 19), whichever path stored it; its ticket's SLA
   * clock measured again (issue 35: a reply may meet or start a target); then the triggers (issue 37).
   */
  async afterStore(_id, { trx, auth, stored }) {
    // The insert's own row (`returning *`): the generic store's, so its columns are not typed there.
    const message = stored as StoredMessage;
    await messageStored(trx, auth, message);
    await keepStoredMessageClock(trx, auth.tenantId, message);
    await messageAdded(trx, auth.tenantId, message);
  },
  async beforeUpdate(id, changes, { trx, auth }) {
    if ('morphable_type' in changes || 'morphable_id' in changes) {
      const field = 'morphable_type' in changes ? 'morphable_type' : 'morphable_id';
      throw new ValidationError({ [field]: ['A message cannot be moved to another record.'] });
    }
    await markEdited(trx, auth, id, changes);
  },
  /** Shown to the client or not: whether it answered them (the SLA clock). */
  async afterUpdate(id, { trx, auth }) {
    await keepMessageClock(trx, auth.tenantId, id);
  },
  async beforeDestroy(id, ctx) {
    await keepClientMessages(id, ctx);
    await markMessageClock(ctx.trx, ctx.auth.tenantId, id);
  },
  async present(rows, ctx) {
    await addActors(rows, ctx);
    await signImages(rows, ctx);
    await statusNames(rows, ctx);
    addRecipientGravatars(rows);
  },
  /** The authors and status names in the messages' own statement (issue 17: a thread in two round trips). */
  presentColumns: (alias, ctx) => [actorColumn(alias, ctx), statusColumn(alias, ctx)],
};
