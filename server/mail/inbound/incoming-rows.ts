/**
 * The `mail_incoming` rows: one per mailbox and Message-ID, the record that a mail was taken in (or why
 * not). Its unique (mailbox, message key) is what makes a mail count once across instances.
 */
import type { Db, DbTransaction } from '../../db/database.ts';
import type { MailboxRef } from './deps.ts';
import type { IncomingMail } from './parse.ts';

/** Another instance took the mail in meanwhile: what this one wrote must roll back. */
export class AlreadyTaken extends Error {}

/** The mail's key in `mail_incoming`: its Message-ID, or one made from its IMAP UID. */
export const messageKey = (mail: IncomingMail, uidValidity: string, uid: number) =>
  (mail.messageId ?? `<uid.${uidValidity}.${uid}@mailbox>`).slice(0, 500);

/** The mail recorded without a message (a machine's mail, a refused one): false when it was already. */
export async function recordOnly(
  db: Db,
  box: MailboxRef,
  key: string,
  uid: number,
  mail: IncomingMail | undefined,
  fields: { status: 'done' | 'rejected'; auto_reply?: boolean; error?: string },
): Promise<boolean> {
  const result = await db
    .insertInto('mail_incoming')
    .values({
      tenant_id: box.tenantId,
      mailbox_id: box.id,
      message_key: key,
      uid,
      sender: mail?.from?.slice(0, 255) ?? null,
      subject: mail?.subject.slice(0, 500) ?? null,
      status: fields.status,
      auto_reply: fields.auto_reply ?? false,
      error: fields.error?.slice(0, 1000) ?? null,
    })
    .onConflict((oc) => oc.columns(['mailbox_id', 'message_key']).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

/** The row written in the transaction of the ticket or message the mail made. */
export async function claim(
  trx: DbTransaction,
  box: MailboxRef,
  key: string,
  uid: number,
  mail: IncomingMail,
  fields: { status: 'ticket' | 'done'; ticketId: number; messageId?: number; automatic: boolean },
): Promise<void> {
  await trx
    .insertInto('mail_incoming')
    .values({
      tenant_id: box.tenantId,
      mailbox_id: box.id,
      message_key: key,
      uid,
      sender: mail.from?.slice(0, 255) ?? null,
      subject: mail.subject.slice(0, 500),
      status: fields.status,
      auto_reply: fields.automatic,
      ticket_id: fields.ticketId,
      message_id: fields.messageId ?? null,
    })
    .execute();
}

/** A ticket's row (`ticket`) finished by its first message (`done`). */
export async function markDone(
  trx: DbTransaction,
  box: MailboxRef,
  key: string,
  messageId: number | undefined,
  resumed: boolean,
): Promise<void> {
  const done = await trx
    .updateTable('mail_incoming')
    .set({ status: 'done', ...(messageId === undefined ? {} : { message_id: messageId }) })
    .where('mailbox_id', '=', box.id)
    .where('message_key', '=', key)
    .where('status', '=', 'ticket')
    .executeTakeFirst();
  // Another instance finished it meanwhile (a resumed ticket): this message must not stay.
  if (Number(done.numUpdatedRows) === 0 && (resumed || messageId !== undefined)) throw new AlreadyTaken();
}

export async function alreadyClaimed(db: Db, box: MailboxRef, key: string): Promise<boolean> {
  const row = await db
    .selectFrom('mail_incoming')
    .select('id')
    .where('mailbox_id', '=', box.id)
    .where('message_key', '=', key)
    .executeTakeFirst();
  return row !== undefined;
}

export async function doneAlready(db: Db, box: MailboxRef, mail: IncomingMail): Promise<boolean> {
  if (!mail.messageId) return false;
  const row = await db
    .selectFrom('mail_incoming')
    .select('id')
    .where('mailbox_id', '=', box.id)
    .where('message_key', '=', mail.messageId)
    .where('status', '=', 'done')
    .executeTakeFirst();
  return row !== undefined;
}
