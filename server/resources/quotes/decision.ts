/**
 * What a decision on a sent quote needs (./decide.ts, ./send.ts): the accept body checked field by field,
 * the quote locked and still sent, and still within its validity date (common/quote-validity.ts).
 */
import type { AuthContext } from '../../auth/context.ts';
import type { Db } from '../../db/database.ts';
import { notFound, ValidationError } from '../../http/errors.ts';
import { isDecodablePng } from '../../pdf/png.ts';
import { serverText } from '../../../common/server-texts.ts';
import { validityPassed } from '../../../common/quote-validity.ts';

/** SPEC 3: the status a quote can be decided on in. */
export const SENT = 2;

/** SPEC 3: the other statuses the quote calls set or check. */
export const CONCEPT = 1;
export const ACCEPTED = 3;
export const DECLINED = 4;

/** The longest signature data URL accepted: 500 KB of text. */
export const MAX_SIGNATURE_LENGTH = 500 * 1024;
const NAME_MAX = 255;
const NOTE_MAX = 2000;
const PNG_PREFIX = 'data:image/png;base64,';

export const QUOTE_EXPIRED = serverText('quote_expired');
export const QUOTE_EXPIRED_NOT_SENDABLE = serverText('quote_expired_not_sendable');

/** True when the text is a PNG data URL whose image decodes (server/pdf/png.ts). */
export function isPngDataUrl(value: string): boolean {
  if (!value.startsWith(PNG_PREFIX)) return false;
  const base64 = value.slice(PNG_PREFIX.length);
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(base64) || base64.length % 4 !== 0) return false;
  return isDecodablePng(Buffer.from(base64, 'base64'));
}

export interface Acceptance {
  name: string;
  note: string | null;
  signature: string;
}

/** The accept body, {name, note, signature}: every problem as a 422 line under its field. */
export function parseAcceptance(body: unknown): Acceptance {
  const errors: Record<string, string[]> = {};
  const add = (field: string, line: string) => (errors[field] ??= []).push(line);
  if (!body || typeof body !== 'object' || Array.isArray(body)) {
    throw new ValidationError({ body: ['The body must be an object with name, note and signature.'] });
  }
  const { name, note, signature, ...rest } = body as Record<string, unknown>;
  for (const key of Object.keys(rest)) add(key, `The field ${key} is not allowed.`);

  let cleanName = '';
  if (typeof name !== 'string' || name.trim() === '')
    add('name', serverText('field_required', { field: 'name' }));
  else if (name.trim().length > NAME_MAX)
    add('name', serverText('value_too_long', { field: 'name', max: NAME_MAX }));
  else cleanName = name.trim();

  let cleanNote: string | null = null;
  if (note !== undefined && note !== null) {
    if (typeof note !== 'string') add('note', serverText('value_not_text', { field: 'note' }));
    else if (note.length > NOTE_MAX)
      add('note', serverText('value_too_long', { field: 'note', max: NOTE_MAX }));
    else cleanNote = note.trim() === '' ? null : note;
  }

  if (signature === undefined || signature === null || signature === '')
    add('signature', serverText('signature_missing'));
  else if (typeof signature !== 'string' || !signature.startsWith(PNG_PREFIX))
    add('signature', serverText('signature_not_png'));
  else if (signature.length > MAX_SIGNATURE_LENGTH) add('signature', serverText('signature_too_large'));
  else if (!isPngDataUrl(signature)) add('signature', serverText('signature_invalid'));

  if (Object.keys(errors).length) throw new ValidationError(errors);
  return { name: cleanName, note: cleanNote, signature: signature as string };
}

/**
 * Locks the quote row and checks that it is still sent; 422 when it is not (any more). Answers its
 * validity date, read under the same lock: an extension saved at the same moment is in or out as a whole.
 */
export async function lockSentQuote(
  trx: Db,
  auth: AuthContext,
  id: number,
  message: string,
): Promise<{ validUntil: unknown }> {
  const row = await trx
    .selectFrom('quotes')
    .select(['id', 'status_id', 'valid_until'])
    .where('id', '=', id)
    .where('tenant_id', '=', auth.tenantId)
    .forUpdate()
    .executeTakeFirst();
  if (!row) throw notFound();
  if (Number(row.status_id) !== SENT) throw new ValidationError({ status_id: [message] }, message);
  return { validUntil: row.valid_until };
}

/** 422 on the validity date when the quote is past it. */
export function refuseWhenExpired(validUntil: unknown, message: string): void {
  if (validityPassed(validUntil)) throw new ValidationError({ valid_until: [message] }, message);
}
