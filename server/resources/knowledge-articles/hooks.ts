/**
 * What a knowledge article's schema cannot say (issue 39, item 4):
 *
 * - tags are kept as one tidy text ("vpn, printer"): trimmed, lower case, each once, so the list's
 *   `like` filter and the full-text search see the same words however they were typed.
 * - an image the article shows that its writer uploaded and no message or article holds yet becomes the
 *   article's (attachments.knowledge_article_id): whoever may read the article may open it, through the
 *   attachments' own portal scope, and the public pages serve it for a public article.
 * - images in the body carry a download token for the reader, as a message's do.
 */
import type { DbTransaction } from '../../db/database.ts';
import type { AuthContext } from '../../auth/context.ts';
import { embeddedImageIds } from '../../html/sanitize.ts';
import type { HookContext, ResourceHooks } from '../hook-contract.ts';
import { signImages } from '../messages/present.ts';

/** The most tags an article keeps; more are cut (a label list, not a text). */
const MAX_TAGS = 30;

export function tidyTags(text: string): string {
  const tags = text
    .split(',')
    .map((t) => t.trim().toLowerCase().replace(/\s+/g, ' '))
    .filter(Boolean);
  return [...new Set(tags)].slice(0, MAX_TAGS).join(', ');
}

async function adoptImages(trx: DbTransaction, auth: AuthContext, id: number): Promise<void> {
  if (auth.userId === null) return;
  const article = await trx
    .selectFrom('knowledge_articles')
    .select('body')
    .where('tenant_id', '=', auth.tenantId)
    .where('id', '=', id)
    .executeTakeFirst();
  const ids = embeddedImageIds(article?.body ?? '');
  if (ids.length === 0) return;
  // Only the writer's own uploads that nothing holds yet: embedding the address of another message's
  // file must not hand that file to the article's readers.
  await trx
    .updateTable('attachments')
    .set({ knowledge_article_id: id, is_embedded: true })
    .where('tenant_id', '=', auth.tenantId)
    .where('id', 'in', ids)
    .where('message_id', 'is', null)
    .where('knowledge_article_id', 'is', null)
    .where('user_id', '=', auth.userId)
    .execute();
}

export const articleHooks: ResourceHooks = {
  beforeStore(row) {
    if (typeof row.tags === 'string') row.tags = tidyTags(row.tags);
  },
  beforeUpdate(_id, changes) {
    if (typeof changes.tags === 'string') changes.tags = tidyTags(changes.tags);
  },
  async afterStore(id, { trx, auth }: HookContext) {
    await adoptImages(trx, auth, id);
  },
  async afterUpdate(id, { trx, auth }: HookContext) {
    await adoptImages(trx, auth, id);
  },
  async present(rows, ctx) {
    await signImages(rows, ctx, 'body');
  },
};
