/**
 * A ticket with open required checklist items does not close (issue 37, item 4): every path that moves
 * tickets to a finished status (closed or archived: resolved.ts) calls guardClosing in its transaction,
 * before it writes: an edit or any generic PUT (the tickets' beforeUpdate), POST tickets/{id}/close,
 * the bulk close and bulk status change, and a merge, which closes the merged tickets. One rule, one
 * place. A ticket that is finished already (closed to archived) is not closing and passes.
 *
 * The refusal is a 422 on `status_id` saying how many required items are open. An operator whose role
 * holds `tenant.checklist-items.override` closes anyway by sending `override_checklist: true`; the
 * override is written into each ticket's history (field `checklist_override`, to: the open count). The
 * flag from a role without that permission is a 403: an override is not a thing one tries.
 */
import type { DbTransaction } from '../../db/database.ts';
import type { AuthContext } from '../../auth/context.ts';
import type { Registry } from '../../schema/registry.ts';
import { forbidden, ValidationError } from '../../http/errors.ts';
import { may } from '../../auth/may.ts';
import { serverText } from '../../../common/server-texts.ts';
import { FINISHED } from '../tickets/resolved.ts';
import { writeHistory } from '../tickets/history.ts';

/** The body flag (an x-flag of tickets) and the query/body key of the ticket actions. */
export const OVERRIDE_FLAG = 'override_checklist';
/** The history entry of an override. */
export const CHECKLIST_OVERRIDE = 'checklist_override';

const RESOURCE = 'checklist-items';

/** Whether the tenant's status `statusId` is a finished one (closing a ticket means moving there). */
async function isFinished(trx: DbTransaction, tenantId: number, statusId: number): Promise<boolean> {
  const row = await trx
    .selectFrom('ticket_statuses')
    .select('internal_type')
    .where('id', '=', statusId)
    .where('tenant_id', '=', tenantId)
    .executeTakeFirst();
  return !!row && (FINISHED as readonly number[]).includes(Number(row.internal_type));
}

/**
 * Refuses (422 on status_id) moving the tickets `ticketIds` to the status `statusId` while any of them
 * that is not finished yet has open required items; with `override` (and the permission, else 403)
 * lets it pass and records the override in their history. Call it in the change's transaction.
 */
export async function guardClosing(
  trx: DbTransaction,
  registry: Registry,
  auth: AuthContext,
  ticketIds: number[],
  statusId: number,
  override = false,
): Promise<void> {
  if (ticketIds.length === 0 || !(await isFinished(trx, auth.tenantId, statusId))) return;
  const open = await trx
    .selectFrom('checklist_items as c')
    .innerJoin('tickets as t', 't.id', 'c.ticket_id')
    .innerJoin('ticket_statuses as s', 's.id', 't.status_id')
    .select(['c.ticket_id', (eb) => eb.fn.countAll<string>().as('open')])
    .where('c.tenant_id', '=', auth.tenantId)
    .where('c.ticket_id', 'in', ticketIds)
    .where('c.required', '=', true)
    .where('c.done', '=', false)
    .where('s.internal_type', 'not in', [...FINISHED])
    .groupBy('c.ticket_id')
    .orderBy('c.ticket_id')
    .execute();
  if (open.length === 0) return;
  const count = open.reduce((sum, row) => sum + Number(row.open), 0);
  if (!override) {
    const message = serverText('checklist_required_open', { count });
    throw new ValidationError({ status_id: [message] }, message);
  }
  if (!may(auth, registry.require(RESOURCE), 'override')) throw forbidden();
  await writeHistory(
    trx,
    registry,
    auth,
    open.map((row) => ({
      ticketId: Number(row.ticket_id),
      field: CHECKLIST_OVERRIDE,
      from: null,
      to: String(row.open),
    })),
  );
}
