/** Attachment rows for files that are already in the store. */
import type { Db } from '../../db/database.ts';
import type { StoredUpload } from '../../files/upload.ts';

export interface NewAttachment {
  tenantId: number;
  userId: number | null;
  messageId: number | null;
  embedded: boolean;
}

export async function insertAttachments(
  db: Db,
  uploads: StoredUpload[],
  { tenantId, userId, messageId, embedded }: NewAttachment,
): Promise<number[]> {
  if (uploads.length === 0) return [];
  const rows = await db
    .insertInto('attachments')
    .values(
      uploads.map((u) => ({
        tenant_id: tenantId,
        message_id: messageId,
        user_id: userId,
        name: u.name,
        extension: u.extension,
        size: u.size,
        mime_type: u.mime,
        is_embedded: embedded,
        path: u.key,
      })),
    )
    .returning('id')
    .execute();
  return rows.map((r) => Number(r.id));
}
