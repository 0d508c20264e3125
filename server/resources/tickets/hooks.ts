import { ValidationError } from '../../http/errors.ts';
import { isPortalCaller } from '../../query/visibility.ts';
import {
  PORTAL_TICKET_FIELDS,
  tenantJsonConfig,
  type PortalTicketField,
} from '../../settings/tenant-config.ts';
import type { ResourceHooks } from '../hook-contract.ts';
import { currentStatusId, logStatusChange } from './status-log.ts';
import { ticketStart } from './start.ts';
import { customFieldEntries, recordTicketChanges, writeHistory } from './history.ts';
import { resolvedAtOnInsert, resolvedAtOnUpdate } from './resolved.ts';
import { registry } from '../../schema/registry.ts';
import { serverText } from '../../../common/server-texts.ts';
import { keepTicketClocks } from '../../sla/keep.ts';
import { changeSeenBy, operatorChanging, ticketsChanged, ticketStored } from '../notifications/notify.ts';
import { guardClosing, OVERRIDE_FLAG } from '../checklist-items/closing.ts';
import { portalTicketClient } from '../company-roles/access.ts';
import { automationEvent, noteTicketFields, ticketUpdated } from '../../automation/events.ts';

const isEmpty = (value: unknown) => value === undefined || value === null || String(value).trim() === '';

export const ticketHooks: ResourceHooks = {
  /**
   * A client's ticket is the client's own and starts in the default status (clients do not choose a
   * status), and carries the fields the portal's form requires (SPEC 5: portal_ticket_fields); an
   * operator's ticket without a status starts in the default one too. Its id and reference are drawn
   * before the insert (./start.ts), with the default status when it needs one.
   */
  async beforeStore(row, ctx) {
    const portal = isPortalCaller(ctx.auth);
    if (portal) {
      const fields =
        (await tenantJsonConfig<PortalTicketField[]>(ctx.trx, ctx.auth.tenantId, PORTAL_TICKET_FIELDS)) ?? [];
      const missing = Array.isArray(fields)
        ? fields.filter((f) => f?.required && typeof f.field === 'string' && isEmpty(row[f.field]))
        : [];
      if (missing.length) {
        throw new ValidationError(
          Object.fromEntries(
            missing.map((f) => [f.field, [serverText('field_required', { field: f.field })]]),
          ),
        );
      }
      // The caller's own, or a colleague's when the caller's company role creates on behalf (issue 39).
      if (ctx.auth.userId !== null) row.client_id = await portalTicketClient(ctx.trx, ctx.auth, row);
    }
    const needsStatus = portal || isEmpty(row.status_id);
    const start = await ticketStart(ctx.trx, ctx.auth.tenantId, needsStatus);
    if (needsStatus) {
      if (start.status === null)
        throw new ValidationError({ status_id: [serverText('ticket_no_start_status')] });
      row.status_id = start.status;
    }
    row.id = start.id;
    row.reference = start.reference;
    const status = Number(row.status_id);
    if (Number.isSafeInteger(status)) row.resolved_at = resolvedAtOnInsert(ctx.auth.tenantId, status);
  },
  /**
   * A new status is written into the thread (SPEC 4), and every tracked field's change into the
   * ticket's history (issue 18), in the update's transaction.
   */
  async beforeUpdate(id, changes, { trx, auth, resource, flags }) {
    const status = Number(changes.status_id);
    const statusChanges = 'status_id' in changes && Number.isSafeInteger(status);
    // Open required checklist items keep a ticket from closing (issue 37, item 4).
    if (statusChanges) await guardClosing(trx, registry(), auth, [id], status, flags?.[OVERRIDE_FLAG]);
    // Every status change settles resolved_at the same way (resolved.ts), templates' too.
    if (statusChanges) changes.resolved_at = resolvedAtOnUpdate(auth.tenantId, status);
    // Templates have no thread and no history (no x-morph-type): nothing to tell.
    if (!resource.morphType) return;
    noteTicketFields(trx, id, Object.keys(changes)); // for the triggers after the update (issue 37)
    // The streams hear of it (in this transaction: only if it commits); a client's only when the portal
    // reads a column that changes (updated_at, which every update sets, is not one that says so).
    await ticketsChanged(trx, auth.tenantId, [id], changeSeenBy(resource, Object.keys(changes)));
    await recordTicketChanges(trx, registry(), auth, [id], changes);
    if ('operator_id' in changes) await operatorChanging(trx, auth, [id], changes.operator_id);
    if (!statusChanges) return;
    await logStatusChange(trx, auth, id, status, await currentStatusId(trx, auth, id));
  },
  /** A custom value changed by hand is in the history as a rule's or a macro's change is. */
  async customValuesChanged(id, changes, { trx, auth }) {
    await writeHistory(trx, registry(), auth, customFieldEntries(id, changes));
  },
  /** The SLA clock measured again from the history just written (issue 35); then the triggers (issue 37). */
  async afterUpdate(id, { trx, auth, resource }) {
    if (!resource.morphType) return;
    await keepTicketClocks(trx, auth.tenantId, [id]);
    await ticketUpdated(trx, auth.tenantId, id);
  },
  /** Live lists and notifications (issue 19), the SLA clock, the triggers: templates are no one's work. */
  async afterStore(id, { trx, resource, auth, stored }) {
    if (resource.morphType) {
      await ticketStored(trx, auth, id, stored.operator_id);
      await keepTicketClocks(trx, auth.tenantId, [id]);
      await automationEvent(trx, { tenantId: auth.tenantId, event: 'ticket_created', ticketId: id });
    }
  },
};
