/**
 * What a thread needs on each message that the schema cannot say (issue 5, item 4):
 *
 * - `actor`: who wrote it, operator or client alike. The schema's relations split users into
 *   `operators` and `clients` (and a client may only read itself as a client), so a thread would lose
 *   the names of other clients of the same company; here every message gets the display facts of
 *   its author: id, is_operator (0 for a client), full_name, first_name, last_name, acronym (the
 *   stored one, else initials) and gravatar (an image address from the e-mail's hash; the e-mail
 *   itself is never sent). A `with[]=actor` answer is kept and completed.
 * - images in the HTML and attachment addresses carry a download token for this reader, for the files
 *   this reader may open (attachments/access.ts).
 * - each recorded recipient gets its gravatar.
 */
import { gravatarUrl } from './gravatar.ts';
import type { AuthContext } from '../../auth/context.ts';
import type { Row } from '../../query/relations.ts';
import { signedFileUrl, signingKey, type Audience } from '../../files/signed-urls.ts';
import { embeddedImageIds } from '../../html/sanitize.ts';
import { openableAttachmentIds } from '../attachments/access.ts';
import type { PresentContext } from '../hook-contract.ts';

function initials(first: string | null, last: string | null, full: string | null): string | null {
  const words = [first, last].every(Boolean)
    ? [first!, last!.split(/\s+/).pop()!]
    : (full ?? '').split(/\s+/).filter(Boolean);
  const letters = words.map((w) => w[0]!.toUpperCase()).join('');
  return letters ? letters.slice(0, 3) : null;
}

/** Who a download token is for: none for a quote-link holder, who never reads messages. */
export function audienceOf(auth: AuthContext): Audience | undefined {
  if (auth.kind === 'record-token' || auth.userId === null) return undefined;
  return { kind: auth.kind, userId: auth.userId };
}

/**
 * Our image addresses in stored HTML, each with a token for this reader when the reader may open that
 * file (the attachment's own rule): an <img> of a file the reader may not see, written by anyone,
 * keeps its bare address, which opens nothing without the reader's bearer token.
 */
export async function signImages(rows: Row[], { db, auth, registry }: PresentContext): Promise<void> {
  const audience = audienceOf(auth);
  const withImages = rows.filter((r) => typeof r.message === 'string' && embeddedImageIds(r.message).length);
  if (!audience || withImages.length === 0) return;
  const ids = [...new Set(withImages.flatMap((r) => embeddedImageIds(r.message as string)))];
  const openable = await openableAttachmentIds(db, registry, auth, ids);
  if (openable.size === 0) return;
  const key = await signingKey(db);
  for (const row of withImages) {
    row.message = (row.message as string).replace(
      /src="\/api\/attachments\/(\d+)\/file"/g,
      (bare, id: string) =>
        openable.has(Number(id)) ? `src="${signedFileUrl(key, auth.tenantId, Number(id), audience)}"` : bare,
    );
  }
}

export async function addActors(rows: Row[], { db, auth }: PresentContext): Promise<void> {
  const ids = [...new Set(rows.map((r) => r.actor_id).filter((id): id is number => typeof id === 'number'))];
  const users = ids.length
    ? await db
        .selectFrom('users')
        .select(['id', 'is_staff', 'is_operator', 'full_name', 'first_name', 'last_name', 'acronym', 'email'])
        .where('tenant_id', '=', auth.tenantId)
        .where('id', 'in', ids)
        .execute()
    : [];
  const byId = new Map(
    users.map((u) => [
      Number(u.id),
      {
        id: Number(u.id),
        is_operator: u.is_staff ? Number(u.is_operator) : 0,
        full_name: u.full_name,
        first_name: u.first_name,
        last_name: u.last_name,
        acronym: u.acronym ?? initials(u.first_name, u.last_name, u.full_name),
        gravatar: gravatarUrl(u.email),
      },
    ]),
  );
  for (const row of rows) {
    if (!('actor_id' in row)) continue;
    const facts = byId.get(row.actor_id);
    const loaded = row.actor && typeof row.actor === 'object' ? row.actor : {};
    row.actor = facts ? { ...loaded, ...facts } : null;
  }
}

export function addRecipientGravatars(rows: Row[]): void {
  for (const row of rows) {
    if (!Array.isArray(row.recipients)) continue;
    row.recipients = row.recipients.map((r: { address?: string }) => ({
      ...r,
      gravatar: gravatarUrl(r.address),
    }));
  }
}
