/** What a mail brings to its message: its files (those the upload rules let through) and its HTML. */
import { inspectBuffer } from '../../files/inspect.ts';
import { judgeFile } from '../../files/kinds.ts';
import { cleanFileName, discard, type StoredUpload } from '../../files/upload.ts';
import { escapeHtml } from '../../html/escape.ts';
import type { InboundDeps } from './deps.ts';
import type { IncomingMail } from './parse.ts';
import { hasVisibleText } from './quote-split.ts';

/** The mail's files that pass the upload rules, in the store; the others named with the reason. */
export async function storeAttachments(
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
export function messageHtml(mail: IncomingMail, refused: string[]): string {
  let html = mail.html;
  if (!hasVisibleText(html)) html = `<p>${escapeHtml(mail.subject || '…')}</p>`;
  if (mail.quoted) html += `<details><summary>…</summary>${mail.quoted}</details>`;
  if (refused.length)
    html += `<p><em>${refused.map((r) => escapeHtml(`Not kept: ${r}`)).join('<br>')}</em></p>`;
  return html;
}
