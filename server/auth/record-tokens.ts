import type { Db } from '../db/database.ts';
import { randomToken, tokenHash } from './tokens.ts';

/**
 * Record tokens are the links in e-mails (a sent quote) that open exactly one record without a login.
 * Only the hash is stored; the token itself exists in the e-mail alone.
 */
export async function createRecordToken(
  db: Db,
  tenantId: number,
  resource: string,
  recordId: number,
  ttlDays?: number,
): Promise<string> {
  const token = randomToken();
  await db
    .insertInto('record_tokens')
    .values({
      tenant_id: tenantId,
      resource,
      record_id: recordId,
      token_hash: tokenHash(token),
      expires_at: ttlDays === undefined ? null : new Date(Date.now() + ttlDays * 86_400_000),
      created_at: new Date(),
    })
    .execute();
  return token;
}

/** The record a token opens, when the token exists in this tenant and has not expired. */
export async function findRecordToken(
  db: Db,
  tenantId: number,
  token: string,
): Promise<{ resource: string; recordId: number } | undefined> {
  const row = await db
    .selectFrom('record_tokens')
    .select(['resource', 'record_id'])
    .where('token_hash', '=', tokenHash(token))
    .where('tenant_id', '=', tenantId)
    .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', new Date())]))
    .executeTakeFirst();
  return row ? { resource: row.resource, recordId: Number(row.record_id) } : undefined;
}
