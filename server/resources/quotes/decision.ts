/**
 * What a decision on a sent quote needs (./decide.ts, ./send.ts): the accept body checked field by field,
 * the quote locked and still sent, and still within its validity date (common/quote-validity.ts).
 */
import type { AuthContext } from '../../auth/context.ts';
import type { Db } from '../../db/database.ts';
import { notFound, ValidationError } from '../../http/errors.ts';
import { serverText } from '../../../common/server-texts.ts';
import { isPngDataUrl } from '../../pdf/png.ts';
import { blankIsMissing } from '../../docs/action-schema.ts';
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

export interface Acceptance {
  name: string;
  note: string | null;
  signature: string;
}

/** Any text with at most `max` characters once trimmed (a blank one too: `\S` says it is not blank). */
const trimmedAtMost = (max: number) => `^\\s*(?:\\S(?:[\\s\\S]{0,${max - 2}}\\S)?)?\\s*$`;

/**
 * The accept body, {name, note, signature}: each field's problem in one line (x-error), in the words the
 * portal matches. The signature's lines are a chain (missing, no PNG data URL, too large): if/then/else,
 * so that only the first that fails is said; the last, an image that does not decode, is undecodable's.
 */
export const ACCEPTANCE_BODY = {
  type: 'object',
  required: ['name', 'signature'],
  additionalProperties: false,
  'x-error': { type: 'The body must be an object with name, note and signature.' },
  properties: {
    name: {
      type: 'string',
      description: 'Stored trimmed.',
      pattern: '\\S',
      allOf: [
        {
          pattern: trimmedAtMost(NAME_MAX),
          'x-error': serverText('value_too_long', { field: 'name', max: NAME_MAX }),
        },
      ],
      'x-error': 'field_required',
    },
    note: {
      type: ['string', 'null'],
      maxLength: NOTE_MAX,
      description: 'A blank note is none.',
      'x-error': {
        type: 'value_not_text',
        maxLength: serverText('value_too_long', { field: 'note', max: NOTE_MAX }),
      },
    },
    signature: {
      description: 'A PNG data URL (data:image/png;base64,…).',
      ...blankIsMissing('signature_missing', {
        type: 'string',
        pattern: `^${PNG_PREFIX}`,
        'x-error': 'signature_not_png',
        if: { type: 'string', pattern: `^${PNG_PREFIX}` },
        then: { maxLength: MAX_SIGNATURE_LENGTH, 'x-error': 'signature_too_large' },
      }),
    },
  },
};

/**
 * By hand: the signature's image decodes (`signature_invalid`). A schema could say it (a format), but the
 * schema is checked before the caller is known, and decoding up to 500 KB of PNG is work for an allowed
 * caller only. Only for a signature the schema found nothing wrong with; in the same 422 as its lines.
 */
export function undecodable(body: unknown): Record<string, string[]> {
  const { signature } = (body ?? {}) as { signature?: unknown };
  const judged =
    typeof signature === 'string' &&
    signature.startsWith(PNG_PREFIX) &&
    signature.length <= MAX_SIGNATURE_LENGTH;
  return judged && !isPngDataUrl(signature) ? { signature: [serverText('signature_invalid')] } : {};
}

/** The acceptance of a body that ACCEPTANCE_BODY has checked: the name trimmed, a blank note none. */
export function acceptance(body: unknown): Acceptance {
  const { name, note, signature } = body as { name: string; note?: string | null; signature: string };
  return { name: name.trim(), note: note?.trim() ? note : null, signature };
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
