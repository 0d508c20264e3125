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
import type { AuthContext } from '../../auth/context.ts';
import type { Db, DbTransaction } from '../../db/database.ts';
import { inspectBuffer } from '../../files/inspect.ts';
import { judgeFile } from '../../files/kinds.ts';
import type { FileStore } from '../../files/store.ts';
import { cleanFileName, discard, type StoredUpload } from '../../files/upload.ts';
import { escapeHtml } from '../../html/escape.ts';
import { HttpError } from '../../http/errors.ts';
import type { Registry } from '../../schema/registry.ts';
import { BodyValidation } from '../../schema/validate.ts';
import { insertAttachments } from '../../resources/attachments/rows.ts';
import { storeRecord, type Deps } from '../../resources/repository.ts';
import { tenantConfig } from '../../settings/tenant-config.ts';
import type { IncomingMail } from './parse.ts';
import { readMail, ReaderUnavailable } from './parse-thread.ts';
import { hasVisibleText } from './quote-split.ts';
import { checkSender, mailResolver, type DnsResolver } from './authenticate.ts';
import { placeMail, refusesUnverified, type Author } from './placement.ts';

export interface InboundDeps {
  db: Db;
  registry: Registry;
  store: FileStore;
  attachmentMaxBytes: number;
  /** MAIL_MAX_ATTACHMENTS: the files kept of one mail. */
  maxAttachments: number;
  /** How long the reader's thread may take for one mail (parse-thread.ts's READ_TIMEOUT_MS unless set). */
  readTimeoutMs?: number;
  /** MAIL_FROM's address: a mail from it is one of ours come back. */
  ourAddress?: string;
  /** How DKIM keys are looked up (MAIL_DNS_SERVERS); the system's resolver when not given. */
  resolver?: DnsResolver;
}

export interface MailboxRef {
  id: number;
  tenantId: number;
  username: string;
  replyTo: string | null;
  /** The authserv-id of the tenant's receiving server: its Authentication-Results are believed. */
  authservId: string | null;
}

export type Outcome =
  | { kind: 'duplicate' }
  | { kind: 'message'; ticketId: number; messageId: number }
  | { kind: 'ticket'; ticketId: number; messageId: number }
  | { kind: 'recorded'; reason: string }
  | { kind: 'rejected'; error: string };

/** The tenant setting that names the 'unknown sender' queue (a ticket group). */
export const UNKNOWN_SENDER_GROUP = 'unknown_sender_ticket_group_id';
const UNKNOWN_SENDER_NAME = 'Onbekende afzender / Unknown sender';
/** A ticket made from a mail already: its first message waits no longer than this for its instance. */
const RESUME_AFTER = '5 minutes';

class AlreadyTaken extends Error {}

/** Who wrote the mail as the repository sees it: the client, or the desk itself (no user). */
function systemContext(tenantId: number): AuthContext {
  return {
    kind: 'operator',
    userId: null,
    tenantId,
    isOperator: 2,
    permissions: new Set(),
    companyIds: [],
    categoryIds: [],
  };
}

const messageKey = (mail: IncomingMail, uidValidity: string, uid: number) =>
  (mail.messageId ?? `<uid.${uidValidity}.${uid}@mailbox>`).slice(0, 500);

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

/** The 'unknown sender' ticket group of the tenant: the setting's, else one made now and set. */
async function unknownSenderGroup(db: Db, tenantId: number): Promise<number> {
  return db.transaction().execute(async (trx) => {
    // One maker per tenant at a time: two instances must not make two groups.
    await sql`select pg_advisory_xact_lock(19026, ${tenantId})`.execute(trx);
    const configured = Number(await tenantConfig(trx, tenantId, UNKNOWN_SENDER_GROUP));
    if (Number.isSafeInteger(configured) && configured > 0) {
      const group = await trx
        .selectFrom('ticket_groups')
        .select('id')
        .where('tenant_id', '=', tenantId)
        .where('id', '=', configured)
        .executeTakeFirst();
      if (group) return Number(group.id);
    }
    const made = await trx
      .insertInto('ticket_groups')
      .values({
        tenant_id: tenantId,
        name: UNKNOWN_SENDER_NAME,
        description: 'E-mail from addresses that are no client: look who it is, then move the ticket.',
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await trx
      .deleteFrom('tenant_configs')
      .where('tenant_id', '=', tenantId)
      .where('name', '=', UNKNOWN_SENDER_GROUP)
      .execute();
    await trx
      .insertInto('tenant_configs')
      .values({ tenant_id: tenantId, name: UNKNOWN_SENDER_GROUP, value: String(made.id) })
      .execute();
    return Number(made.id);
  });
}

/** The mail's files that pass the upload rules, in the store; the others named with the reason. */
async function storeAttachments(
  deps: InboundDeps,
  mail: IncomingMail,
): Promise<{ files: StoredUpload[]; refused: string[] }> {
  const files: StoredUpload[] = [];
  const refused: string[] = [];
  try {
    for (const [i, a] of mail.attachments.entries()) {
      const name = cleanFileName(a.filename) || `attachment-${i + 1}`;
      if (a.content.length > deps.attachmentMaxBytes) {
        refused.push(`${name}: the file is too large (over ${deps.attachmentMaxBytes} bytes).`);
        continue;
      }
      const verdict = judgeFile(name, inspectBuffer(a.content));
      if (!verdict.ok) {
        refused.push(`${name}: ${verdict.message}`);
        continue;
      }
      const put = await deps.store.put(a.content);
      files.push({
        key: put.key,
        name,
        extension: verdict.extension,
        size: put.size,
        mime: verdict.type.mime,
        kind: verdict.type.kind,
        field: 'file',
      });
    }
  } catch (error) {
    await discard(deps.store, files);
    throw error;
  }
  return { files, refused };
}

/**
 * The message's HTML: the new text, the quoted reply folded, a line for each thing not kept. Both parts
 * come sanitised from the reader's thread; the messages' hook sanitises the whole again on store.
 */
function messageHtml(mail: IncomingMail, refused: string[]): string {
  let html = mail.html;
  if (!hasVisibleText(html)) html = `<p>${escapeHtml(mail.subject || '…')}</p>`;
  if (mail.quoted) html += `<details><summary>…</summary>${mail.quoted}</details>`;
  if (refused.length)
    html += `<p><em>${refused.map((r) => escapeHtml(`Not kept: ${r}`)).join('<br>')}</em></p>`;
  return html;
}

async function recordOnly(
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

async function claim(
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

async function markDone(
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

/** A new ticket for the mail, with its `mail_incoming` row in the same transaction. */
async function openTicket(
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
      return Number((await storeRecord(repo, client, tickets, body, inTransaction)).id);
    } catch (error) {
      if (!(error instanceof HttpError) || error.statusCode >= 500) throw error;
      if (await alreadyClaimed(deps.db, box, key)) throw new AlreadyTaken();
    }
    const body2 = { ...body, client_id: client.userId };
    return Number((await storeRecord(repo, systemContext(box.tenantId), tickets, body2, inTransaction)).id);
  }
  const group = await unknownSenderGroup(deps.db, box.tenantId);
  const body = { description, ticket_group_id: group };
  return Number((await storeRecord(repo, systemContext(box.tenantId), tickets, body, inTransaction)).id);
}

async function alreadyClaimed(db: Db, box: MailboxRef, key: string): Promise<boolean> {
  const row = await db
    .selectFrom('mail_incoming')
    .select('id')
    .where('mailbox_id', '=', box.id)
    .where('message_key', '=', key)
    .executeTakeFirst();
  return row !== undefined;
}

/** The mail as a message on the ticket: as the client, or by the desk with the author's fields (placement.ts). */
async function addMessage(
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
    await alsoInTransaction(trx, id);
  };
  if (client) {
    // The portal's fixed values (visible_to_client, is_from_client) are the hooks' to write, as for a portal reply.
    const { is_from_client: _from, visible_to_client: _visible, ...portalBody } = body;
    try {
      return Number((await storeRecord(repo, client, messages, portalBody, write)).id);
    } catch (error) {
      // Not a ticket the client may see (another company's): written by the desk, as from the client.
      if (!(error instanceof HttpError) || error.statusCode >= 500) throw error;
      if (await doneAlready(deps.db, box, mail)) throw new AlreadyTaken();
    }
  }
  return Number((await storeRecord(repo, systemContext(box.tenantId), messages, body, write)).id);
}

async function doneAlready(db: Db, box: MailboxRef, mail: IncomingMail): Promise<boolean> {
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
