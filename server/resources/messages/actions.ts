/**
 * `POST /api/messages` (SPEC 7 "create message"), multipart or JSON, in place of the generic create:
 *
 * 1. the form is read (files streamed into the store, each judged by name and content);
 * 2. the record the message is on must be one the caller sees (404 otherwise); the rules of
 *    messages/form.ts for clients; `attachment_ids` must be the caller's own uploads of this tenant
 *    that no message holds yet (422 otherwise);
 * 3. one transaction: the message (through the generic store: schema validation, the sanitising
 *    hook, portal conditions), its new files, and the linked uploads, including the caller's
 *    uploads its HTML shows as images;
 * 4. an operator's message with `send_to_client` is mailed (to, cc, bcc, attachments): its mail is
 *    queued in the outbox in that same transaction, then tried at once. Its recipients are recorded
 *    when it is sent. The message stands if the mail fails; the answer then says so in `mail_error`,
 *    and the outbox tries again; a mail given up for good sets the message's stored `mail_error`,
 *    which operators see on the message.
 *
 * Answer: 201 with the message as `GET /api/messages/{id}?with[]=attachments` gives it.
 */
import multipart from '@fastify/multipart';
import { sql } from 'kysely';
import type { DbTransaction } from '../../db/database.ts';
import type { Resource } from '../../../common/schema/types.ts';
import type { AuthContext } from '../../auth/context.ts';
import { fileStoreFor, type FileStore } from '../../files/store.ts';
import {
  discard,
  multipartLimits,
  readMultipart,
  type MultipartForm,
  type StoredUpload,
  type UploadLimits,
} from '../../files/upload.ts';
import { embeddedImageIds, sanitizeMessage } from '../../html/sanitize.ts';
import { baseFieldName } from '../../http/form-values.ts';
import { formValues, validForm } from '../../http/form-body.ts';
import { validating, validInputWith } from '../../http/route-validation.ts';
import { ValidationError } from '../../http/errors.ts';
import { enqueueMail } from '../../mail/enqueue.ts';
import { newMessageId } from '../../mail/message-id.ts';
import { ticketMessageId } from '../../mail/reply-token.ts';
import { BodyValidation } from '../../schema/validate.ts';
import type { ActionPlugin } from '../action-contract.ts';
import { authorize } from '../plugin.ts';
import { findRecord, insertRecord, type Deps } from '../repository.ts';
import { insertAttachments } from '../attachments/rows.ts';
import { readMessageForm, type MessageForm } from './form.ts';
import { messageMail } from './mail.ts';
import { checkAddresses, defaultAddress, describeRecipients, type Addresses } from './recipients.ts';
import { createMessageSchema } from './openapi.ts';
import { serverText } from '../../../common/server-texts.ts';

const MAX_FILES = 20;

/** The answer's `mail_error` when the first attempt failed: the outbox goes on trying. */
export const MAIL_RETRYING = serverText('message_mail_retrying');
/** The answer's `mail_error` when that attempt was the last one allowed (MAIL_MAX_ATTEMPTS 1). */
export const MAIL_GIVEN_UP_NOW = serverText('message_mail_given_up');
/** The message's stored `mail_error` once the outbox gave its mail up. */
export const MAIL_GIVEN_UP = 'The e-mail to the client could not be sent and has been given up';

/** What the outbox row of a message's mail keeps for its handlers. */
interface MailContext {
  addresses: Addresses;
}

export interface Owner {
  type: string;
  resource: Resource;
  id: number;
}

/** The record a message is to be written on, if the caller may see it; 404 if not. */
async function ownerOf(deps: Deps, auth: AuthContext, messages: Resource, record: Record<string, unknown>) {
  const relation = messages.relations.morphable;
  const type = record.morphable_type;
  const id = record.morphable_id;
  // Malformed values are the schema validation's to report (422), after this.
  if (relation?.kind !== 'morphTo' || typeof type !== 'string' || !Object.hasOwn(relation.types, type))
    return;
  if (typeof id !== 'number' || !Number.isInteger(id) || id < 1 || id > 2_147_483_647) return;
  const resource = deps.registry.require(relation.types[type]!);
  await findRecord(deps, auth, resource, id);
  return { type, resource, id } satisfies Owner;
}

/** The caller's own uploads of this tenant that no message holds yet, among `ids`. */
async function ownUnlinked(
  db: Deps['db'] | DbTransaction,
  auth: AuthContext,
  ids: number[],
): Promise<number[]> {
  if (ids.length === 0 || auth.userId === null) return [];
  const rows = await db
    .selectFrom('attachments')
    .select('id')
    .where('tenant_id', '=', auth.tenantId)
    .where('id', 'in', ids)
    .where('message_id', 'is', null)
    .where('user_id', '=', auth.userId)
    .execute();
  return rows.map((r) => Number(r.id));
}

async function linkUploads(trx: DbTransaction, auth: AuthContext, messageId: number, ids: number[]) {
  if (ids.length === 0 || auth.userId === null) return 0;
  const result = await trx
    .updateTable('attachments')
    .set({ message_id: messageId })
    .where('tenant_id', '=', auth.tenantId)
    .where('id', 'in', ids)
    .where('message_id', 'is', null)
    .where('user_id', '=', auth.userId)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

export const messageActions: ActionPlugin = async (app, { db, registry, config }) => {
  const messages = registry.require('messages');
  const deps: Deps = { db, registry, validation: new BodyValidation() };
  const store: FileStore = fileStoreFor(config, db);
  const limits: UploadLimits = { maxBytes: config.attachmentMaxBytes, maxFiles: MAX_FILES };
  // How a message's mail ends, recorded on the message in the transaction that marks the outbox row.
  app.outbox.handle('messages', {
    async sent(trx, row) {
      const { addresses } = row.context as MailContext;
      if (row.sourceId === null) return;
      const recipients = await describeRecipients(trx, row.tenantId, addresses);
      await trx
        .updateTable('messages')
        .set({ recipients: JSON.stringify(recipients), mail_error: null, updated_at: sql`now()` })
        .where('tenant_id', '=', row.tenantId)
        .where('id', '=', row.sourceId)
        .execute();
    },
    async failed(trx, row, error) {
      if (row.sourceId === null) return;
      await trx
        .updateTable('messages')
        .set({ mail_error: `${MAIL_GIVEN_UP} (${row.attempts} attempts): ${error}`.slice(0, 1000) })
        .where('tenant_id', '=', row.tenantId)
        .where('id', '=', row.sourceId)
        .execute();
    },
    // Queued again by an operator: no longer given up; `failed` sets it again if it fails again.
    async requeued(trx, row) {
      if (row.sourceId === null) return;
      await trx
        .updateTable('messages')
        .set({ mail_error: null })
        .where('tenant_id', '=', row.tenantId)
        .where('id', '=', row.sourceId)
        .execute();
    },
  });
  await app.register(multipart, { limits: multipartLimits(limits), throwFileSizeLimit: true });

  // Multipart or JSON, each checked by its schema: JSON by Fastify, the form once it is read.
  const schemas = createMessageSchema(registry, messages, registry.require('attachments'));
  app.post('/api/messages', validating(schemas.route), async (request, reply) => {
    const auth = await authorize(request, messages, 'store');
    let body: unknown = request.body;
    let files: StoredUpload[] = [];
    let form: MultipartForm | undefined;
    if (request.isMultipart()) {
      form = await readMultipart(request, store, limits, (f) => baseFieldName(f) === 'file');
      files = form.files;
    }
    try {
      const typed = form ? formValues(schemas.form, form) : undefined;
      if (typed) body = typed.values;
      const read = readMessageForm(body, auth);
      if (typed) validForm(request, typed.values, { ...typed.byHand, ...read.byHand });
      else validInputWith(request, read.byHand);
      const created = await createMessage(deps, auth, messages, read, files);
      const outcome = created.outboxId ? await app.outbox.sendNow(created.outboxId) : undefined;
      const mailError =
        outcome === 'failed' ? MAIL_GIVEN_UP_NOW : outcome === 'retrying' ? MAIL_RETRYING : undefined;
      const row = await findRecord(deps, auth, messages, created.id, {
        with: { attachments: {} },
        withCount: [],
      });
      reply.status(201);
      return mailError ? { ...row, mail_error: mailError } : row;
    } catch (error) {
      await discard(store, files);
      throw error;
    }
  });
};

/** Steps 2 and 3 of the header: checks, then the message with its files in one transaction. */
async function createMessage(
  deps: Deps,
  auth: AuthContext,
  messages: Resource,
  { record, attachmentIds }: MessageForm,
  files: StoredUpload[],
): Promise<{ id: number; outboxId?: number }> {
  const owner = await ownerOf(deps, auth, messages, record);

  const errors: Record<string, string[]> = {};
  const mine = new Set(await ownUnlinked(deps.db, auth, attachmentIds));
  attachmentIds.forEach((id, i) => {
    if (!mine.has(id)) errors[`attachment_ids.${i}`] = [`The selected attachment_ids.${i} is invalid.`];
  });
  // Addresses are checked whenever given (they are stored), and resolved when the message goes out.
  const given = checkAddresses(record, errors);
  let addresses: Addresses | undefined;
  if (auth.kind === 'operator' && record.send_to_client === true) {
    addresses = given;
    if (addresses.to.length === 0 && owner && !errors.to) {
      const fallback = await defaultAddress(deps.db, auth.tenantId, {
        type: owner.type,
        table: owner.resource.table,
        id: owner.id,
      });
      if (fallback) addresses.to = [fallback];
      else
        errors.to = [
          'The message has no recipient: the record has no client e-mail address, so give one in to.',
        ];
    }
    if (!errors.to) record.to = addresses.to;
  }
  if (Object.keys(errors).length) throw new ValidationError(errors);

  // Images the HTML shows that the caller uploaded and no message holds yet belong to this message.
  const html = typeof record.message === 'string' ? sanitizeMessage(record.message) : '';
  const shown = await ownUnlinked(deps.db, auth, embeddedImageIds(html));
  let outboxId: number | undefined;
  const id = await insertRecord(deps, auth, messages, record, async (id, trx) => {
    await insertAttachments(trx, files, {
      tenantId: auth.tenantId,
      userId: auth.userId,
      messageId: id,
      embedded: false,
    });
    const linked = await linkUploads(trx, auth, id, attachmentIds);
    // Two messages racing for one upload: the other took it.
    if (linked < attachmentIds.length)
      throw new ValidationError({ attachment_ids: [serverText('attachment_linked_elsewhere')] });
    await linkUploads(trx, auth, id, shown);
    if (addresses && owner) outboxId = await queueMail(trx, auth.tenantId, id, owner, addresses);
  });
  return { id, outboxId };
}

/** The message's mail into the outbox, in the transaction that writes the message. */
export async function queueMail(
  trx: DbTransaction,
  tenantId: number,
  id: number,
  owner: Owner,
  addresses: Addresses,
): Promise<number> {
  const stored = await trx
    .selectFrom('messages')
    .select(['message', 'description'])
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
  const message = { id, tenantId, html: stored.message, description: stored.description };
  const mail = await messageMail(trx, message, owner, addresses);
  // Replies that thread (issue 19): our Message-ID is recorded on the message, and the mail answers the
  // conversation's mails before it (sent or received), so the client's program threads them and the
  // answer's In-Reply-To finds this record again. A ticket's mail carries its signed reply token
  // (issue 31): only a reply that has it, or a verified participant's, joins the ticket.
  const earlier = await threadMessageIds(trx, tenantId, owner, id);
  const recipient = addresses.to[0] ?? addresses.cc[0] ?? addresses.bcc[0] ?? '';
  const messageId =
    owner.type === 'ticket' ? await ticketMessageId(trx, tenantId, owner.id, recipient) : newMessageId();
  const threaded = {
    ...mail,
    messageId,
    ...(earlier.length ? { inReplyTo: earlier.at(-1), references: earlier } : {}),
  };
  await trx
    .updateTable('messages')
    .set({ mail_message_id: messageId })
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .execute();
  const context: MailContext = { addresses };
  return enqueueMail(trx, threaded, { tenantId, source: 'messages', sourceId: id, context });
}

/** The Message-IDs of the record's earlier mails, oldest first (at most the last 20: a header has a length). */
async function threadMessageIds(
  trx: DbTransaction,
  tenantId: number,
  owner: Owner,
  before: number,
): Promise<string[]> {
  const rows = await trx
    .selectFrom('messages')
    .select('mail_message_id')
    .where('tenant_id', '=', tenantId)
    .where('morphable_type', '=', owner.type)
    .where('morphable_id', '=', owner.id)
    .where('mail_message_id', 'is not', null)
    .where('id', '<>', before)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(20)
    .execute();
  return rows.map((r) => String(r.mail_message_id)).reverse();
}
