/**
 * One fetched mail into the desk (issue 19, item 1), exactly once per mailbox and Message-ID:
 *
 * 1. Already in `mail_incoming` for this mailbox: nothing (fetched before, or by another instance).
 * 2. Who wrote it, as far as the mail proves it (authenticate.ts: DKIM, the tenant's receiving server's
 *    Authentication-Results); an unproven sender is 'unverified', and a tenant may refuse such mail
 *    (the setting `mail_unverified_sender` = `refuse`: recorded as rejected, no message).
 * 3. Which ticket it joins and whose words it is (placement.ts, issue 31): only a mail that proves it
 *    belongs (our reply token, or a verified participant) joins a ticket; an unverified sender's message
 *    is held for operators (not visible to the client) until one confirms it.
 * 4. It becomes a message on that ticket, or a new ticket with it as the first message: for a verified
 *    client (its first company), or else in the tenant's 'unknown sender' ticket group. Both through the
 *    same repository path (storeRecord, with its hooks) as a client's portal reply and a new portal
 *    ticket, so whatever listens there hears mail too. `original_email_from` holds the sender.
 * 5. The `mail_incoming` row is written in the transaction of that message (or of the new ticket, then
 *    marked done in the first message's): its unique (mailbox, Message-ID) makes a second instance that
 *    fetched the same mail at the same moment roll back.
 *
 * A mail written by a machine (auto-reply, bounce, list, or our own) is recorded but answers nothing:
 * on a ticket it becomes a message like any (nothing mails a client's message), and one that answers no
 * ticket makes no ticket: the `mail_incoming` row alone. Nothing here ever sends a mail. A mail without
 * a usable sender address (none, one that does not parse, an empty one) that answers no ticket is
 * recorded as rejected and opens nothing (issue 31): nobody could be answered.
 *
 * The mail is read in the reader's thread (parse-thread.ts), which also sanitises its text; one that
 * cannot be read there in time is recorded as rejected.
 */
import { sql } from 'kysely';
import { discard } from '../../files/upload.ts';
import { readMail, ReaderUnavailable } from './parse-thread.ts';
import type { IncomingMail } from './parse.ts';
import { checkSender, mailResolver } from './authenticate.ts';
import { placeMail, refusesUnverified } from './placement.ts';
import type { InboundDeps, MailboxRef } from './deps.ts';
import { messageHtml, storeAttachments } from './contents.ts';
import { AlreadyTaken, alreadyClaimed, claim, markDone, messageKey, recordOnly } from './incoming-rows.ts';
import { addMessage, openTicket } from './writes.ts';

export type Outcome =
  | { kind: 'duplicate' }
  | { kind: 'message'; ticketId: number; messageId: number }
  | { kind: 'ticket'; ticketId: number; messageId: number }
  | { kind: 'recorded'; reason: string }
  | { kind: 'rejected'; error: string };

/** A ticket made from a mail already: its first message waits no longer than this for its instance. */
const RESUME_AFTER = '5 minutes';

/** Why the mail is one of ours come back, if it is. */
async function oursBy(deps: InboundDeps, box: MailboxRef, mail: IncomingMail): Promise<string | undefined> {
  const own = [deps.ourAddress, box.replyTo, box.username].filter(Boolean).map((a) => a!.toLowerCase());
  if (mail.from && own.includes(mail.from)) return 'sent from our own address';
  if (mail.messageId) {
    const sent = await deps.db
      .selectFrom('mail_outbox')
      .select('id')
      .where('message_id', '=', mail.messageId)
      .executeTakeFirst();
    if (sent) return 'a mail we sent';
  }
  return undefined;
}

/** Takes one raw mail of `box` (its IMAP UID under `uidValidity`) into the desk. Never throws for the mail's own faults. */
export async function processMail(
  deps: InboundDeps,
  box: MailboxRef,
  raw: Buffer,
  uidValidity: string,
  uid: number,
): Promise<Outcome> {
  let mail: IncomingMail;
  try {
    mail = await readMail(raw, { maxAttachments: deps.maxAttachments }, deps.readTimeoutMs);
  } catch (error) {
    // No reader at all is not the mail's fault: the fetcher leaves it for a later round.
    if (error instanceof ReaderUnavailable) throw error;
    const message = error instanceof Error ? error.message : String(error);
    const key = `<unreadable.${uidValidity}.${uid}@mailbox>`;
    await recordOnly(deps.db, box, key, uid, undefined, { status: 'rejected', error: message });
    return { kind: 'rejected', error: message };
  }
  const key = messageKey(mail, uidValidity, uid);
  const seen = await deps.db
    .selectFrom('mail_incoming')
    .select(['id', 'status', 'ticket_id'])
    .select(sql<boolean>`created_at < now() - ${RESUME_AFTER}::interval`.as('stale'))
    .where('mailbox_id', '=', box.id)
    .where('message_key', '=', key)
    .executeTakeFirst();
  // A ticket made from it whose first message never came (its instance died): that message now.
  const resume = seen && seen.status === 'ticket' && seen.stale && seen.ticket_id !== null;
  if (seen && !resume) return { kind: 'duplicate' };

  const automatic = mail.automatic ?? (await oursBy(deps, box, mail));
  const resolver = (deps.resolver ??= mailResolver(undefined));
  const check = await checkSender(raw, mail.from, { authservId: box.authservId, resolver });
  const placement = await placeMail(deps.db, deps.registry, box.tenantId, mail, check, { fresh: !!resume });
  const ticketId = resume ? Number(seen.ticket_id) : placement.ticketId;
  if (automatic && ticketId === undefined) {
    const recorded = await recordOnly(deps.db, box, key, uid, mail, { status: 'done', auto_reply: true });
    return recorded ? { kind: 'recorded', reason: automatic } : { kind: 'duplicate' };
  }
  if (!mail.from && ticketId === undefined) {
    const error = 'The mail has no usable sender address (From); it opens no ticket.';
    const recorded = await recordOnly(deps.db, box, key, uid, mail, { status: 'rejected', error });
    return recorded ? { kind: 'rejected', error } : { kind: 'duplicate' };
  }
  if (!check.verified && !resume && (await refusesUnverified(deps.db, box.tenantId))) {
    const error = `The sender could not be verified (${check.note}); the tenant refuses such mail.`;
    const recorded = await recordOnly(deps.db, box, key, uid, mail, { status: 'rejected', error });
    return recorded ? { kind: 'rejected', error } : { kind: 'duplicate' };
  }

  const { author } = placement;
  const { files, refused } = await storeAttachments(deps, mail);
  try {
    const html = messageHtml(mail, [...mail.notKept, ...refused]);
    if (ticketId !== undefined) {
      const messageId = await addMessage(deps, box, author, ticketId, mail, html, files, async (trx, id) => {
        if (resume) await markDone(trx, box, key, id, true);
        else
          await claim(trx, box, key, uid, mail, {
            status: 'done',
            ticketId,
            messageId: id,
            automatic: !!automatic,
          });
      });
      return { kind: 'message', ticketId, messageId };
    }
    const newTicket = await openTicket(deps, box, placement.client, mail, key, uid);
    const messageId = await addMessage(deps, box, author, newTicket, mail, html, files, (trx, id) =>
      markDone(trx, box, key, id, false),
    );
    return { kind: 'ticket', ticketId: newTicket, messageId };
  } catch (error) {
    await discard(deps.store, files);
    if (error instanceof AlreadyTaken) return { kind: 'duplicate' };
    // Another instance wrote the same mail first (the unique key): not an error.
    if (!resume && (await alreadyClaimed(deps.db, box, key))) return { kind: 'duplicate' };
    throw error;
  }
}
