/**
 * An operator's message as the e-mail the client receives: the stored (sanitised) HTML with its
 * inline images as `cid:` parts, a plain-text alternative, and every attachment of the message.
 * The subject is the message's description, else the record's label, with the ticket reference
 * (or any record's `reference`) in front so replies can be matched to it. Attachments are file-store
 * keys: the outbox reads their bytes when it sends.
 */
import type { Db } from '../../db/database.ts';
import { bySchema } from '../../db/schema-tables.ts';
import type { Resource } from '../../../common/schema/types.ts';
import { messageText } from '../../html/sanitize.ts';
import type { OutboxAttachment, OutboxMail } from '../../mail/enqueue.ts';
import type { Addresses } from './recipients.ts';

const cid = (id: number) => `attachment-${id}@service-desk`;

/** The message's description, else the record's description or label; its reference in front. */
async function subjectOf(
  db: Db,
  tenantId: number,
  owner: { resource: Resource; id: number },
  description: string | null,
): Promise<string> {
  const { resource, id } = owner;
  const fields = ['reference', 'description', resource.label]
    .map((name) => resource.fields[name])
    .filter((f) => f !== undefined);
  const row = fields.length
    ? await bySchema(db)
        .selectFrom(resource.table)
        .select(fields.map((f) => `${f.column} as ${f.name}`))
        .where('id', '=', id)
        .$if(resource.tenant, (q) => q.where('tenant_id', '=', tenantId))
        .executeTakeFirst()
    : undefined;
  const reference = row?.reference ? String(row.reference) : undefined;
  const text = description?.trim() || row?.description || (row?.[resource.label] ?? resource.title);
  const subject = reference && String(text) !== reference ? `[${reference}] ${text}` : String(text);
  return subject.replace(/[\r\n]+/g, ' ').slice(0, 250);
}

export async function messageMail(
  db: Db,
  message: { id: number; tenantId: number; html: string; description: string | null },
  owner: { resource: Resource; id: number },
  addresses: Addresses,
): Promise<OutboxMail> {
  const files = await db
    .selectFrom('attachments')
    .select(['id', 'name', 'mime_type', 'path'])
    .where('tenant_id', '=', message.tenantId)
    .where('message_id', '=', message.id)
    .orderBy('id')
    .execute();
  const inline = new Set<number>();
  const html = message.html.replace(/src="\/api\/attachments\/(\d+)\/file"/g, (whole, raw: string) => {
    const id = Number(raw);
    if (!files.some((f) => Number(f.id) === id)) return whole;
    inline.add(id);
    return `src="cid:${cid(id)}"`;
  });
  const attachments: OutboxAttachment[] = [];
  for (const file of files) {
    const id = Number(file.id);
    attachments.push({
      filename: file.name,
      key: file.path,
      contentType: file.mime_type ?? 'application/octet-stream',
      ...(inline.has(id) ? { cid: cid(id) } : {}),
    });
  }
  return {
    to: addresses.to,
    cc: addresses.cc,
    bcc: addresses.bcc,
    subject: await subjectOf(db, message.tenantId, owner, message.description),
    text: messageText(message.html),
    html,
    attachments,
  };
}
