/**
 * Download links for attachments. An `<img>` in a message or an `<a download>` cannot send the bearer
 * token, so the address a caller receives carries a short-lived signature instead (like an S3
 * pre-signed URL): `/api/attachments/{id}/file?token=<expires>.<audience>.<generation>.<mac>`, the
 * generation naming the signing key (server/db/signing-keys.ts; links made before key generations
 * existed have no such part and were made with generation 1).
 *
 * A link is only ever handed to a caller who may see the attachment at that moment (it is added to
 * rows the caller has just been allowed to read). The audience says who: `o<user id>` for an operator,
 * `c<user id>` for a client; a link is checked again at download as that user is now (the account
 * still there and active, a client's current companies) against the attachment's current state (its
 * message still visible to clients, or the client's own unlinked upload), so making a message internal,
 * removing a client from a company or an operator from the tenant closes the links they were given. Stored message HTML never holds a token: the
 * sanitiser strips it and each reader gets fresh ones.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Db, DbTransaction } from '../db/database.ts';
import { DatabaseKeyRing, transactionKeyRing, type KeyRing, type SigningKey } from '../db/signing-keys.ts';

/** How long a link works. A page left open longer gets new links when it reloads the thread. */
export const LINK_SECONDS = 6 * 60 * 60;

export interface Audience {
  kind: 'operator' | 'client';
  userId: number;
}

const KEY_NAME = 'attachment-urls';
const rings = new WeakMap<object, KeyRing>();

/** The signing keys every process shares (made by migration 0004, generations since 0015). */
export function signingKeys(db: Db): KeyRing {
  // A transaction is a new object each time: only the database handle itself is worth remembering.
  if (db.isTransaction) return transactionKeyRing(db as DbTransaction, KEY_NAME);
  let ring = rings.get(db);
  if (!ring) {
    ring = new DatabaseKeyRing(db, KEY_NAME);
    rings.set(db, ring);
  }
  return ring;
}

/** The key new links are signed with. */
export function signingKey(db: Db): Promise<SigningKey> {
  return signingKeys(db).current();
}

const audienceText = (a: Audience) => `${a.kind === 'operator' ? 'o' : 'c'}${a.userId}`;

function mac(key: string, tenantId: number, id: number, audience: string, expires: number): string {
  return createHmac('sha256', key)
    .update(`attachment:${tenantId}:${id}:${audience}:${expires}`)
    .digest('base64url');
}

export function fileUrl(id: number): string {
  return `/api/attachments/${id}/file`;
}

export function signedFileUrl(
  { key, generation }: SigningKey,
  tenantId: number,
  id: number,
  audience: Audience,
  now = Date.now(),
): string {
  const expires = Math.floor(now / 1000) + LINK_SECONDS;
  const who = audienceText(audience);
  return `${fileUrl(id)}?token=${expires}.${who}.${generation}.${mac(key, tenantId, id, who, expires)}`;
}

/** The audience of a valid, unexpired token for this attachment; undefined for anything else. */
export async function verifyToken(
  keys: KeyRing,
  tenantId: number,
  id: number,
  token: string,
  now = Date.now(),
): Promise<Audience | undefined> {
  const match = /^(\d{1,12})\.([oc][1-9]\d{0,9})\.(?:([1-9]\d{0,5})\.)?([A-Za-z0-9_-]{43})$/.exec(token);
  if (!match) return undefined;
  const [, expiresText, who, generationText, given] = match as unknown as [
    string,
    string,
    string,
    string | undefined,
    string,
  ];
  const expires = Number(expiresText);
  if (expires * 1000 < now) return undefined;
  const key = await keys.find(Number(generationText ?? 1));
  if (key === undefined) return undefined;
  const expected = Buffer.from(mac(key, tenantId, id, who, expires));
  const actual = Buffer.from(given);
  if (expected.length !== actual.length || !timingSafeEqual(expected, actual)) return undefined;
  return { kind: who.startsWith('o') ? 'operator' : 'client', userId: Number(who.slice(1)) };
}
