/**
 * Reply tokens (issue 31, item 3): what a mail must carry to join a ticket without a verified
 * participant behind it. Every mail we send about a ticket has a Message-ID of the form
 *
 *     <t.{ticket}.{recipient}.{generation}.{mac}.{nonce}@{our domain}>
 *
 * - `recipient`: 40 bits of HMAC(key, tenant and the address we mailed), so the token names whom it was
 *   issued to without showing the address;
 * - `mac`: 80 bits of HMAC-SHA256(key, tenant, ticket and recipient): without the key no one can make a
 *   token for a ticket, and a token of one tenant's ticket is worth nothing to another tenant's mailbox;
 * - `generation`: which generation of the key signed it (server/db/signing-keys.ts, name
 *   `mail-reply-tokens`), so a rotation leaves the tokens already sent working until the old generation
 *   is retired;
 * - `nonce`: random, so every mail's Message-ID is its own (RFC 5322), though the token is per ticket
 *   and recipient.
 *
 * A reply carries it back in In-Reply-To/References, which every mail program writes. Lower-case hex
 * only, so a token survives a system that folds case. Guessing one takes 2^80 mails.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { sql } from 'kysely';
import type { Db } from '../db/database.ts';
import { ensureKey } from '../db/signing-keys.ts';
import { ourMessageIdDomain } from './message-id.ts';

const KEY_NAME = 'mail-reply-tokens';
/** A token Message-ID: fixed-width parts, no nested repetition (linear time on any input). */
const TOKEN = /^<t\.(\d{1,10})\.([0-9a-f]{10})\.(\d{1,4})\.([0-9a-f]{20})\.[0-9a-f]{16}@[^<>\s]{1,255}>$/;

export interface ReplyToken {
  ticketId: number;
  /** The address the mail carrying the token was sent to is the one given as `sender`. */
  toSender: boolean;
}

async function keys(db: Db): Promise<{ generation: number; key: string }[]> {
  const read = async () =>
    (
      await sql<{ generation: number; key: string }>`
        select generation, key from signing_keys where name = ${KEY_NAME} order by generation`.execute(db)
    ).rows.map((r) => ({ generation: Number(r.generation), key: r.key }));
  const found = await read();
  if (found.length > 0) return found;
  // Whichever instance mails first makes the key (in the caller's transaction when it has one).
  await ensureKey(db, KEY_NAME);
  return read();
}

const hmac = (key: string, text: string) => createHmac('sha256', key).update(text).digest('hex');
const recipientPart = (key: string, tenantId: number, address: string) =>
  hmac(key, `recipient:${tenantId}:${address.trim().toLowerCase()}`).slice(0, 10);
const macPart = (key: string, tenantId: number, ticketId: number, recipient: string) =>
  hmac(key, `reply:${tenantId}:${ticketId}:${recipient}`).slice(0, 20);

/** A new Message-ID for a mail about ticket `ticketId` to `recipient`, carrying the ticket's reply token. */
export async function ticketMessageId(
  db: Db,
  tenantId: number,
  ticketId: number,
  recipient: string,
): Promise<string> {
  const { generation, key } = (await keys(db)).at(-1)!;
  const to = recipientPart(key, tenantId, recipient);
  const mac = macPart(key, tenantId, ticketId, to);
  const nonce = randomBytes(8).toString('hex');
  return `<t.${ticketId}.${to}.${generation}.${mac}.${nonce}@${ourMessageIdDomain()}>`;
}

/**
 * The reply tokens among `messageIds` (a mail's References and In-Reply-To) that this tenant's key
 * signed, each with whether it was issued to `sender`. Forged, altered, foreign and retired ones are
 * left out. Whether the ticket still exists is the caller's to check.
 */
export async function readReplyTokens(
  db: Db,
  tenantId: number,
  messageIds: string[],
  sender: string | undefined,
): Promise<ReplyToken[]> {
  const candidates = messageIds.map((id) => TOKEN.exec(id)).filter((m) => m !== null);
  if (candidates.length === 0) return [];
  const ring = await keys(db);
  const tokens: ReplyToken[] = [];
  for (const [, ticket, to, generation, mac] of candidates) {
    const key = ring.find((k) => k.generation === Number(generation))?.key;
    const ticketId = Number(ticket);
    if (!key || !Number.isSafeInteger(ticketId) || ticketId > 2_147_483_647) continue;
    const expected = Buffer.from(macPart(key, tenantId, ticketId, to!));
    if (!timingSafeEqual(expected, Buffer.from(mac!))) continue;
    tokens.push({ ticketId, toSender: !!sender && recipientPart(key, tenantId, sender) === to });
  }
  return tokens;
}
