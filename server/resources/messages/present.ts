/**
 * What a thread needs on each message that the schema cannot say (issue 5, item 4):
 *
 * - `actor`: who wrote it, operator or client alike. The schema's relations split users into
 *   `operators` and `clients` (and a client may only read itself as a client), so a thread would lose
 *   the names of other clients of the same company; here every message gets the display facts of
 *   its author: id, is_operator (0 for a client), full_name, first_name, last_name, acronym (the
 *   stored one, else initials) and gravatar (an image address from the e-mail's hash; the e-mail
 *   itself is never sent). A `with[]=actor` answer is kept and completed.
 * - images in the HTML and attachment addresses carry a download token for this reader.
 * - each recorded recipient gets its gravatar.
 */
import { createHash } from 'node:crypto';
import type { AuthContext } from '../../auth/context.ts';
import type { Row } from '../../query/relations.ts';
import { signedFileUrl, signingKey, type Audience } from '../../files/signed-urls.ts';
import type { PresentContext } from '../hooks.ts';

export function gravatarUrl(email: string | null | undefined): string | null {
  if (!email) return null;
  const hash = createHash('sha256').update(email.trim().toLowerCase()).digest('hex');
  // d=404: no picture answers 404, so the apps fall back to the initials.
  return `https://www.gravatar.com/avatar/${hash}?s=80&d=404`;
}

function initials(first: string | null, last: string | null, full: string | null): string | null {
  const words = [first, last].every(Boolean)
    ? [first!, last!.split(/\s+/).pop()!]
    : (full ?? '').split(/\s+/).filter(Boolean);
  const letters = words.map((w) => w[0]!.toUpperCase()).join('');
  return letters ? letters.slice(0, 3) : null;
}

/** Who a download token is for: none for a quote-link holder, who never reads messages. */
export function audienceOf(auth: AuthContext): Audience | undefined {
  if (auth.kind === 'operator') return { kind: 'operator' };
  if (auth.kind === 'client' && auth.userId !== null) return { kind: 'client', userId: auth.userId };
  return undefined;
}

/** Our image addresses in stored HTML, each with a token for this reader. */
export async function signImages(rows: Row[], { db, auth }: PresentContext): Promise<void> {
  const audience = audienceOf(auth);
  const withImages = rows.filter(
    (r) => typeof r.message === 'string' && r.message.includes('src="/api/attachments/'),
  );
  if (!audience || withImages.length === 0) return;
  const key = await signingKey(db);
  for (const row of withImages) {
    row.message = (row.message as string).replace(
      /src="\/api\/attachments\/(\d+)\/file"/g,
      (_m, id: string) => `src="${signedFileUrl(key, auth.tenantId, Number(id), audience)}"`,
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
