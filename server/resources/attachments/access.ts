/**
 * Who may fetch an attachment's file. The rule of the attachments schema (clients: attachments of
 * messages they may see, i.e. visible_to_client messages on records of their companies; operators:
 * any of the tenant) plus one case the schema cannot say: an inline image uploaded before its message
 * exists belongs to no message yet and is visible to its uploader and to operators only. The same
 * rule decides which files get a signed link and what a link opens when it is used.
 */
import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import { linkHolderContext } from '../../auth/authenticate.ts';
import type { AuthContext } from '../../auth/context.ts';
import type { Audience } from '../../files/signed-urls.ts';
import { notFound } from '../../http/errors.ts';
import { baseConditions, sqlContext } from '../../query/sql.ts';
import { and, ref, tableAs } from '../../query/fragments.ts';
import type { Registry } from '../../schema/registry.ts';
import { may } from '../../auth/may.ts';
import type { Deps } from '../repository-contract.ts';

export interface StoredAttachment {
  id: number;
  message_id: number | null;
  user_id: number | null;
  name: string;
  extension: string | null;
  path: string;
}

async function row(db: Db, tenantId: number, id: number): Promise<StoredAttachment | undefined> {
  return db
    .selectFrom('attachments')
    .select(['id', 'message_id', 'user_id', 'name', 'extension', 'path'])
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .executeTakeFirst() as Promise<StoredAttachment | undefined>;
}

/** Of these attachment ids, those whose file this caller may fetch. */
export async function openableAttachmentIds(
  db: Db,
  registry: Registry,
  auth: AuthContext,
  ids: number[],
): Promise<Set<number>> {
  if (ids.length === 0) return new Set();
  const ctx = sqlContext(registry, auth);
  const alias = ctx.nextAlias();
  // The schema's own rule, the same one every list and `with` applies; it sees no message-less upload.
  const bySchema = and(baseConditions(ctx, registry.require('attachments'), alias));
  const ownUpload =
    auth.userId === null
      ? sql`false`
      : sql`${ref(alias, 'message_id')} is null and ${ref(alias, 'user_id')} = ${auth.userId}`;
  const { rows } = await sql<{ id: number }>`select ${ref(alias, 'id')} from ${tableAs(
    registry.require('attachments'),
    alias,
  )} where ${ref(alias, 'tenant_id')} = ${auth.tenantId} and ${ref(alias, 'id')} in (${sql.join(ids)})
    and (${bySchema} or (${ownUpload}))`.execute(db);
  return new Set(rows.map((r) => Number(r.id)));
}

/** The attachment if this caller (bearer or quote token) may fetch it; 404 otherwise. */
export async function attachmentFor(deps: Deps, auth: AuthContext, id: number): Promise<StoredAttachment> {
  const attachment = await row(deps.db, auth.tenantId, id);
  if (!attachment || !(await openableAttachmentIds(deps.db, deps.registry, auth, [id])).has(id))
    throw notFound();
  return attachment;
}

/**
 * The attachment a download link opens. The link was made for a reader who could see the file then;
 * it is checked again as that reader is now (an account still there and active, of the kind the link
 * was made for, a client's current companies and role) against the file's current state, so a message
 * made internal since, a client removed from the company or an operator removed from the tenant closes
 * the links they hold.
 */
export async function attachmentForLink(
  deps: Deps,
  tenantId: number,
  id: number,
  audience: Audience,
): Promise<StoredAttachment> {
  const holder = await linkHolderContext(deps.db, tenantId, audience.userId);
  if (holder?.kind !== audience.kind || !may(holder, deps.registry.require('attachments'), 'show'))
    throw notFound();
  return attachmentFor(deps, holder, id);
}
