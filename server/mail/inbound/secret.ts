/**
 * Mailbox passwords at rest (issue 19): AES-256-GCM, a random 12-byte IV per password, the tenant's id as
 * additional data (a ciphertext copied to another tenant's row does not open). Stored as
 * `v1.<iv>.<tag>.<ciphertext>` in base64url; never answered (the schema's field is write-only).
 *
 * The key: SHA-256 of MAILBOX_KEY when it is set (the database alone then opens nothing); else a random key
 * kept in `signing_keys` under `mailbox-passwords`, made by whichever instance needs it first, so every
 * instance on one database reads the same passwords (docs/operations.md, "Incoming e-mail").
 */
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import { ensureKey } from '../../db/signing-keys.ts';

const KEY_NAME = 'mailbox-passwords';
let configured: string | undefined;

/** MAILBOX_KEY of the configuration (server start); undefined: the key kept in the database. */
export function useMailboxKey(secret: string | undefined): void {
  configured = secret || undefined;
}

async function key(db: Db): Promise<Buffer> {
  let secret = configured;
  if (!secret) {
    await ensureKey(db, KEY_NAME);
    const { rows } = await sql<{ key: string }>`
      select key from signing_keys where name = ${KEY_NAME} order by generation limit 1`.execute(db);
    secret = rows[0]!.key;
  }
  return createHash('sha256').update(secret).digest();
}

const aad = (tenantId: number) => Buffer.from(`mailbox:${tenantId}`);

export async function encryptPassword(db: Db, tenantId: number, password: string): Promise<string> {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', await key(db), iv);
  cipher.setAAD(aad(tenantId));
  const body = Buffer.concat([cipher.update(password, 'utf8'), cipher.final()]);
  return ['v1', iv, cipher.getAuthTag(), body]
    .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
    .join('.');
}

/** The password, or an Error saying why it cannot be read (another key, a damaged value). */
export async function decryptPassword(db: Db, tenantId: number, stored: string): Promise<string> {
  const [version, iv, tag, body] = stored.split('.');
  if (version !== 'v1' || !iv || !tag || body === undefined)
    throw new Error('the stored password is not readable');
  const decipher = createDecipheriv('aes-256-gcm', await key(db), Buffer.from(iv, 'base64url'));
  decipher.setAAD(aad(tenantId));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  try {
    return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString(
      'utf8',
    );
  } catch {
    throw new Error('the stored password does not open with this key (was MAILBOX_KEY changed?)');
  }
}
