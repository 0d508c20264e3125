/**
 * An operator's verdict on a mail whose sender was not verified (issue 31, item 2):
 *
 * - POST /api/messages/{id}/confirm-sender: the sender is who the From line says. The message becomes
 *   theirs: from the client (the tenant's client with that address, if there is one, as its author) and
 *   visible to the client; a ticket without a client gets that client and its company.
 * - POST /api/messages/{id}/reject-sender: it is not. The message stays for the record (operators see
 *   it marked rejected), never visible to the client; nothing else changes.
 *
 * Only a message held as 'unverified' can be decided (422 otherwise); another tenant's message, or one
 * the operator may not see, is a 404. Permissions `tenant.messages.confirm-sender` and
 * `tenant.messages.reject-sender`; clients get 403.
 */
import { sql } from 'kysely';
import type { DbTransaction } from '../../db/database.ts';
import type { AuthContext } from '../../auth/context.ts';
import { linkHolderContext } from '../../auth/authenticate.ts';
import { notFound, ValidationError } from '../../http/errors.ts';
import { BodyValidation } from '../../schema/validate.ts';
import type { ActionPlugin } from '../action-contract.ts';
import { authorize } from '../plugin.ts';
import { validInput, type RecordParams } from '../../http/route-validation.ts';
import { findRecord, type Deps } from '../repository.ts';
import { actionRoute, OPERATORS_ONLY, recordRef } from '../../docs/action-schema.ts';
import { serverText } from '../../../common/server-texts.ts';
import { recordTicketChanges } from '../tickets/history.ts';
import { ticketsChanged } from '../notifications/notify.ts';
import { keepTicketClocks } from '../../sla/keep.ts';

export const NOT_HELD = serverText('message_sender_not_held');

/** The tenant's active client with this address, as the portal would see them; undefined if none. */
async function clientByAddress(deps: Deps, tenantId: number, address: string | null) {
  if (!address) return undefined;
  const user = await deps.db
    .selectFrom('users')
    .select('id')
    .where('tenant_id', '=', tenantId)
    .where('is_staff', '=', false)
    .where('archived_at', 'is', null)
    .where(sql`lower(email)`, '=', address.toLowerCase())
    .orderBy('id')
    .executeTakeFirst();
  if (!user) return undefined;
  const context = await linkHolderContext(deps.db, tenantId, Number(user.id));
  return context?.kind === 'client' ? context : undefined;
}

/** Locks the held message; 422 when it is not (or no longer) waiting for a verdict. */
async function lockHeld(trx: DbTransaction, auth: AuthContext, id: number) {
  const row = await trx
    .selectFrom('messages')
    .select(['morphable_type', 'morphable_id', 'sender_check'])
    .where('tenant_id', '=', auth.tenantId)
    .where('id', '=', id)
    .forUpdate()
    .executeTakeFirst();
  if (!row) throw notFound();
  if (row.sender_check !== 'unverified') throw new ValidationError({ sender_check: [NOT_HELD] }, NOT_HELD);
  return { type: String(row.morphable_type), recordId: Number(row.morphable_id) };
}

/** A ticket without a client gets the confirmed client (and their first company, if it has none). */
async function giveTicketClient(
  trx: DbTransaction,
  deps: Deps,
  auth: AuthContext,
  ticketId: number,
  client: AuthContext,
): Promise<void> {
  const ticket = await trx
    .selectFrom('tickets')
    .select(['client_id', 'company_id'])
    .where('tenant_id', '=', auth.tenantId)
    .where('id', '=', ticketId)
    .forUpdate()
    .executeTakeFirst();
  if (!ticket || ticket.client_id !== null) return;
  const changes = {
    client_id: client.userId,
    company_id: ticket.company_id ?? client.companyIds[0] ?? null,
  };
  await recordTicketChanges(trx, deps.registry, auth, [ticketId], changes);
  await trx
    .updateTable('tickets')
    .set({ ...changes, updated_at: sql`now()` })
    .where('tenant_id', '=', auth.tenantId)
    .where('id', '=', ticketId)
    .execute();
}

export const messageSenderActions: ActionPlugin = async (app, { db, registry }) => {
  const messages = registry.require('messages');
  const deps: Deps = { db, registry, validation: new BodyValidation() };
  const message = recordRef(registry, messages);

  const route = (decision: 'confirm' | 'reject', summary: string, description: string) =>
    app.post<RecordParams>(
      `/api/messages/:id/${decision}-sender`,
      actionRoute({
        tag: messages.name,
        operationId: `messages${decision === 'confirm' ? 'Confirm' : 'Reject'}Sender`,
        summary,
        description:
          `${description} Only a message whose sender is not verified (\`sender_check\` unverified) can be ` +
          `decided; any other answers 422. Permission \`tenant.messages.${decision}-sender\`. ${OPERATORS_ONLY}`,
        answers: { 200: { description: 'The message as it is now.', schema: message } },
      }),
      async (request) => {
        const auth = await authorize(request, messages, `${decision}-sender`);
        validInput(request);
        const { id } = request.params;
        const shown = await findRecord(deps, auth, messages, id);
        // Read before the transaction: PGlite's one connection is the transaction's while it runs.
        const client =
          decision === 'confirm'
            ? await clientByAddress(deps, auth.tenantId, (shown.original_email_from as string | null) ?? null)
            : undefined;
        await db.transaction().execute(async (trx) => {
          const held = await lockHeld(trx, auth, id);
          const verdict =
            decision === 'reject'
              ? { sender_check: 'rejected', visible_to_client: false }
              : {
                  sender_check: 'confirmed',
                  is_from_client: true,
                  visible_to_client: true,
                  actor_id: client?.userId ?? null,
                };
          await trx
            .updateTable('messages')
            .set({ ...verdict, updated_at: sql`now()` })
            .where('tenant_id', '=', auth.tenantId)
            .where('id', '=', id)
            .execute();
          if (held.type !== 'ticket') return;
          if (client) await giveTicketClient(trx, deps, auth, held.recordId, client);
          // A confirmed mail is a client's reply from now on (it may start a next-response target).
          await keepTicketClocks(trx, auth.tenantId, [held.recordId]);
          await ticketsChanged(trx, auth.tenantId, [held.recordId]);
        });
        return findRecord(deps, auth, messages, id);
      },
    );

  route(
    'confirm',
    'Confirm the unverified sender of a mail',
    'The sender is who the From line says: the message becomes theirs (from the client with that address, ' +
      'if the tenant has one, as its author) and visible to the client; a ticket without a client gets that ' +
      'client and its company.',
  );
  route(
    'reject',
    'Reject the unverified sender of a mail',
    'The sender is not who the From line says: the message stays for the record, marked rejected, and is ' +
      'never shown to the client.',
  );
};
