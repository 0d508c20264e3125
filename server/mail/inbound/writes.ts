/**
 * The mail's ticket and message, written through the same repository path (insertRecord, with its hooks)
 * as a client's portal ticket and reply: as the client where the portal's rules allow it, else by the desk.
 */
import { systemContext, type AuthContext } from '../../auth/context.ts';
import { automationEvent } from '../../automation/events.ts';
import type { DbTransaction } from '../../db/database.ts';
import type { StoredUpload } from '../../files/upload.ts';
import { HttpError } from '../../http/errors.ts';
import { BodyValidation } from '../../schema/validate.ts';
import { insertAttachments } from '../../resources/attachments/rows.ts';
import { insertRecord, type Deps } from '../../resources/repository.ts';
import type { InboundDeps, MailboxRef } from './deps.ts';
import { AlreadyTaken, alreadyClaimed, claim, doneAlready } from './incoming-rows.ts';
import type { IncomingMail } from './parse.ts';
import type { Author } from './placement.ts';
import { unknownSenderGroup } from './unknown-sender.ts';

/** A new ticket for the mail, with its `mail_incoming` row in the same transaction. */
export async function openTicket(
  deps: InboundDeps,
  box: MailboxRef,
  client: AuthContext | undefined,
  mail: IncomingMail,
  key: string,
  uid: number,
): Promise<number> {
  const tickets = deps.registry.require('tickets');
  const repo: Deps = { db: deps.db, registry: deps.registry, validation: new BodyValidation() };
  const description = (mail.subject || mail.from || '…').slice(0, 255);
  const inTransaction = (id: number, trx: DbTransaction) =>
    claim(trx, box, key, uid, mail, { status: 'ticket', ticketId: id, automatic: false });
  if (client) {
    // As the client's own portal ticket; the desk's when the portal's rules refuse it (a required field).
    const body = { description, ...(client.companyIds.length ? { company_id: client.companyIds[0] } : {}) };
    try {
      return await insertRecord(repo, client, tickets, body, inTransaction);
    } catch (error) {
      if (!(error instanceof HttpError) || error.statusCode >= 500) throw error;
      if (await alreadyClaimed(deps.db, box, key)) throw new AlreadyTaken();
    }
    const body2 = { ...body, client_id: client.userId };
    return await insertRecord(repo, systemContext(box.tenantId), tickets, body2, inTransaction);
  }
  const group = await unknownSenderGroup(deps.db, box.tenantId);
  const body = { description, ticket_group_id: group };
  return await insertRecord(repo, systemContext(box.tenantId), tickets, body, inTransaction);
}

/** The mail as a message on the ticket: as the client, or by the desk with the author's fields (placement.ts). */
export async function addMessage(
  deps: InboundDeps,
  box: MailboxRef,
  author: Author,
  ticketId: number,
  mail: IncomingMail,
  html: string,
  files: StoredUpload[],
  alsoInTransaction: (trx: DbTransaction, messageId: number) => Promise<void>,
): Promise<number> {
  const messages = deps.registry.require('messages');
  const repo: Deps = { db: deps.db, registry: deps.registry, validation: new BodyValidation() };
  const body = {
    morphable_type: 'ticket',
    morphable_id: ticketId,
    message: html,
    description: mail.subject ? mail.subject.slice(0, 255) : null,
    ...author.fields,
  };
  const client = author.client;
  const write = async (id: number, trx: DbTransaction) => {
    await insertAttachments(trx, files, {
      tenantId: box.tenantId,
      userId: client?.userId ?? null,
      messageId: id,
      embedded: false,
    });
    await trx
      .updateTable('messages')
      .set({
        original_email_from: mail.from?.slice(0, 255) ?? null,
        mail_message_id: mail.messageId?.slice(0, 500) ?? null,
        sender_check: author.senderCheck,
        sender_check_note: author.note.slice(0, 500),
        ...(author.actorId === undefined ? {} : { actor_id: author.actorId }),
      })
      .where('tenant_id', '=', box.tenantId)
      .where('id', '=', id)
      .execute();
    await automationEvent(trx, { tenantId: box.tenantId, event: 'mail_received', ticketId });
    await alsoInTransaction(trx, id);
  };
  if (client) {
    // The portal's fixed values (visible_to_client, is_from_client) are the hooks' to write, as for a portal reply.
    const { is_from_client: _from, visible_to_client: _visible, ...portalBody } = body;
    try {
      return await insertRecord(repo, client, messages, portalBody, write);
    } catch (error) {
      // Not a ticket the client may see (another company's): written by the desk, as from the client.
      if (!(error instanceof HttpError) || error.statusCode >= 500) throw error;
      if (await doneAlready(deps.db, box, mail)) throw new AlreadyTaken();
    }
  }
  return await insertRecord(repo, systemContext(box.tenantId), messages, body, write);
}
