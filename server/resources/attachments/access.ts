/**
 * Who may fetch an attachment's file. The rule of the attachments schema (clients: attachments of
 * messages they may see, i.e. visible_to_client messages on records of their companies; operators:
 * any of the tenant) plus one case the schema cannot say: an inline image uploaded before its message
 * exists belongs to no message yet and is visible to its uploader and to operators only.
 */
import type { Kysely, Transaction } from 'kysely';
import type { AuthContext } from '../../auth/context.ts';
import type { Audience } from '../../files/signed-urls.ts';
import { notFound } from '../../http/errors.ts';
import { findRecord, type Deps } from '../repository.ts';

type Reader = Kysely<any> | Transaction<any>;

export interface StoredAttachment {
  id: number;
  message_id: number | null;
  user_id: number | null;
  name: string;
  extension: string | null;
  path: string;
}

async function row(db: Reader, tenantId: number, id: number): Promise<StoredAttachment | undefined> {
  return db
    .selectFrom('attachments')
    .select(['id', 'message_id', 'user_id', 'name', 'extension', 'path'])
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .executeTakeFirst() as Promise<StoredAttachment | undefined>;
}

/** The attachment if this caller (bearer or quote token) may fetch it; 404 otherwise. */
export async function attachmentFor(deps: Deps, auth: AuthContext, id: number): Promise<StoredAttachment> {
  const attachment = await row(deps.db, auth.tenantId, id);
  if (!attachment) throw notFound();
  if (attachment.message_id === null) {
    if (auth.kind === 'operator' || (auth.userId !== null && attachment.user_id === auth.userId))
      return attachment;
    throw notFound();
  }
  // The schema's own rule, the same one every list and `with` applies.
  await findRecord(deps, auth, deps.registry.require('attachments'), id);
  return attachment;
}

/**
 * The attachment a download link opens. The link was made for a reader who could see the file then;
 * for a client it is checked against the file's current state, so a message made internal since
 * closes the links clients hold.
 */
export async function attachmentForLink(
  db: Reader,
  tenantId: number,
  id: number,
  audience: Audience,
): Promise<StoredAttachment> {
  const attachment = await row(db, tenantId, id);
  if (!attachment) throw notFound();
  if (audience.kind === 'operator') return attachment;
  if (attachment.message_id === null) {
    if (attachment.user_id === audience.userId) return attachment;
    throw notFound();
  }
  const message = await db
    .selectFrom('messages')
    .select('visible_to_client')
    .where('tenant_id', '=', tenantId)
    .where('id', '=', attachment.message_id)
    .executeTakeFirst();
  if (!message?.visible_to_client) throw notFound();
  return attachment;
}
