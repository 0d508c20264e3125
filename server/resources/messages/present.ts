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
import { sql, type RawBuilder } from 'kysely';
import { gravatarUrl } from './gravatar.ts';
import type { AuthContext } from '../../auth/context.ts';
import type { Row } from '../../query/relations.ts';
import { signedFileUrl, signingKey, type Audience } from '../../files/signed-urls.ts';
import { embeddedImageIds } from '../../html/sanitize.ts';
import { openableAttachmentIds } from '../attachments/access.ts';
import type { PresentContext } from '../hook-contract.ts';
import { type SqlContext } from '../../query/sql.ts';
import { ref } from '../../query/fragments.ts';

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
 * Our image addresses in stored HTML (`field`: a message's `message`, an article's `body`), each with a
 * token for this reader when the reader may open that file (the attachment's own rule): an <img> of a
 * file the reader may not see, written by anyone, keeps its bare address, which opens nothing without
 * the reader's bearer token.
 */
export async function signImages(
  rows: Row[],
  { db, auth, registry }: PresentContext,
  field = 'message',
): Promise<void> {
  const audience = audienceOf(auth);
  const html = (r: Row) => r[field] as string;
  const withImages = rows.filter((r) => typeof r[field] === 'string' && embeddedImageIds(html(r)).length);
  if (!audience || withImages.length === 0) return;
  const ids = [...new Set(withImages.flatMap((r) => embeddedImageIds(html(r))))];
  const openable = await openableAttachmentIds(db, registry, auth, ids);
  if (openable.size === 0) return;
  const key = await signingKey(db);
  for (const row of withImages) {
    row[field] = html(row).replace(/src="\/api\/attachments\/(\d+)\/file"/g, (bare, id: string) =>
      openable.has(Number(id)) ? `src="${signedFileUrl(key, auth.tenantId, Number(id), audience)}"` : bare,
    );
  }
}

/** The author facts a message row carries when read by the query builder (`actorColumn`). */
const ACTOR_FACTS = '__actor_facts';
const ACTOR_COLUMNS = [
  'id',
  'is_staff',
  'is_operator',
  'full_name',
  'first_name',
  'last_name',
  'acronym',
  'email',
] as const;

interface Author {
  id: number | string;
  is_staff: boolean;
  is_operator: boolean | number;
  full_name: string | null;
  first_name: string | null;
  last_name: string | null;
  acronym: string | null;
  email: string | null;
}

/** The author's row as a JSON column of the statement that reads the messages (`alias`). */
export function actorColumn(alias: string, ctx: SqlContext): RawBuilder<unknown> {
  const columns = sql.join(ACTOR_COLUMNS.map((c) => ref('u', c)));
  return sql`(select row_to_json(a) from (select ${columns} from users as u
    where u.tenant_id = ${ctx.auth.tenantId} and u.id = ${ref(alias, 'actor_id')}) as a) as ${sql.id(ACTOR_FACTS)}`;
}

function facts(u: Author) {
  return {
    id: Number(u.id),
    is_operator: u.is_staff ? Number(u.is_operator) : 0,
    full_name: u.full_name,
    first_name: u.first_name,
    last_name: u.last_name,
    acronym: u.acronym ?? initials(u.first_name, u.last_name, u.full_name),
    gravatar: gravatarUrl(u.email),
  };
}

export async function addActors(rows: Row[], { db, auth }: PresentContext): Promise<void> {
  // Rows the query builder read carry their author (actorColumn); others are looked up in one query.
  const missing = rows.filter((r) => !(ACTOR_FACTS in r) && typeof r.actor_id === 'number');
  const ids = [...new Set(missing.map((r) => r.actor_id as number))];
  const users = ids.length
    ? ((await db
        .selectFrom('users')
        .select(ACTOR_COLUMNS)
        .where('tenant_id', '=', auth.tenantId)
        .where('id', 'in', ids)
        .execute()) as Author[])
    : [];
  const byId = new Map(users.map((u) => [Number(u.id), facts(u)]));
  for (const row of rows) {
    const carried = row[ACTOR_FACTS] as Author | null | undefined;
    delete row[ACTOR_FACTS];
    if (!('actor_id' in row)) continue;
    const found = carried === undefined ? byId.get(row.actor_id) : carried && facts(carried);
    const loaded = row.actor && typeof row.actor === 'object' ? row.actor : {};
    row.actor = found ? { ...loaded, ...found } : null;
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
