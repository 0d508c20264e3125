/**
 * Queueing a mail: a row of `mail_outbox` written in the caller's transaction, beside what caused it,
 * for whichever instance's sender claims it (outbox.ts).
 */
import type { Db } from '../db/database.ts';
import type { MailMessage } from './mailer.ts';
import { newMessageId } from './message-id.ts';

/** An attachment by reference: its bytes stay in the file store until the mail is sent. */
export interface OutboxAttachment {
  filename: string;
  contentType: string;
  /** The file store's key of the bytes. */
  key: string;
  cid?: string;
}

export interface OutboxMail extends Omit<MailMessage, 'attachments'> {
  attachments?: OutboxAttachment[];
}

/** What a mail is about: the tenant, and the record whose resource hears how it ends. */
export interface OutboxAbout {
  /** Whose operators see the mail in their list of outgoing mail: every mail has one. */
  tenantId: number;
  source?: string;
  sourceId?: number;
  /** The resource's own note, given back to its handlers (JSON). */
  context?: unknown;
}

const list = (value: string | string[] | undefined) => (value === undefined ? [] : [value].flat());

/** The address the tenant's answers should go to: its first active mailbox's Reply-To, if any. */
export async function tenantReplyTo(db: Db, tenantId: number): Promise<string | undefined> {
  const row = await db
    .selectFrom('mailboxes')
    .select('reply_to')
    .where('tenant_id', '=', tenantId)
    .where('active', '=', true)
    .where('reply_to', 'is not', null)
    .orderBy('id')
    .executeTakeFirst();
  return row?.reply_to ?? undefined;
}

/**
 * Queues a mail; in the caller's transaction when given one. Returns the row's id. Every mail gets a
 * Message-ID of ours, recorded on the row (`message_id`), the tenant's Reply-To unless it has one, and
 * asks Exchange not to answer it with an out-of-office note (issue 19: replies that thread, no loops).
 */
export async function enqueueMail(db: Db, input: OutboxMail, about: OutboxAbout): Promise<number> {
  const replyTo = input.replyTo ?? (await tenantReplyTo(db, about.tenantId));
  const mail: OutboxMail = {
    ...input,
    messageId: input.messageId ?? newMessageId(),
    ...(replyTo ? { replyTo } : {}),
    headers: { 'X-Auto-Response-Suppress': 'OOF, AutoReply', ...input.headers },
  };
  const row = await db
    .insertInto('mail_outbox')
    .values({
      tenant_id: about.tenantId,
      recipients: [...list(mail.to), ...(mail.cc ?? []), ...(mail.bcc ?? [])].join(', ').slice(0, 2000),
      subject: mail.subject.slice(0, 500),
      mail: JSON.stringify(mail),
      source: about.source ?? null,
      source_id: about.sourceId ?? null,
      context: about.context === undefined ? null : JSON.stringify(about.context),
      message_id: mail.messageId,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(row.id);
}
