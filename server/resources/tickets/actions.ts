/**
 * SPEC 4 and 7 ticket calls beyond CRUD, for operators (clients get 403: no portal action):
 *
 * - POST /tickets/{id}/close: the status becomes the tenant's first status of internal type closed (2),
 *   resolved_at now. A ticket that is closed or archived already answers 422.
 * - POST /tickets/{id}/restore: a closed or archived ticket goes back to the tenant's default open status
 *   (the one a new ticket starts in), resolved_at cleared; any other ticket answers 422.
 * - POST /tickets/{id}/clone: a new ticket with the same own fields and custom values, a new reference and
 *   the default status, without messages or time; answers the new ticket (201).
 * - POST /tickets/merge {ids}: the first id is kept; everything that points at the others (messages with
 *   their attachments, time registrations, used products, custom values the kept one lacks, …) moves to
 *   it and the others are closed, in one transaction under row locks taken in id order.
 */
import { sql } from 'kysely';
import type { Db, DbTransaction } from '../../db/database.ts';
import type { AuthContext } from '../../auth/context.ts';
import type { Registry } from '../../schema/registry.ts';
import { notFound, ValidationError } from '../../http/errors.ts';
import { BodyValidation } from '../../schema/validate.ts';
import type { ActionPlugin } from '../action-contract.ts';
import { authorize } from '../plugin.ts';
import { validInput, type RecordParams } from '../../http/route-validation.ts';
import { findRecord, storeRecord, writableFields, type Deps } from '../repository.ts';
import { lockForMerge, MERGE_BODY, MERGE_FAILS, moveReferences } from '../merge.ts';
import { bodyIds } from '../../http/ids.ts';
import { currentStatusId, logStatusChange } from './status-log.ts';
import { MERGED, recordTicketChanges, writeHistory } from './history.ts';
import { defaultStatusId } from './start.ts';
import { ARCHIVED, CLOSED, resolvedAtOnUpdate } from './resolved.ts';
import { actionRoute, OPERATORS_ONLY, recordRef } from '../../docs/action-schema.ts';
import { serverText } from '../../../common/server-texts.ts';
import { ticketsChanged } from '../notifications/notify.ts';
import { keepTicketClocks } from '../../sla/keep.ts';
import { ticketsUpdated } from '../../automation/events.ts';
import { noteMergedOrigins } from '../../sla/merged-rows.ts';
import { guardClosing, OVERRIDE_FLAG } from '../checklist-items/closing.ts';
import { OVERRIDE_BODY, overrides } from '../checklist-items/override.ts';

export { ARCHIVED, CLOSED };

export const NO_CLOSED_STATUS = serverText('ticket_no_closed_status');
export const ALREADY_CLOSED = serverText('ticket_closed_already');
export const ARCHIVED_TICKET = serverText('ticket_archived');
export const NOT_RESTORABLE = serverText('ticket_not_restorable');
export const NO_OPEN_STATUS = serverText('ticket_no_open_status');
export const OTHER_COMPANIES =
  "Only tickets of the same company can be merged: clients would see each other's messages.";

/** The tenant's status with internal type closed (the first in the list order). */
export async function closedStatusId(trx: DbTransaction, tenantId: number): Promise<number> {
  const row = await trx
    .selectFrom('ticket_statuses')
    .select('id')
    .where('tenant_id', '=', tenantId)
    .where('internal_type', '=', CLOSED)
    .orderBy('order')
    .orderBy('id')
    .executeTakeFirst();
  if (!row) throw new ValidationError({ status_id: [NO_CLOSED_STATUS] }, NO_CLOSED_STATUS);
  return Number(row.id);
}

/** Locks the ticket row and answers its status's internal type. */
async function lockTicket(trx: DbTransaction, auth: AuthContext, id: number): Promise<number> {
  const row = await trx
    .selectFrom('tickets as t')
    .innerJoin('ticket_statuses as s', 's.id', 't.status_id')
    .select('s.internal_type')
    .where('t.id', '=', id)
    .where('t.tenant_id', '=', auth.tenantId)
    .forUpdate('t')
    .executeTakeFirst();
  if (!row) throw notFound();
  return Number(row.internal_type);
}

/**
 * Close and restore alike: in one transaction, the ticket locked, `target` picks the new status from its
 * current internal type (or refuses), then the history, the status log, the row (`resolved_at` as the
 * status says) and the streams that show the ticket.
 */
async function moveTicketStatus(
  db: Db,
  registry: Registry,
  auth: AuthContext,
  id: number,
  target: (trx: DbTransaction, type: number) => Promise<number>,
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const type = await lockTicket(trx, auth, id);
    const status = await target(trx, type);
    await recordTicketChanges(trx, registry, auth, [id], { status_id: status });
    await logStatusChange(trx, auth, id, status, await currentStatusId(trx, auth, id));
    await trx
      .updateTable('tickets')
      .set({
        status_id: status,
        resolved_at: resolvedAtOnUpdate(auth.tenantId, status),
        updated_at: sql`now()`,
      })
      .where('id', '=', id)
      .where('tenant_id', '=', auth.tenantId)
      .execute();
    await keepTicketClocks(trx, auth.tenantId, [id]);
    await ticketsChanged(trx, auth.tenantId, [id]);
    await ticketsUpdated(trx, auth.tenantId, [{ ticketId: id, field: 'status_id' }]);
  });
}

/**
 * A merge in the history of every ticket in it: on the kept ticket and on each merged one an entry
 * "merged: <merged reference> -> <kept reference>".
 */
async function recordMerge(
  trx: DbTransaction,
  registry: Registry,
  auth: AuthContext,
  kept: number,
  merged: number[],
): Promise<void> {
  const rows = await trx
    .selectFrom('tickets')
    .select(['id', 'reference'])
    .where('tenant_id', '=', auth.tenantId)
    .where('id', 'in', [kept, ...merged])
    .execute();
  const reference = new Map(
    rows.map((r) => [Number(r.id), r.reference === null ? null : String(r.reference)]),
  );
  const entry = (ticketId: number, from: number) => ({
    ticketId,
    field: MERGED,
    from: String(from),
    to: String(kept),
    fromLabel: reference.get(from) ?? null,
    toLabel: reference.get(kept) ?? null,
  });
  await writeHistory(
    trx,
    registry,
    auth,
    merged.flatMap((id) => [entry(kept, id), entry(id, id)]),
  );
}

/**
 * Merges the tickets `ids` into the first one, in the caller's transaction (POST tickets/merge and the
 * list's bulk merge): locks, moves what points at the others, closes them and records it all.
 */
export async function mergeTickets(
  deps: Deps,
  trx: DbTransaction,
  auth: AuthContext,
  ids: number[],
): Promise<void> {
  const { registry } = deps;
  const tickets = registry.require('tickets');
  const [kept, ...merged] = ids as [number, ...number[]];
  await lockForMerge(deps, trx, auth, tickets, ids);
  const companies = await trx
    .selectFrom('tickets')
    .select('company_id')
    .distinct()
    .where('id', 'in', ids)
    .where('tenant_id', '=', auth.tenantId)
    .where('company_id', 'is not', null)
    .execute();
  if (companies.length > 1) throw new ValidationError({ ids: [OTHER_COMPANIES] }, OTHER_COMPANIES);
  const closed = await closedStatusId(trx, auth.tenantId);
  await noteMergedOrigins(trx, auth.tenantId, merged);
  await moveReferences(trx, registry, tickets, kept, merged);
  // The merged tickets' checklist items moved to the kept one (their foreign key), which stays open:
  // the merged ones close with none left, unless a later change keeps them there.
  await guardClosing(trx, registry, auth, merged, closed);
  // After the move (the merged tickets' history goes with their messages to the kept one): the
  // merged tickets record their closing, the kept one which tickets it took in.
  await recordTicketChanges(trx, registry, auth, merged, { status_id: closed });
  await recordMerge(trx, registry, auth, kept, merged);
  await trx
    .updateTable('tickets')
    .set({
      status_id: closed,
      resolved_at: resolvedAtOnUpdate(auth.tenantId, closed),
      updated_at: sql`now()`,
    })
    .where('id', 'in', merged)
    .where('tenant_id', '=', auth.tenantId)
    .execute();
  await trx
    .updateTable('tickets')
    .set({ updated_at: sql`now()` })
    .where('id', '=', kept)
    .where('tenant_id', '=', auth.tenantId)
    .execute();
  // The merged ones stop their clocks; the kept one took in their messages, which it does not replay.
  await keepTicketClocks(trx, auth.tenantId, ids);
  // The open lists and threads of every stream that may read them hear of the kept and the closed ones.
  await ticketsChanged(trx, auth.tenantId, ids);
  // The merged ones were closed: their status triggers hear of it as of any closing.
  await ticketsUpdated(
    trx,
    auth.tenantId,
    merged.map((ticketId) => ({ ticketId, field: 'status_id' })),
  );
}

/** A value as the create body takes it (timestamps come back from the database as Date). */
const asBodyValue = (value: unknown) => (value instanceof Date ? value.toISOString() : value);

export const ticketActions: ActionPlugin = async (app, { db, registry }) => {
  const tickets = registry.require('tickets');
  const deps: Deps = { db, registry, validation: new BodyValidation() };
  const ticket = recordRef(registry, tickets);

  app.post<RecordParams>(
    '/api/tickets/:id/close',
    actionRoute({
      tag: tickets.name,
      operationId: 'ticketsClose',
      summary: 'Close a ticket',
      description:
        "The status becomes the tenant's first ticket status of internal type closed (2) and `resolved_at` " +
        `now. A closed or archived ticket answers 422, and so does one with open required checklist items ` +
        `unless \`${OVERRIDE_FLAG}\` is sent (with \`tenant.checklist-items.override\`). ` +
        `Permission \`tenant.tickets.close\`. ${OPERATORS_ONLY}`,
      body: OVERRIDE_BODY,
      answers: { 200: { description: 'The closed ticket.', schema: ticket } },
    }),
    async (request) => {
      const auth = await authorize(request, tickets, 'close');
      validInput(request);
      const { id } = request.params;
      await findRecord(deps, auth, tickets, id);
      await moveTicketStatus(db, registry, auth, id, async (trx, type) => {
        if (type === CLOSED) throw new ValidationError({ status_id: [ALREADY_CLOSED] }, ALREADY_CLOSED);
        if (type === ARCHIVED) throw new ValidationError({ status_id: [ARCHIVED_TICKET] }, ARCHIVED_TICKET);
        const closed = await closedStatusId(trx, auth.tenantId);
        await guardClosing(trx, registry, auth, [id], closed, overrides(request.body));
        return closed;
      });
      return findRecord(deps, auth, tickets, id);
    },
  );

  app.post<RecordParams>(
    '/api/tickets/:id/restore',
    actionRoute({
      tag: tickets.name,
      operationId: 'ticketsRestore',
      summary: 'Restore a closed or archived ticket',
      description:
        "Back to the status a new ticket starts in (the tenant's `default_ticket_status_id`, else its first " +
        'open status); `resolved_at` is cleared. Any other ticket answers 422. Permission ' +
        `\`tenant.tickets.restore\`. ${OPERATORS_ONLY}`,
      answers: { 200: { description: 'The restored ticket.', schema: ticket } },
    }),
    async (request) => {
      const auth = await authorize(request, tickets, 'restore');
      validInput(request);
      const { id } = request.params;
      await findRecord(deps, auth, tickets, id);
      await moveTicketStatus(db, registry, auth, id, async (trx, type) => {
        if (type !== CLOSED && type !== ARCHIVED)
          throw new ValidationError({ status_id: [NOT_RESTORABLE] }, NOT_RESTORABLE);
        const status = await defaultStatusId({ trx, auth });
        if (status === null) throw new ValidationError({ status_id: [NO_OPEN_STATUS] }, NO_OPEN_STATUS);
        return status;
      });
      return findRecord(deps, auth, tickets, id);
    },
  );

  app.post<RecordParams>(
    '/api/tickets/:id/clone',
    actionRoute({
      tag: tickets.name,
      operationId: 'ticketsClone',
      summary: 'Copy a ticket',
      description:
        "A new ticket with the ticket's own fields and custom values, a new reference and the status a new " +
        'ticket starts in; messages, attachments and time are not copied. Permission ' +
        `\`tenant.tickets.clone\`. ${OPERATORS_ONLY}`,
      answers: { 201: { description: 'The new ticket.', schema: ticket } },
    }),
    async (request, reply) => {
      const auth = await authorize(request, tickets, 'clone');
      validInput(request);
      const { id } = request.params;
      const original = await findRecord(deps, auth, tickets, id);
      // The ticket's own fields as a create body; the status is left out, so the clone starts where a new
      // ticket starts, and the reference is the clone's own (drawn with its id, tickets/start.ts).
      const body: Record<string, unknown> = {};
      for (const field of writableFields(tickets, auth)) {
        if (field.name === 'status_id' || original[field.name] === undefined) continue;
        body[field.name] = asBodyValue(original[field.name]);
      }
      const clone = await storeRecord(deps, auth, tickets, body, async (newId, trx) => {
        await sql`insert into custom_values (tenant_id, custom_field_id, morphable_type, morphable_id, value)
        select tenant_id, custom_field_id, morphable_type, ${newId}, value from custom_values
        where tenant_id = ${auth.tenantId} and morphable_type = ${tickets.morphType ?? 'ticket'}
          and morphable_id = ${id}`.execute(trx);
      });
      reply.status(201);
      return clone;
    },
  );

  const merge = actionRoute({
    tag: tickets.name,
    operationId: 'ticketsMerge',
    summary: 'Merge tickets into the first one',
    description:
      'Everything that points at the other tickets (messages with their attachments, time registrations, ' +
      'used products, custom values the first ticket lacks) moves to the first ticket; the others are ' +
      'closed. Tickets of different companies answer 422. One transaction. ' +
      `${MERGE_FAILS} Permission \`tenant.tickets.merge\`. ${OPERATORS_ONLY}`,
    params: false,
    body: MERGE_BODY,
    answers: { 200: { description: 'The kept ticket.', schema: ticket } },
  });
  app.post('/api/tickets/merge', merge, async (request) => {
    const auth = await authorize(request, tickets, 'merge');
    validInput(request);
    const ids = bodyIds(request.body);
    const kept = ids[0]!;
    await db.transaction().execute((trx) => mergeTickets(deps, trx, auth, ids));
    return findRecord(deps, auth, tickets, kept);
  });
};
